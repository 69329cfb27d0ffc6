// The enumerations of the vyre 0.4.0 IR, generated from the .def tables beside
// this file so that code, docs and the CLI listing share one source.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace vyre {

/// A value type of buffers, expressions and casts (seed 003).
enum class DataType : uint8_t {
#define X(e, name, size, stable) e,
#include "spec/ir/data_types.def"
#undef X
};

/// How a buffer may be used inside a program (seed 003).
enum class BufferAccess : uint8_t {
#define X(e, name, r, w, a, slot) e,
#include "spec/ir/buffer_access.def"
#undef X
};

/// Binary operators; every one is u32 x u32 -> u32.
enum class BinOp : uint8_t {
#define X(e, name, doc) e,
#include "spec/ir/bin_ops.def"
#undef X
};

/// Unary operators; every one is u32 -> u32.
enum class UnOp : uint8_t {
#define X(e, name, doc) e,
#include "spec/ir/un_ops.def"
#undef X
};

/// Atomic read-modify-write operators on U32 storage elements.
enum class AtomicOp : uint8_t {
#define X(e, name, doc) e,
#include "spec/ir/atomic_ops.def"
#undef X
};

/// Text name of a value (the spelling the text format uses).
std::string_view name_of(DataType t);
std::string_view name_of(BufferAccess a);
std::string_view name_of(BinOp op);
std::string_view name_of(UnOp op);
std::string_view name_of(AtomicOp op);

/// One-line semantics of an operator, from its table row.
std::string_view doc_of(BinOp op);
std::string_view doc_of(UnOp op);
std::string_view doc_of(AtomicOp op);

/// Inverse of name_of; nullopt for an unknown spelling.
std::optional<DataType> data_type_named(std::string_view name);
std::optional<BufferAccess> access_named(std::string_view name);
std::optional<BinOp> bin_op_named(std::string_view name);
std::optional<UnOp> un_op_named(std::string_view name);
std::optional<AtomicOp> atomic_op_named(std::string_view name);

/// Every value of each enumeration, in table order.
std::span<const DataType> all_data_types();
std::span<const BufferAccess> all_accesses();
std::span<const BinOp> all_bin_ops();
std::span<const UnOp> all_un_ops();
std::span<const AtomicOp> all_atomic_ops();

/// Element size in bytes as laid out in host buffers; 4 for Bytes (one backing
/// u32 word per element, which is what BufLen counts).
uint32_t element_size(DataType t);
/// Element count (BufLen) of a host buffer of `bytes` bytes (SEMANTICS S1):
/// its whole elements, except for Bytes, whose count is its backing u32
/// words, ceil(bytes / 4), the last one zero-padded (seed 003). 0 for types
/// of no size.
uint64_t host_element_count(DataType t, uint64_t bytes);
/// True for the seven types 0.4.0 programs may use.
bool is_stable(DataType t);
/// Number of u32 words in a value of this type (U64 and Vec2U32: 2, Vec4U32: 4).
uint32_t word_count(DataType t);

bool is_readable(BufferAccess a);
bool is_writable(BufferAccess a);
bool allows_atomics(BufferAccess a);
/// Workgroup buffers take no binding slot.
bool takes_binding(BufferAccess a);

}  // namespace vyre
