#include "spec/ir/types.h"

#include <array>

namespace vyre {
namespace {

template <typename E, size_t N>
std::optional<E> find_named(const std::array<std::string_view, N>& names, std::string_view name) {
  for (size_t i = 0; i < N; ++i) {
    if (names[i] == name) return static_cast<E>(i);
  }
  return std::nullopt;
}

constexpr std::array<std::string_view, 12> kTypeNames = {
#define X(e, name, size, stable) name,
#include "spec/ir/data_types.def"
#undef X
};
constexpr std::array<uint32_t, 12> kTypeSizes = {
#define X(e, name, size, stable) size,
#include "spec/ir/data_types.def"
#undef X
};
constexpr std::array<bool, 12> kTypeStable = {
#define X(e, name, size, stable) stable,
#include "spec/ir/data_types.def"
#undef X
};
constexpr std::array<DataType, 12> kTypes = {
#define X(e, name, size, stable) DataType::e,
#include "spec/ir/data_types.def"
#undef X
};

struct AccessRow {
  std::string_view name;
  bool readable, writable, atomic, slot;
};
constexpr std::array<AccessRow, 4> kAccess = {{
#define X(e, name, r, w, a, slot) {name, r, w, a, slot},
#include "spec/ir/buffer_access.def"
#undef X
}};
constexpr std::array<std::string_view, 4> kAccessNames = {
#define X(e, name, r, w, a, slot) name,
#include "spec/ir/buffer_access.def"
#undef X
};
constexpr std::array<BufferAccess, 4> kAccesses = {
#define X(e, name, r, w, a, slot) BufferAccess::e,
#include "spec/ir/buffer_access.def"
#undef X
};

constexpr std::array<std::string_view, 18> kBinNames = {
#define X(e, name, doc) name,
#include "spec/ir/bin_ops.def"
#undef X
};
constexpr std::array<std::string_view, 18> kBinDocs = {
#define X(e, name, doc) doc,
#include "spec/ir/bin_ops.def"
#undef X
};
constexpr std::array<BinOp, 18> kBinOps = {
#define X(e, name, doc) BinOp::e,
#include "spec/ir/bin_ops.def"
#undef X
};

constexpr std::array<std::string_view, 7> kUnNames = {
#define X(e, name, doc) name,
#include "spec/ir/un_ops.def"
#undef X
};
constexpr std::array<std::string_view, 7> kUnDocs = {
#define X(e, name, doc) doc,
#include "spec/ir/un_ops.def"
#undef X
};
constexpr std::array<UnOp, 7> kUnOps = {
#define X(e, name, doc) UnOp::e,
#include "spec/ir/un_ops.def"
#undef X
};

constexpr std::array<std::string_view, 8> kAtomicNames = {
#define X(e, name, doc) name,
#include "spec/ir/atomic_ops.def"
#undef X
};
constexpr std::array<std::string_view, 8> kAtomicDocs = {
#define X(e, name, doc) doc,
#include "spec/ir/atomic_ops.def"
#undef X
};
constexpr std::array<AtomicOp, 8> kAtomicOps = {
#define X(e, name, doc) AtomicOp::e,
#include "spec/ir/atomic_ops.def"
#undef X
};

template <typename E>
size_t idx(E e) {
  return static_cast<size_t>(e);
}

}  // namespace

std::string_view name_of(DataType t) {
  return kTypeNames[idx(t)];
}
std::string_view name_of(BufferAccess a) {
  return kAccessNames[idx(a)];
}
std::string_view name_of(BinOp op) {
  return kBinNames[idx(op)];
}
std::string_view name_of(UnOp op) {
  return kUnNames[idx(op)];
}
std::string_view name_of(AtomicOp op) {
  return kAtomicNames[idx(op)];
}
std::string_view doc_of(BinOp op) {
  return kBinDocs[idx(op)];
}
std::string_view doc_of(UnOp op) {
  return kUnDocs[idx(op)];
}
std::string_view doc_of(AtomicOp op) {
  return kAtomicDocs[idx(op)];
}

std::optional<DataType> data_type_named(std::string_view n) {
  return find_named<DataType>(kTypeNames, n);
}
std::optional<BufferAccess> access_named(std::string_view n) {
  return find_named<BufferAccess>(kAccessNames, n);
}
std::optional<BinOp> bin_op_named(std::string_view n) {
  return find_named<BinOp>(kBinNames, n);
}
std::optional<UnOp> un_op_named(std::string_view n) {
  return find_named<UnOp>(kUnNames, n);
}
std::optional<AtomicOp> atomic_op_named(std::string_view n) {
  return find_named<AtomicOp>(kAtomicNames, n);
}

std::span<const DataType> all_data_types() {
  return kTypes;
}
std::span<const BufferAccess> all_accesses() {
  return kAccesses;
}
std::span<const BinOp> all_bin_ops() {
  return kBinOps;
}
std::span<const UnOp> all_un_ops() {
  return kUnOps;
}
std::span<const AtomicOp> all_atomic_ops() {
  return kAtomicOps;
}

uint32_t element_size(DataType t) {
  return t == DataType::Bytes ? 4 : kTypeSizes[idx(t)];
}
uint64_t host_element_count(DataType t, uint64_t bytes) {
  const uint64_t size = element_size(t);
  if (size == 0) return 0;
  // Seed 003 overrides pinned section 1's "trailing partial element is not
  // addressable" for Bytes: a partial last word still backs the buffer.
  if (t == DataType::Bytes) return bytes / size + (bytes % size != 0 ? 1 : 0);
  return bytes / size;
}
bool is_stable(DataType t) {
  return kTypeStable[idx(t)];
}
uint32_t word_count(DataType t) {
  switch (t) {
    case DataType::U64:
    case DataType::Vec2U32:
      return 2;
    case DataType::Vec4U32:
    case DataType::U128:
      return 4;
    default:
      return 1;
  }
}

bool is_readable(BufferAccess a) {
  return kAccess[idx(a)].readable;
}
bool is_writable(BufferAccess a) {
  return kAccess[idx(a)].writable;
}
bool allows_atomics(BufferAccess a) {
  return kAccess[idx(a)].atomic;
}
bool takes_binding(BufferAccess a) {
  return kAccess[idx(a)].slot;
}

}  // namespace vyre
