#include "certify/report/report_files.h"

#include <cctype>
#include <filesystem>
#include <fstream>
#include <optional>

#include "certify/report/report_json.h"
#include "certify/report/report_writers.h"
#include "spec/text/text_format.h"

namespace vyre::certify {
namespace {

std::string file_name_for(std::string_view id) {
  std::string out;
  for (char ch : id) out += (std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_');
  return out;
}

Result<Ok> write_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary);
  if (!f) return Error{"cannot write " + path.string()};
  f << text;
  f.close();
  if (!f) return Error{"cannot write " + path.string() + " (disk full?)"};
  return Ok{};
}

/// True when `path` is a regular file (not a link) starting with kReproMarker.
bool is_our_repro(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(std::filesystem::symlink_status(path, ec))) return false;
  std::ifstream f(path, std::ios::binary);
  std::string first(kReproMarker.size(), '\0');
  f.read(first.data(), static_cast<std::streamsize>(first.size()));
  return f && first == kReproMarker;
}

}  // namespace

void remove_repro_file(const std::string& out_dir, const std::string& relative) {
  const std::filesystem::path path(relative);
  if (path.parent_path() != "repro" || path.filename() == ".." || path.filename().empty()) return;
  const std::filesystem::path file = std::filesystem::path(out_dir) / path;
  std::error_code ec;
  if (is_our_repro(file)) std::filesystem::remove(file, ec);
}

Result<Ok> clear_old_repros(const std::string& out_dir) {
  const std::filesystem::path dir = std::filesystem::path(out_dir) / "repro";
  std::error_code ec;
  if (!std::filesystem::exists(dir, ec)) return Ok{};
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    if (!entry.is_regular_file(ec) || entry.path().extension() != ".vyre") continue;
    std::ifstream f(entry.path(), std::ios::binary);
    std::string first(kReproMarker.size(), '\0');
    f.read(first.data(), static_cast<std::streamsize>(first.size()));
    if (!f || first != kReproMarker) continue;  // not ours: leave it
    f.close();
    if (!std::filesystem::remove(entry.path(), ec)) {
      return Error{"cannot remove the old repro " + entry.path().string() + ": " + ec.message()};
    }
  }
  if (ec) return Error{"cannot list " + dir.string() + ": " + ec.message()};
  return Ok{};
}

std::string write_repro_file(const std::string& out_dir, const TestCase& repro) {
  uint64_t data_bytes = 0;
  for (const auto& [name, bytes] : repro.inputs) data_bytes += bytes.size();
  if (repro.expected) {
    for (const auto& [name, bytes] : *repro.expected) data_bytes += bytes.size();
  }
  if (data_bytes > kMaxCaseDataBytes) return "";
  const std::filesystem::path dir = std::filesystem::path(out_dir) / "repro";
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  const std::string name = file_name_for(repro.name) + ".vyre";
  const std::string text = std::string(kReproMarker) + repro.name + "\n" + print_case(repro);
  if (ec || !write_file(dir / name, text).ok()) return "";
  return "repro/" + name;
}

Result<Ok> copy_repro_files(const Report& report, const std::string& from_dir,
                            const std::string& out_dir) {
  const std::filesystem::path to = std::filesystem::path(out_dir) / "repro";
  // A link would copy whatever it points at (any file the merging user can
  // read) into the merged folder, or write through it: refused, never followed.
  const auto refuse_link = [](const std::filesystem::path& p) -> std::optional<Error> {
    std::error_code ec;
    if (!std::filesystem::is_symlink(std::filesystem::symlink_status(p, ec))) return std::nullopt;
    return Error{p.string() +
                 " is a symbolic link; merge copies only regular repro files and follows no link"};
  };
  for (const std::filesystem::path& folder : {std::filesystem::path(from_dir) / "repro", to}) {
    if (auto link = refuse_link(folder)) return *link;
  }
  for (const CaseResult& c : report.cases) {
    if (!c.failure) continue;
    for (const std::string* name :
         {&c.failure->repro, &c.failure->reduced_repro, &c.failure->original_repro}) {
      const std::filesystem::path relative(*name);
      // Only what write_repro_file names: "repro/FILE", one level, no "..".
      if (relative.parent_path() != "repro" || relative.filename() == ".." ||
          relative.filename().empty()) {
        continue;
      }
      const std::filesystem::path source = std::filesystem::path(from_dir) / relative;
      for (const std::filesystem::path& end : {source, to / relative.filename()}) {
        if (auto link = refuse_link(end)) return *link;
      }
      std::error_code ec;
      if (!std::filesystem::is_regular_file(source, ec)) continue;
      std::filesystem::create_directories(to, ec);
      std::filesystem::copy_file(source, to / relative.filename(),
                                 std::filesystem::copy_options::overwrite_existing, ec);
      if (ec)
        return Error{"cannot copy " + source.string() + " to " + to.string() + ": " + ec.message()};
    }
  }
  return Ok{};
}

Result<Ok> write_reports(const Report& report, const std::string& out_dir,
                         const Ed25519Key* signer) {
  std::error_code ec;
  std::filesystem::create_directories(out_dir, ec);
  if (ec) return Error{"cannot create output folder " + out_dir + ": " + ec.message()};
  std::filesystem::path dir(out_dir);
  nlohmann::json json = with_certificate(report_to_json(report));
  if (signer != nullptr) {
    auto signed_json = sign_report(std::move(json), *signer);
    if (!signed_json) return signed_json.error();
    json = std::move(*signed_json);
  }
  // Backends' text is made UTF-8 where it enters (plugin host); replacing
  // here too means no string can make the writer throw.
  const std::string text = json.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
  if (auto r = write_file(dir / "report.json", text + "\n"); !r) return r.error();
  if (auto r = write_file(dir / "report.md", report_markdown(report)); !r) return r.error();
  const std::string digest = json["certificate"]["digest"].get<std::string>();
  if (auto r = write_file(dir / "report.html", report_html(report, digest)); !r) return r.error();
  if (auto r = write_file(dir / "junit.xml", report_junit(report)); !r) return r.error();
  return Ok{};
}

}  // namespace vyre::certify
