// The program's buffers in GLSL: their declarations and the bounds-checked
// accessor functions (load, store, atomics) the lowered body calls instead of
// indexing directly, so every access obeys S5 (out of bounds: load zero, store
// nothing, atomic 0) without relying on robustness features.
#pragma once

#include <set>
#include <string>
#include <tuple>

#include "backends/clike/buffer_accessor.h"
#include "backends/vulkan/shader_interface.h"

namespace vyre::vulkan {

/// Declarations and accessors of one program's buffers; records which
/// accessors the body uses so only those are defined.
class GlslBuffers : public clike::BufferAccessor {
 public:
  GlslBuffers(const Program& program, const ShaderInterface& iface);

  std::string load(clike::Code& code, const clike::Access& a) override;
  void store(clike::Code& code, const clike::Access& a) override;
  std::string atomic(clike::Code& code, const clike::Access& a) override;
  std::string budget_exhausted() const override;
  std::string loop_cut_short() const override;

  /// Push constants, buffer blocks, control block and shared arrays.
  std::string declarations() const;
  /// Definitions of every accessor requested so far.
  std::string accessors() const;
  /// Statements for the start of main: zero the workgroup arrays, then a
  /// barrier; empty when the program has none.
  std::string zero_workgroup_memory() const;

 private:
  enum class Kind : uint8_t { Load, Store, Atomic };
  using Use = std::tuple<size_t, Kind, AtomicOp>;

  /// Records that the body calls `kind` of `b`.
  void use(const clike::ClikeBuffer& b, Kind kind, AtomicOp op);
  std::string accessor(const Use& use) const;

  const ShaderInterface& iface_;
  std::set<Use> used_;
};

}  // namespace vyre::vulkan
