#include "backends/plugin/plugin_library.h"

#include <dlfcn.h>
#include <sys/stat.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <utility>

namespace vyre::plugin {
namespace {

// Each function pointer of the table with its field name, for the null check.
struct TableField {
  const char* name;
  bool (*is_set)(const vyre_plugin_v1&);
};

constexpr std::array<TableField, 7> kTableFields = {{
    {"create", [](const vyre_plugin_v1& t) { return t.create != nullptr; }},
    {"probe", [](const vyre_plugin_v1& t) { return t.probe != nullptr; }},
    {"compile", [](const vyre_plugin_v1& t) { return t.compile != nullptr; }},
    {"dispatch", [](const vyre_plugin_v1& t) { return t.dispatch != nullptr; }},
    {"free_outputs", [](const vyre_plugin_v1& t) { return t.free_outputs != nullptr; }},
    {"release", [](const vyre_plugin_v1& t) { return t.release != nullptr; }},
    {"destroy", [](const vyre_plugin_v1& t) { return t.destroy != nullptr; }},
}};

Error fail(const std::string& path, const std::string& what) {
  return Error{"plugin '" + path + "': " + what};
}

// dlopen searches library paths for a name without '/'; a plugin named on the
// command line is a file, so anchor it to the current folder.
std::string as_file_path(const std::string& path) {
  return path.find('/') == std::string::npos ? "./" + path : path;
}

Result<Ok> check_is_file(const std::string& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) {
    if (errno == ENOENT) return fail(path, "no such file");
    return fail(path, std::string("cannot access the file: ") + std::strerror(errno));
  }
  if (S_ISDIR(info.st_mode)) return fail(path, "is a directory, not a shared library");
  if (!S_ISREG(info.st_mode)) return fail(path, "is not a regular file");
  return Ok{};
}

// The name goes into reports and file names: short, printable, no quotes.
Result<std::string> checked_name(const std::string& path, const char* name) {
  if (name == nullptr) return fail(path, "its table has a null name");
  size_t length = ::strnlen(name, kMaxPluginNameLength + 1);
  if (length == 0) return fail(path, "its table has an empty name");
  if (length > kMaxPluginNameLength) {
    return fail(path,
                "its name is longer than " + std::to_string(kMaxPluginNameLength) + " characters");
  }
  for (size_t i = 0; i < length; ++i) {
    char c = name[i];
    if (c < 0x21 || c > 0x7e || c == '"' || c == '\'' || c == '\\') {
      return fail(path,
                  "its name has a character that is not printable ASCII (or is a quote, "
                  "backslash or space) at position " +
                      std::to_string(i));
    }
  }
  return std::string(name, length);
}

}  // namespace

PluginLibrary::PluginLibrary(std::string path, void* handle, const vyre_plugin_v1* table,
                             std::string name)
    : path_(std::move(path)), handle_(handle), table_(table), name_(std::move(name)) {}

PluginLibrary::~PluginLibrary() {
  ::dlclose(handle_);
}

Result<std::shared_ptr<const PluginLibrary>> open_plugin_library(const std::string& path) {
  if (path.empty()) return Error{"plugin path is empty"};
  if (auto is_file = check_is_file(path); !is_file) return is_file.error();

  // RTLD_NODELETE: plugins that register thread-local destructors or atexit
  // handlers (GPU drivers do) must stay mapped after dlclose.
  void* handle = ::dlopen(as_file_path(path).c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
  if (handle == nullptr) {
    const char* why = ::dlerror();
    return fail(path, std::string("not a loadable shared library: ") +
                          (why != nullptr ? why : "dlopen failed"));
  }
  auto close_and_fail = [&](const std::string& what) {
    ::dlclose(handle);
    return fail(path, what);
  };

  void* symbol = ::dlsym(handle, VYRE_PLUGIN_ENTRY_SYMBOL);
  if (symbol == nullptr) {
    return close_and_fail("does not export the symbol " VYRE_PLUGIN_ENTRY_SYMBOL
                          " (define it extern \"C\" with VYRE_PLUGIN_EXPORT; see "
                          "backends/PLUGINS.md)");
  }
  auto entry = reinterpret_cast<vyre_plugin_entry_fn>(symbol);
  const vyre_plugin_v1* table = entry();
  if (table == nullptr) return close_and_fail(VYRE_PLUGIN_ENTRY_SYMBOL "() returned NULL");
  if (table->abi_version != VYRE_PLUGIN_ABI_VERSION) {
    return close_and_fail("implements vyre plugin ABI version " +
                          std::to_string(table->abi_version) + ", but this host supports version " +
                          std::to_string(VYRE_PLUGIN_ABI_VERSION) +
                          "; rebuild it against this vyre-certify's plugin_abi.h");
  }
  for (const TableField& field : kTableFields) {
    if (!field.is_set(*table)) {
      return close_and_fail(std::string("its table leaves the function '") + field.name +
                            "' NULL; every function must be set");
    }
  }
  Result<std::string> name = checked_name(path, table->name);
  if (!name) {
    ::dlclose(handle);
    return name.error();
  }
  return std::shared_ptr<const PluginLibrary>(
      std::make_shared<PluginLibrary>(path, handle, table, std::move(name.value())));
}

}  // namespace vyre::plugin
