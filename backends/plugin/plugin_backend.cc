#include "backends/plugin/plugin_backend.h"

#include <cmath>
#include <limits>
#include <mutex>
#include <utility>

#include "backends/plugin/plugin_outputs.h"
#include "backends/plugin/plugin_status.h"
#include "spec/text/text_format.h"

namespace vyre::plugin {
namespace {

std::vector<std::string> read_write_names(const Program& program) {
  std::vector<std::string> names;
  for (const BufferDecl& decl : program.buffers) {
    if (decl.access == BufferAccess::ReadWrite) names.push_back(decl.name);
  }
  return names;
}

// Timings end up in reports; a plugin's NaN or negative value must not.
double checked_ms(double ms) {
  return std::isfinite(ms) && ms >= 0 ? ms : 0;
}

std::string unknown_code(const char* function, vyre_status code, PluginMessage& message) {
  return std::string(function) + "() returned the unknown status code " + std::to_string(code) +
         " (message: " + message.text_or("none") + ")";
}

}  // namespace

PluginProgram::PluginProgram(std::shared_ptr<PluginInstance> instance, vyre_plugin_program* handle,
                             std::vector<std::string> read_write)
    : instance_(std::move(instance)), handle_(handle), read_write_(std::move(read_write)) {}

PluginProgram::~PluginProgram() {
  std::lock_guard lock(instance_->calls());
  instance_->table().release(instance_->raw(), handle_);
}

PluginBackend::PluginBackend(std::shared_ptr<PluginInstance> instance, Capabilities capabilities)
    : instance_(std::move(instance)), capabilities_(std::move(capabilities)) {}

std::string PluginBackend::name() const {
  return instance_->library().name();
}

Capabilities PluginBackend::probe() {
  return capabilities_;
}

CompileOutcome PluginBackend::compile(const Program& program) {
  std::string text = print_program(program);
  vyre_plugin_program* handle = nullptr;
  PluginMessage message;
  vyre_status code;
  {
    std::lock_guard lock(instance_->calls());
    code = instance_->table().compile(instance_->raw(), text.c_str(), text.size(), &handle,
                                      message.data(), message.capacity());
  }
  std::optional<Status> status = status_from_code(code);
  if (!status) return {Status::Error, unknown_code("compile", code, message), nullptr};
  if (*status != Status::Ok) return {*status, message.text_or("(no message)"), nullptr};
  if (handle == nullptr) {
    return {Status::BadOutput, "compile() returned VYRE_STATUS_OK but a NULL program handle",
            nullptr};
  }
  return {Status::Ok, message.text(),
          std::make_shared<PluginProgram>(instance_, handle, read_write_names(program))};
}

DispatchOutcome PluginBackend::dispatch(const CompiledProgram& program, const BufferSet& inputs,
                                        const Grid& grid) {
  const auto* compiled = dynamic_cast<const PluginProgram*>(&program);
  if (compiled == nullptr || &compiled->instance() != instance_.get()) {
    return {
        Status::Error, "dispatch of a program that this plugin backend did not compile", {}, {}};
  }
  if (inputs.size() > std::numeric_limits<uint32_t>::max()) {
    return {Status::Error, "too many input buffers for the plugin ABI", {}, {}};
  }
  std::vector<vyre_buffer> views;
  views.reserve(inputs.size());
  for (const auto& [name, bytes] : inputs)
    views.push_back({name.c_str(), bytes.data(), bytes.size()});

  vyre_dispatch_result result{};
  PluginMessage message;
  DispatchOutcome outcome;
  std::lock_guard lock(instance_->calls());
  vyre_status code = instance_->table().dispatch(
      instance_->raw(), compiled->handle(), views.data(), static_cast<uint32_t>(views.size()),
      grid.workgroups.data(), &result, message.data(), message.capacity());
  std::optional<Status> status = status_from_code(code);
  if (!status) {
    outcome = {Status::Error, unknown_code("dispatch", code, message), {}, {}};
  } else if (*status != Status::Ok) {
    outcome = {*status, message.text_or("(no message)"), {}, {}};
  } else if (Result<BufferSet> outputs = copy_plugin_outputs(result.outputs, result.output_count,
                                                             compiled->read_write(), inputs);
             !outputs) {
    outcome = {Status::BadOutput, outputs.error().message, {}, {}};
  } else {
    outcome = {Status::Ok,
               message.text(),
               std::move(outputs.value()),
               // The C ABI carries no device time: a plugin's is not measured.
               {checked_ms(result.setup_ms), checked_ms(result.upload_ms),
                checked_ms(result.execute_ms), checked_ms(result.readback_ms), std::nullopt}};
  }
  instance_->table().free_outputs(instance_->raw(), &result);
  return outcome;
}

}  // namespace vyre::plugin
