// An example vyre backend plugin: the reference interpreter behind the C ABI
// of backends/plugin_abi.h. Build it as a shared library and certify it with
// `vyre-certify --backend ./libvyre_example_plugin.so`. It shows what every
// plugin does: parse the program text in compile(), run it in dispatch(),
// hand back plugin-owned outputs freed in free_outputs(), and keep C++
// exceptions from crossing the C boundary.
#include <chrono>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "backends/plugin_abi.h"
#include "reference/interpreter.h"
#include "spec/text/text_format.h"
#include "spec/validate/validator.h"

struct vyre_plugin_instance {
  vyre::reference::RunOptions options;
};

struct vyre_plugin_program {
  vyre::Program program;
};

namespace {

// What one dispatch hands back: the bytes and the views onto them, kept alive
// until free_outputs().
struct OutputHold {
  vyre::BufferSet buffers;
  std::vector<vyre_buffer> views;
};

void write_message(char* message, size_t capacity, const std::string& text) {
  if (message != nullptr && capacity > 0) std::snprintf(message, capacity, "%s", text.c_str());
}

void copy_text(char (&field)[VYRE_PLUGIN_TEXT_CAPACITY], const char* text) {
  std::snprintf(field, VYRE_PLUGIN_TEXT_CAPACITY, "%s", text);
}

// Runs `body`, turning any exception into VYRE_STATUS_ERROR with its text.
template <typename Body>
vyre_status guarded(char* message, size_t capacity, Body body) {
  try {
    return body();
  } catch (const std::exception& e) {
    write_message(message, capacity, std::string("internal error: ") + e.what());
  } catch (...) {
    write_message(message, capacity, "internal error: unknown exception");
  }
  return VYRE_STATUS_ERROR;
}

vyre_status create(vyre_plugin_instance** out_instance, char* message, size_t capacity) {
  return guarded(message, capacity, [&] {
    auto* instance = new vyre_plugin_instance;
    // Races are the certifier's business; a backend just computes.
    instance->options.checks = false;
    *out_instance = instance;
    return VYRE_STATUS_OK;
  });
}

vyre_status probe(vyre_plugin_instance*, vyre_capabilities* out, char*, size_t) {
  copy_text(out->device_name, "vyre reference interpreter (CPU)");
  copy_text(out->driver, "vyre-certify example plugin 0.1.0");
  copy_text(out->api, "vyre 0.4.0 text format");
  out->max_workgroup_invocations = 1024;
  for (uint32_t& size : out->max_workgroup_size) size = 1024;
  for (uint32_t& count : out->max_workgroup_count) count = 65535;
  out->max_storage_buffer_bytes = uint64_t{1} << 30;
  out->max_uniform_buffer_bytes = 65536;
  out->max_workgroup_memory_bytes = 32768;
  out->preferred_workgroup_size = 64;
  return VYRE_STATUS_OK;
}

vyre_status compile(vyre_plugin_instance*, const char* text, size_t text_size,
                    vyre_plugin_program** out_program, char* message, size_t capacity) {
  return guarded(message, capacity, [&] {
    vyre::Result<vyre::Program> parsed = vyre::parse_program(std::string_view(text, text_size));
    if (!parsed) {
      write_message(message, capacity, "cannot parse the program text: " + parsed.error().message);
      return VYRE_STATUS_ERROR;
    }
    std::vector<vyre::Diagnostic> problems = vyre::validate(*parsed);
    if (!problems.empty()) {
      write_message(message, capacity, "invalid program: " + problems.front().message);
      return VYRE_STATUS_COMPILE_ERROR;
    }
    *out_program = new vyre_plugin_program{std::move(parsed.value())};
    return VYRE_STATUS_OK;
  });
}

vyre_status dispatch(vyre_plugin_instance* instance, vyre_plugin_program* program,
                     const vyre_buffer* inputs, uint32_t input_count, const uint32_t grid[3],
                     vyre_dispatch_result* out_result, char* message, size_t capacity) {
  return guarded(message, capacity, [&] {
    auto upload_start = std::chrono::steady_clock::now();
    vyre::BufferSet buffers;
    for (uint32_t i = 0; i < input_count; ++i) {
      buffers[inputs[i].name].assign(inputs[i].data, inputs[i].data + inputs[i].size);
    }
    auto run_start = std::chrono::steady_clock::now();
    vyre::Grid workgroups{{grid[0], grid[1], grid[2]}};
#ifdef VYRE_EXAMPLE_SEEDED_BUG
    // The seeded bug of the test-only vyre_example_plugin_seeded (PLUGINS.md,
    // "Measuring the suite against your own bugs"): the z axis of the grid is
    // dropped, as a port that forgets a dimension would.
    workgroups.workgroups[2] = 1;
#endif
    auto ran = vyre::reference::run(program->program, buffers, workgroups, instance->options);
    auto run_end = std::chrono::steady_clock::now();
    if (!ran) {
      write_message(message, capacity, ran.error().message);
      return VYRE_STATUS_ERROR;
    }
    auto* hold = new OutputHold{std::move(ran->outputs), {}};
    for (const auto& [name, bytes] : hold->buffers) {
      hold->views.push_back({name.c_str(), bytes.data(), bytes.size()});
    }
    using Ms = std::chrono::duration<double, std::milli>;
    out_result->outputs = hold->views.data();
    out_result->output_count = static_cast<uint32_t>(hold->views.size());
    out_result->upload_ms = Ms(run_start - upload_start).count();
    out_result->execute_ms = Ms(run_end - run_start).count();
    out_result->plugin_data = hold;
    return VYRE_STATUS_OK;
  });
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
    "example-reference",
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
  return &kTable;
}
