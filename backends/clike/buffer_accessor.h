// How lowered code reaches the program's buffers, the one part of the
// lowering whose shape, not only its spelling, differs between languages:
// GLSL calls bounds-checked accessor functions, OpenCL C writes guarded
// statements. The shared emitter (emitter.h) decides what is accessed and in
// which order; a BufferAccessor writes each access, obeying S5 (out of bounds:
// load zero, store nothing, atomic 0) without relying on robustness features.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "backends/clike/dialect.h"
#include "backends/clike/entry_interface.h"

namespace vyre::clike {

/// How lowered code reaches one program buffer.
struct ClikeBuffer {
  const BufferDecl* decl = nullptr;
  std::string ident;  ///< "b0" (bound) or "w0" (workgroup).
  std::string count;  ///< Element count as a u32 expression.
  bool bound = false;
};

/// Where the emitter writes the entry body; a BufferAccessor writes through it.
class Code {
 public:
  virtual ~Code() = default;
  /// Appends one statement at the current indentation.
  virtual void line(const std::string& text) = 0;
  /// A fresh `const` temporary of `type` holding `init`: its name.
  virtual std::string temp(DataType type, const std::string& init) = 0;
  /// A fresh temporary holding the zero of `type`, for a guarded access to set.
  virtual std::string zeroed_temp(DataType type) = 0;
};

/// The kind of a buffer access, for its bounds guard.
enum class AccessKind : uint8_t { Load, Store, Atomic };

/// One access the emitter asks for; every text is a temporary, variable or literal.
struct Access {
  const ClikeBuffer& buffer;
  std::string index;
  std::string value;     ///< The stored value or the atomic's operand; empty for a load.
  std::string expected;  ///< Compare-exchange's expected value; empty otherwise.
  AtomicOp op = AtomicOp::Add;
};

/// The buffers of one program and how the lowered code reaches them.
class BufferAccessor {
 public:
  virtual ~BufferAccessor() = default;

  /// The buffer called `name`, or nullptr.
  const ClikeBuffer* find(std::string_view name) const;

  /// Writes the load of element `a.index` of `a.buffer`; the loaded value's text.
  virtual std::string load(Code& code, const Access& a) = 0;
  /// Writes the store of `a.value` at `a.index` of `a.buffer`.
  virtual void store(Code& code, const Access& a) = 0;
  /// Writes the atomic `a.op`; the old value's text.
  virtual std::string atomic(Code& code, const Access& a) = 0;
  /// The statement that records a spent loop iteration budget.
  virtual std::string budget_exhausted() const = 0;
  /// The statement that records a loop ended before its bound; empty where
  /// the control buffer has no word for it.
  virtual std::string loop_cut_short() const = 0;

 protected:
  /// Bound buffers as `b<i>` counted by `count_prefix` + i ("n0"), then
  /// workgroup buffers as `w<i>` counted by their literal count ("16u").
  BufferAccessor(const Program& program, const EntryInterface& iface,
                 std::string_view count_prefix);

  std::vector<ClikeBuffer> buffers_;
};

/// The bounds test of a `kind` access at `index` of `b`: "index < count"
/// (`past_end`: "index >= count"); empty for an access left unguarded.
std::string bounds_test(AccessKind kind, const std::string& index, const ClikeBuffer& b,
                        bool past_end);

/// The atomic builtin's call on `element` (the buffer element, as the
/// dialect's atomic_target takes it); `expected` is empty except for
/// compare-exchange. Its value is the old element.
std::string atomic_call(const Dialect& d, AtomicOp op, const std::string& element,
                        const std::string& expected, const std::string& value);

/// Whether an atomic add is written as a load, an add and a store (the seeded
/// bug AtomicAddNotAtomic); false outside the test-only mutant build.
bool atomic_add_split(AtomicOp op);

/// The statement zeroing workgroup buffer `b` from the invocation at
/// `local_index` on, `invocations` elements apart (S5: workgroup memory
/// starts at zero); empty where the seeded bug leaves it unzeroed.
std::string zeroing_loop(const Dialect& d, const ClikeBuffer& b, std::string_view local_index,
                         uint64_t invocations);

/// The Barrier's statements (S6): storage and workgroup writes made before it
/// are visible to the whole workgroup after it.
std::vector<std::string> barrier_statements(const Dialect& d);

/// `text` with every character outside printable ASCII replaced by '?', for
/// names quoted in messages.
std::string printable(std::string_view text);

/// `text` with every character but letters, digits, space, '.', '_' and '-'
/// replaced by '_', for names quoted in `//` comments: a backslash (or the
/// trigraph ??/) at the end would continue the comment onto the next line.
std::string comment_text(std::string_view text);

}  // namespace vyre::clike
