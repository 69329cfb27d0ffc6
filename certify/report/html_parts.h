// The pieces report.html is built from: escaped text, table rows and an
// inline-SVG bar chart. Every argument named `text` is raw (from backends,
// plugins, the command line) and is escaped here; arguments named `html` are
// markup this tool built.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace vyre::certify {

/// `text` as HTML text or a quoted attribute value: valid UTF-8 with & < > " '
/// escaped (the XML 1.0 rules of xml_text, which HTML5 accepts as they are).
std::string html_text(std::string_view text);

/// <tag class="cls">escaped text</tag>; no class attribute when `cls` is empty.
std::string element(std::string_view tag, std::string_view text, std::string_view cls = "");

/// <a href="href">text</a>, both escaped; `href` is a path relative to the page.
std::string link(std::string_view href, std::string_view text);

/// A table cell holding escaped `text`.
std::string td(std::string_view text, std::string_view cls = "");

/// <tr> of the given cells (already built with td or th).
std::string tr(const std::vector<std::string>& cells_html);

/// <tr> of header cells, each escaped.
std::string header_row(const std::vector<std::string_view>& texts);

/// One bar of a chart: its label and its value in the chart's unit.
struct Bar {
  std::string label;
  double value = 0;
};

/// A horizontal bar chart as inline SVG, bars scaled to the largest value,
/// each labelled and followed by its value and `unit`; long labels are cut
/// (the full label is the bar's tooltip).
std::string bar_chart(const std::vector<Bar>& bars, std::string_view unit);

}  // namespace vyre::certify
