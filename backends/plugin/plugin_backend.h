// The adapter that makes a plugin instance a vyre::Backend: programs go in as
// canonical text, and nothing the plugin returns is used before it is checked.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "backends/backend.h"
#include "backends/plugin/plugin_instance.h"

namespace vyre::plugin {

/// A program compiled by a plugin: its handle, released with the last owner.
class PluginProgram final : public CompiledProgram {
 public:
  PluginProgram(std::shared_ptr<PluginInstance> instance, vyre_plugin_program* handle,
                std::vector<std::string> read_write);
  ~PluginProgram() override;
  PluginProgram(const PluginProgram&) = delete;
  PluginProgram& operator=(const PluginProgram&) = delete;

  /// The instance that compiled it.
  const PluginInstance& instance() const { return *instance_; }
  /// The plugin's handle.
  vyre_plugin_program* handle() const { return handle_; }
  /// Names of the program's read_write buffers: exactly the outputs expected.
  const std::vector<std::string>& read_write() const { return read_write_; }

 private:
  std::shared_ptr<PluginInstance> instance_;
  vyre_plugin_program* handle_;
  std::vector<std::string> read_write_;
};

/// A vyre::Backend over one plugin instance.
class PluginBackend final : public Backend {
 public:
  /// `capabilities` is the instance's probe result, kept for every probe().
  PluginBackend(std::shared_ptr<PluginInstance> instance, Capabilities capabilities);

  std::string name() const override;
  Capabilities probe() override;
  CompileOutcome compile(const Program& program) override;
  DispatchOutcome dispatch(const CompiledProgram& program, const BufferSet& inputs,
                           const Grid& grid) override;

 private:
  std::shared_ptr<PluginInstance> instance_;
  Capabilities capabilities_;
};

}  // namespace vyre::plugin
