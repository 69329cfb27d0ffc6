#include "backends/plugin/plugin_outputs.h"

#include <algorithm>
#include <cstring>

#include "spec/support/utf8.h"

namespace vyre::plugin {
namespace {

// A name the plugin returned may be any bytes; diagnostics must stay UTF-8.
std::string quoted(const std::string& name) {
  return "'" + valid_utf8(name) + "'";
}

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& name : names) out += (out.empty() ? "" : ", ") + quoted(name);
  return out.empty() ? "none" : out;
}

bool is_read_write(const std::vector<std::string>& read_write, const std::string& name) {
  return std::find(read_write.begin(), read_write.end(), name) != read_write.end();
}

}  // namespace

Result<BufferSet> copy_plugin_outputs(const vyre_buffer* outputs, uint32_t count,
                                      const std::vector<std::string>& read_write,
                                      const BufferSet& inputs) {
  std::string prefix = "plugin output: ";
  if (count > 0 && outputs == nullptr) {
    return Error{prefix + std::to_string(count) + " output buffers announced, but a NULL array"};
  }
  if (count > read_write.size()) {
    return Error{prefix + std::to_string(count) + " output buffers returned, but the program has " +
                 std::to_string(read_write.size()) + " read_write buffers (" + joined(read_write) +
                 ")"};
  }
  BufferSet copied;
  for (uint32_t i = 0; i < count; ++i) {
    const vyre_buffer& out = outputs[i];
    std::string which = "output buffer #" + std::to_string(i);
    if (out.name == nullptr) return Error{prefix + which + " has a NULL name"};
    size_t length = ::strnlen(out.name, kMaxOutputNameLength + 1);
    if (length > kMaxOutputNameLength) {
      return Error{prefix + which + " has a name longer than " +
                   std::to_string(kMaxOutputNameLength) + " bytes"};
    }
    std::string name(out.name, length);
    if (!is_read_write(read_write, name)) {
      return Error{prefix + "buffer " + quoted(name) +
                   " is not a read_write buffer of the program (read_write: " + joined(read_write) +
                   ")"};
    }
    if (copied.contains(name)) return Error{prefix + "buffer " + quoted(name) + " returned twice"};
    auto input = inputs.find(name);
    if (input == inputs.end()) {
      return Error{prefix + "buffer " + quoted(name) +
                   " was returned, but the host passed no input of that name to size it"};
    }
    if (out.size != input->second.size()) {
      return Error{prefix + "buffer " + quoted(name) + " has " + std::to_string(out.size) +
                   " bytes, expected " + std::to_string(input->second.size()) +
                   " (the size of its input)"};
    }
    if (out.data == nullptr && out.size > 0) {
      return Error{prefix + "buffer " + quoted(name) + " has " + std::to_string(out.size) +
                   " bytes but a NULL data pointer"};
    }
    copied.emplace(std::move(name),
                   out.size == 0 ? ByteBuffer{} : ByteBuffer(out.data, out.data + out.size));
  }
  std::vector<std::string> missing;
  for (const std::string& name : read_write) {
    if (!copied.contains(name)) {
      auto input = inputs.find(name);
      missing.push_back(
          quoted(name) + " (expected " +
          (input == inputs.end() ? std::string("?") : std::to_string(input->second.size())) +
          " bytes)");
    }
  }
  if (!missing.empty()) {
    std::string list;
    for (const std::string& m : missing) list += (list.empty() ? "" : ", ") + m;
    return Error{prefix + "missing read_write buffer" + (missing.size() > 1 ? "s " : " ") + list};
  }
  return copied;
}

}  // namespace vyre::plugin
