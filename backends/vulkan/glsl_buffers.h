// The program's buffers in GLSL: their declarations and the bounds-checked
// accessor functions (load, store, atomics) the lowered body calls instead of
// indexing directly, so every access obeys S5 (out of bounds: load zero, store
// nothing, atomic 0) without relying on robustness features.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "backends/vulkan/shader_interface.h"

namespace vyre::vulkan {

/// How lowered code reaches one program buffer.
struct GlslBuffer {
  const BufferDecl* decl = nullptr;
  std::string ident;  ///< "b0" (bound) or "w0" (workgroup).
  std::string count;  ///< Element count as a u32 expression.
  bool bound = false;
};

/// Declarations and accessors of one program's buffers; records which
/// accessors the body uses so only those are defined.
class GlslBuffers {
 public:
  GlslBuffers(const Program& program, const ShaderInterface& iface);

  /// The buffer called `name`, or nullptr.
  const GlslBuffer* find(std::string_view name) const;

  /// Name of `buffer`'s load function `T f(uint index)`.
  std::string load(const GlslBuffer& buffer);
  /// Name of `buffer`'s store function `void f(uint index, T value)`.
  std::string store(const GlslBuffer& buffer);
  /// Name of `buffer`'s atomic function `uint f(uint index, [uint expected,] uint value)`.
  std::string atomic(const GlslBuffer& buffer, AtomicOp op);

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

  std::string accessor(const Use& use) const;

  const ShaderInterface& iface_;
  std::vector<GlslBuffer> buffers_;
  std::set<Use> used_;
};

/// The statements of one vyre Barrier: storage and workgroup writes made before
/// it become visible to the whole workgroup after it (S6).
inline constexpr std::string_view kBarrierStatements[] = {
    "memoryBarrierBuffer();", "memoryBarrierShared();", "barrier();", "memoryBarrierBuffer();"};

/// `text` with every character outside printable ASCII replaced by '?', for
/// names quoted in messages.
std::string printable(std::string_view text);

/// printable(text) with backslashes replaced by '?' too, for names quoted in
/// GLSL `//` comments: no name can then end a comment early or continue it.
std::string comment_text(std::string_view text);

}  // namespace vyre::vulkan
