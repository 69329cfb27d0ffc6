// A plugin that breaks the ABI contract on request, for the tests of the
// plugin host and of isolation only. VYRE_TEST_PLUGIN_MODE, read at each call,
// picks the misbehaviour; with "ok" (or unset) every dispatch returns each
// read_write buffer with every byte incremented by one.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "backends/plugin_abi.h"
#include "spec/text/text_format.h"

struct vyre_plugin_instance {
  int unused;
};

struct vyre_plugin_program {
  std::vector<std::string> read_write;
};

namespace {

enum class Mode {
  Ok,
  AbiMismatch,        // entry: abi_version 99.
  NullTable,          // entry: NULL.
  NullFunction,       // entry: dispatch is NULL.
  BadName,            // entry: a name with a space.
  CreateFails,        // create: VYRE_STATUS_ERROR.
  ProbeFails,         // probe: VYRE_STATUS_DEVICE_LOST.
  CompileNullHandle,  // compile: ok without a handle.
  NotSupported,       // compile: VYRE_STATUS_NOT_SUPPORTED.
  Short,              // dispatch: the first output one byte short.
  Missing,            // dispatch: no outputs.
  UnknownBuffer,      // dispatch: an extra output "bogus".
  NullData,           // dispatch: an output with size but no data.
  GarbageStatus,      // dispatch: status 42.
  Error,              // dispatch: VYRE_STATUS_ERROR "deliberate failure".
  Hang,               // dispatch: sleeps forever.
  Crash,              // dispatch: writes through a null pointer.
  BadText,            // probe and dispatch: kBadText as device name and error message.
};

// Not UTF-8 (FF FE), a control (01), U+FFFF (not an XML character), and
// characters with a meaning in Markdown and XML: what reports must survive.
constexpr char kBadText[] = "bad \xFF\xFE text \x01 \xEF\xBF\xBF | <b> & `x`";

struct ModeRow {
  std::string_view name;
  Mode mode;
};

constexpr ModeRow kModes[] = {
    {"ok", Mode::Ok},
    {"abi_mismatch", Mode::AbiMismatch},
    {"null_table", Mode::NullTable},
    {"null_function", Mode::NullFunction},
    {"bad_name", Mode::BadName},
    {"create_fails", Mode::CreateFails},
    {"probe_fails", Mode::ProbeFails},
    {"compile_null_handle", Mode::CompileNullHandle},
    {"not_supported", Mode::NotSupported},
    {"short", Mode::Short},
    {"missing", Mode::Missing},
    {"unknown_buffer", Mode::UnknownBuffer},
    {"null_data", Mode::NullData},
    {"garbage_status", Mode::GarbageStatus},
    {"error", Mode::Error},
    {"hang", Mode::Hang},
    {"crash", Mode::Crash},
    {"bad_text", Mode::BadText},
};

// The compiler cannot prove this null, so the crash mode really faults.
volatile uintptr_t g_null_address = 0;

Mode current_mode() {
  const char* name = std::getenv("VYRE_TEST_PLUGIN_MODE");
  if (name == nullptr) return Mode::Ok;
  for (const ModeRow& row : kModes) {
    if (row.name == name) return row.mode;
  }
  std::fprintf(stderr, "misbehaving plugin: unknown VYRE_TEST_PLUGIN_MODE '%s'\n", name);
  std::abort();
}

void write_message(char* message, size_t capacity, const char* text) {
  std::snprintf(message, capacity, "%s", text);
}

struct OutputHold {
  std::vector<std::vector<uint8_t>> bytes;
  std::vector<std::string> names;
  std::vector<vyre_buffer> views;
};

vyre_status create(vyre_plugin_instance** out, char* message, size_t capacity) {
  if (current_mode() == Mode::CreateFails) {
    write_message(message, capacity, "no device for you");
    return VYRE_STATUS_ERROR;
  }
  *out = new vyre_plugin_instance{0};
  return VYRE_STATUS_OK;
}

vyre_status probe(vyre_plugin_instance*, vyre_capabilities* out, char* message, size_t capacity) {
  if (current_mode() == Mode::ProbeFails) {
    write_message(message, capacity, "device fell off the bus");
    return VYRE_STATUS_DEVICE_LOST;
  }
  std::snprintf(out->device_name, sizeof out->device_name, "%s",
                current_mode() == Mode::BadText ? kBadText : "misbehaving device");
  out->max_workgroup_invocations = 64;
  return VYRE_STATUS_OK;
}

vyre_status compile(vyre_plugin_instance*, const char* text, size_t size, vyre_plugin_program** out,
                    char* message, size_t capacity) {
  Mode mode = current_mode();
  if (mode == Mode::CompileNullHandle) return VYRE_STATUS_OK;
  if (mode == Mode::NotSupported) {
    write_message(message, capacity, "no such feature");
    return VYRE_STATUS_NOT_SUPPORTED;
  }
  auto program = vyre::parse_program(std::string_view(text, size));
  if (!program) {
    write_message(message, capacity, program.error().message.c_str());
    return VYRE_STATUS_ERROR;
  }
  auto* compiled = new vyre_plugin_program;
  for (const vyre::BufferDecl& decl : program->buffers) {
    if (decl.access == vyre::BufferAccess::ReadWrite) compiled->read_write.push_back(decl.name);
  }
  *out = compiled;
  return VYRE_STATUS_OK;
}

vyre_status dispatch(vyre_plugin_instance*, vyre_plugin_program* program, const vyre_buffer* inputs,
                     uint32_t input_count, const uint32_t*, vyre_dispatch_result* result,
                     char* message, size_t capacity) {
  Mode mode = current_mode();
  switch (mode) {
    case Mode::GarbageStatus:
      return 42;
    case Mode::Error:
      write_message(message, capacity, "deliberate failure");
      return VYRE_STATUS_ERROR;
    case Mode::BadText:
      write_message(message, capacity, kBadText);
      return VYRE_STATUS_ERROR;
    case Mode::Hang:
      for (;;) ::pause();
    case Mode::Crash:
      *reinterpret_cast<volatile int*>(g_null_address) = 1;
      return VYRE_STATUS_ERROR;
    default:
      break;
  }
  auto* hold = new OutputHold;
  for (uint32_t i = 0; i < input_count; ++i) {
    for (const std::string& name : program->read_write) {
      if (name != inputs[i].name) continue;
      hold->names.push_back(name);
      hold->bytes.emplace_back(inputs[i].data, inputs[i].data + inputs[i].size);
      for (uint8_t& byte : hold->bytes.back()) ++byte;
    }
  }
  if (mode == Mode::UnknownBuffer) {
    hold->names.push_back("bogus");
    hold->bytes.emplace_back(4, 0);
  }
  for (size_t i = 0; i < hold->names.size(); ++i) {
    hold->views.push_back({hold->names[i].c_str(), hold->bytes[i].data(), hold->bytes[i].size()});
  }
  if (mode == Mode::Short && !hold->views.empty()) hold->views[0].size -= 1;
  if (mode == Mode::NullData && !hold->views.empty()) hold->views[0].data = nullptr;
  if (mode == Mode::Missing) hold->views.clear();
  result->outputs = hold->views.data();
  result->output_count = static_cast<uint32_t>(hold->views.size());
  result->plugin_data = hold;
  return VYRE_STATUS_OK;
}

void free_outputs(vyre_plugin_instance*, vyre_dispatch_result* result) {
  delete static_cast<OutputHold*>(result->plugin_data);
}

void release(vyre_plugin_instance*, vyre_plugin_program* program) {
  delete program;
}

void destroy(vyre_plugin_instance* instance) {
  delete instance;
}

constexpr vyre_plugin_v1 kTable = {
    VYRE_PLUGIN_ABI_VERSION,
    "misbehaving",
    create,
    probe,
    compile,
    dispatch,
    free_outputs,
    release,
    destroy,
};
constexpr vyre_plugin_v1 kWrongVersion = {
    99, "misbehaving", create, probe, compile, dispatch, free_outputs, release, destroy,
};
constexpr vyre_plugin_v1 kNullDispatch = {
    VYRE_PLUGIN_ABI_VERSION,
    "misbehaving",
    create,
    probe,
    compile,
    nullptr,
    free_outputs,
    release,
    destroy,
};
constexpr vyre_plugin_v1 kBadName = {
    VYRE_PLUGIN_ABI_VERSION,
    "mis behaving",
    create,
    probe,
    compile,
    dispatch,
    free_outputs,
    release,
    destroy,
};

}  // namespace

extern "C" VYRE_PLUGIN_EXPORT const vyre_plugin_v1* vyre_plugin_entry(void) {
  switch (current_mode()) {
    case Mode::AbiMismatch:
      return &kWrongVersion;
    case Mode::NullTable:
      return nullptr;
    case Mode::NullFunction:
      return &kNullDispatch;
    case Mode::BadName:
      return &kBadName;
    default:
      return &kTable;
  }
}
