#include "backends/build_identity.h"

#include <elf.h>
#include <link.h>

#include <cstdint>
#include <cstring>

namespace vyre {
namespace {

/// The bytes of the NT_GNU_BUILD_ID note in `info`'s PT_NOTE segments.
std::string build_id_of(const dl_phdr_info& info) {
  for (ElfW(Half) i = 0; i < info.dlpi_phnum; ++i) {
    const ElfW(Phdr)& segment = info.dlpi_phdr[i];
    if (segment.p_type != PT_NOTE) continue;
    const auto* at = reinterpret_cast<const uint8_t*>(info.dlpi_addr + segment.p_vaddr);
    const uint8_t* end = at + segment.p_memsz;
    // A note is a 12-byte header, the name, then the description; the
    // description and the next note start at the segment's alignment (4, or
    // 8 for a segment of 8-byte notes such as .note.gnu.property).
    const size_t align = segment.p_align == 8 ? 8 : 4;
    const auto aligned = [align](size_t n) { return (n + align - 1) & ~(align - 1); };
    while (static_cast<size_t>(end - at) >= sizeof(ElfW(Nhdr))) {
      ElfW(Nhdr) note;
      std::memcpy(&note, at, sizeof note);
      const size_t desc_at = aligned(sizeof note + note.n_namesz);
      const size_t next_at = aligned(desc_at + note.n_descsz);
      if (next_at > static_cast<size_t>(end - at)) break;
      const uint8_t* name = at + sizeof note;
      if (note.n_type == NT_GNU_BUILD_ID && note.n_namesz == 4 &&
          std::memcmp(name, "GNU", 4) == 0) {
        return std::string(reinterpret_cast<const char*>(at + desc_at), note.n_descsz);
      }
      at += next_at;
    }
  }
  return {};
}

}  // namespace

std::string executable_build_id() {
  std::string id;
  // The first object dl_iterate_phdr reports is the executable itself.
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* out) {
        *static_cast<std::string*>(out) = build_id_of(*info);
        return 1;
      },
      &id);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  for (const unsigned char c : id) {
    hex += kHex[c >> 4];
    hex += kHex[c & 15];
  }
  return hex;
}

}  // namespace vyre
