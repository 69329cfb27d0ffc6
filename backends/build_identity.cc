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
    // Notes are 4-byte aligned: a header, the name, then the description.
    const auto aligned = [](size_t n) { return (n + 3) & ~size_t{3}; };
    while (static_cast<size_t>(end - at) >= sizeof(ElfW(Nhdr))) {
      ElfW(Nhdr) note;
      std::memcpy(&note, at, sizeof note);
      const uint8_t* name = at + sizeof note;
      const uint8_t* desc = name + aligned(note.n_namesz);
      if (desc > end || static_cast<size_t>(end - desc) < note.n_descsz) break;
      if (note.n_type == NT_GNU_BUILD_ID && note.n_namesz == 4 &&
          std::memcmp(name, "GNU", 4) == 0) {
        return std::string(reinterpret_cast<const char*>(desc), note.n_descsz);
      }
      at = desc + aligned(note.n_descsz);
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
