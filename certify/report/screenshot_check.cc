// Test tool for report.html's browser test: is a PNG screenshot a rendered
// page rather than a blank one? Decodes the PNG (libpng), counts its distinct
// colours and, with --colour RRGGBB, requires that exact colour (the verdict
// banner's background, so the page's CSS was applied).
//   vyre-screenshot-check SHOT.png --min-colours N [--colour RRGGBB]
// Exits 0 when the screenshot passes, 1 when it does not, 2 on bad usage or
// an unreadable PNG; prints what it found either way.
#include <png.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace {

struct Pixels {
  uint32_t width = 0;
  uint32_t height = 0;
  std::vector<uint32_t> rgb;  ///< 0xRRGGBB per pixel, row by row.
};

/// The PNG at `path` as RGB pixels (alpha dropped); nullopt when unreadable.
std::optional<Pixels> read_png(const char* path) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&image, path)) return std::nullopt;
  image.format = PNG_FORMAT_RGB;
  std::vector<png_byte> bytes(PNG_IMAGE_SIZE(image));
  if (!png_image_finish_read(&image, nullptr, bytes.data(), 0, nullptr)) return std::nullopt;
  Pixels out{image.width, image.height, {}};
  out.rgb.reserve(bytes.size() / 3);
  for (size_t i = 0; i + 2 < bytes.size(); i += 3) {
    out.rgb.push_back(uint32_t{bytes[i]} << 16 | uint32_t{bytes[i + 1]} << 8 | bytes[i + 2]);
  }
  return out;
}

int usage() {
  std::fprintf(stderr, "usage: vyre-screenshot-check SHOT.png --min-colours N [--colour RRGGBB]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4 && argc != 6) return usage();
  if (std::string(argv[2]) != "--min-colours") return usage();
  const unsigned long min_colours = std::strtoul(argv[3], nullptr, 10);
  std::optional<uint32_t> wanted;
  if (argc == 6) {
    if (std::string(argv[4]) != "--colour") return usage();
    wanted = static_cast<uint32_t>(std::strtoul(argv[5], nullptr, 16));
  }
  const std::optional<Pixels> pixels = read_png(argv[1]);
  if (!pixels) {
    std::fprintf(stderr, "vyre-screenshot-check: %s is not a readable PNG\n", argv[1]);
    return 2;
  }
  const std::set<uint32_t> colours(pixels->rgb.begin(), pixels->rgb.end());
  const bool has_wanted = !wanted || colours.count(*wanted) > 0;
  std::printf("%s: %ux%u, %zu distinct colours%s\n", argv[1], pixels->width, pixels->height,
              colours.size(), has_wanted ? "" : ", without the wanted colour");
  return colours.size() >= min_colours && has_wanted ? 0 : 1;
}
