#include "certify/report/html_parts.h"

#include <algorithm>
#include <cstdio>

#include "certify/report/report_text.h"
#include "spec/support/utf8.h"

namespace vyre::certify {
namespace {

constexpr int kChartWidth = 880;
constexpr int kLabelWidth = 300;
constexpr int kBarMaxWidth = 460;
constexpr int kRowHeight = 22;
constexpr size_t kMaxLabelCodePoints = 42;

/// The first kMaxLabelCodePoints code points of `text` (valid UTF-8), with
/// "..." when cut.
std::string short_label(std::string_view text) {
  const std::string valid = valid_utf8(text);
  std::string_view rest = valid;
  size_t kept = 0;
  for (size_t points = 0; points < kMaxLabelCodePoints && kept < valid.size(); ++points) {
    const auto decoded = decode_utf8(rest.substr(kept));
    kept += decoded ? decoded->length : 1;
  }
  return kept < valid.size() ? valid.substr(0, kept) + "..." : valid;
}

std::string number(double value) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", value);
  return buf;
}

std::string bar_row(const Bar& bar, double largest, int index, std::string_view unit) {
  const int y = index * kRowHeight;
  const int width = largest > 0 ? static_cast<int>(bar.value / largest * kBarMaxWidth) : 0;
  const std::string text_y = std::to_string(y + 15);
  return "<g><title>" + html_text(bar.label) + "</title><text x=\"" +
         std::to_string(kLabelWidth - 6) + "\" y=\"" + text_y + "\" text-anchor=\"end\">" +
         html_text(short_label(bar.label)) + "</text><rect class=\"bar\" x=\"" +
         std::to_string(kLabelWidth) + "\" y=\"" + std::to_string(y + 3) + "\" width=\"" +
         std::to_string(std::max(width, 1)) + "\" height=\"" + std::to_string(kRowHeight - 6) +
         "\"/><text x=\"" + std::to_string(kLabelWidth + std::max(width, 1) + 6) + "\" y=\"" +
         text_y + "\">" + number(bar.value) + " " + html_text(unit) + "</text></g>";
}

}  // namespace

std::string html_text(std::string_view text) {
  return xml_text(text);
}

std::string element(std::string_view tag, std::string_view text, std::string_view cls) {
  std::string open = "<" + std::string(tag);
  if (!cls.empty()) open += " class=\"" + html_text(cls) + "\"";
  return open + ">" + html_text(text) + "</" + std::string(tag) + ">";
}

std::string link(std::string_view href, std::string_view text) {
  return "<a href=\"" + html_text(href) + "\">" + html_text(text) + "</a>";
}

std::string td(std::string_view text, std::string_view cls) {
  return element("td", text, cls);
}

std::string tr(const std::vector<std::string>& cells_html) {
  std::string out = "<tr>";
  for (const std::string& cell : cells_html) out += cell;
  return out + "</tr>\n";
}

std::string header_row(const std::vector<std::string_view>& texts) {
  std::string out = "<tr>";
  for (std::string_view text : texts) out += element("th", text);
  return out + "</tr>\n";
}

std::string bar_chart(const std::vector<Bar>& bars, std::string_view unit) {
  double largest = 0;
  for (const Bar& bar : bars) largest = std::max(largest, bar.value);
  const int height = static_cast<int>(bars.size()) * kRowHeight;
  std::string out = "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
                    std::to_string(kChartWidth) + "\" height=\"" + std::to_string(height) +
                    "\" role=\"img\">";
  for (size_t i = 0; i < bars.size(); ++i) {
    out += bar_row(bars[i], largest, static_cast<int>(i), unit);
  }
  return out + "</svg>\n";
}

}  // namespace vyre::certify
