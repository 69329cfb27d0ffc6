// The layout half of the well-formed generator: features (swarm testing),
// workgroup shape and grid, the buffers and their roles, and edge-biased
// host inputs.
#include <algorithm>
#include <stdexcept>

#include "generators/wellformed_context.h"

namespace vyre::wellformed {
namespace {

constexpr std::array<DataType, 6> kValueTypes = {DataType::U32,     DataType::I32,
                                                 DataType::U64,     DataType::Vec2U32,
                                                 DataType::Vec4U32, DataType::Bool};
/// Workgroup extents drawn per axis; several are not powers of two, so
/// guards leave partial workgroups.
constexpr std::array<uint32_t, 6> kExtentsX = {1, 2, 3, 4, 5, 8};
constexpr std::array<uint32_t, 3> kExtentsYz = {1, 2, 3};
/// Vulkan's guaranteed maxComputeSharedMemorySize; the generic arrays take
/// at most half, the communication shapes the rest.
constexpr uint32_t kWorkgroupBytesLimit = 16384;
/// Contended atomics whose final value is the same under every order.
constexpr std::array<AtomicOp, 8> kCounterOps = {
    AtomicOp::Add, AtomicOp::Or,  AtomicOp::And,      AtomicOp::Xor,
    AtomicOp::Min, AtomicOp::Max, AtomicOp::Exchange, AtomicOp::CompareExchange};

void draw_features(Plan& p) {
  ProgramFeatures f = p.options.features;
  if (p.options.swarm) {
    // Each available feature stays with probability 1/2; the rest are cut.
    for (bool* flag : {&f.ifs,
                       &f.loops,
                       &f.blocks,
                       &f.selects,
                       &f.calls,
                       &f.casts,
                       &f.wide_types,
                       &f.own_atomics,
                       &f.contended_atomics,
                       &f.workgroup_ids,
                       &f.barriers,
                       &f.workgroup_memory,
                       &f.uniform_buffers,
                       &f.bytes_buffers,
                       &f.out_of_bounds,
                       &f.early_return,
                       &f.multi_axis,
                       &f.shadowing,
                       &f.return_in_loop,
                       &f.reload_after_store,
                       &f.communication,
                       &f.atomic_sections,
                       &f.path_trace,
                       &f.rule_idioms,
                       &f.opaque_constants}) {
      *flag = *flag && p.rng.chance(1, 2);
    }
  }
  // Barriers and workgroup arrays make a program depend on the workgroup;
  // the communication shapes are phases separated by barriers.
  const ProgramFeatures& available = p.options.features;
  f.workgroup_ids =
      available.workgroup_ids && (f.workgroup_ids || f.barriers || f.workgroup_memory);
  f.barriers = f.barriers && f.workgroup_ids;
  f.communication = f.communication && f.barriers;
  f.atomic_sections = f.atomic_sections && f.barriers;
  f.workgroup_memory = f.workgroup_memory && f.workgroup_ids;
  p.features = f;
}

/// Workgroup x extents for wide workgroups: powers of two and their odd
/// neighbours, up to 1024.
constexpr std::array<uint32_t, 22> kWideExtents = {9,   16,  17,  31,  32,   33,  63,  64,
                                                   65,  100, 127, 128, 129,  255, 256, 257,
                                                   511, 512, 513, 767, 1023, 1024};

/// The size class and its knobs, each drawn between the small class's value
/// and the class's cap, capped by the options. Weights keep most programs
/// small so that L5 stays fast.
void draw_sizes(Plan& p) {
  const GeneratorOptions& o = p.options;
  struct Caps {
    uint32_t statements, depth, nesting, invocations;
  };
  Caps caps{o.max_statements, o.max_expr_depth, o.max_nesting, o.max_invocations};
  if (o.swarm_sizes) {
    const uint64_t pick = p.rng.below(100);
    p.size = pick < 86   ? SizeClass::Small
             : pick < 94 ? SizeClass::Deep
             : pick < 98 ? SizeClass::Wide
                         : SizeClass::LargeGrid;
    switch (p.size) {
      case SizeClass::Small:
        caps = {32, 4, 3, 192};
        break;
      case SizeClass::Deep:
        caps = {300, 10, 6, 256};
        break;
      case SizeClass::Wide:
        caps = {32, 6, 4, 4096};
        break;
      case SizeClass::LargeGrid:
        caps = {12, 4, 3, 65536};
        break;
    }
  }
  const auto draw = [&](uint32_t small, uint32_t cap, uint32_t max) {
    const uint32_t hi = std::max<uint32_t>(1, std::min(cap, max));
    return static_cast<uint32_t>(p.rng.between(std::min(small, hi), hi));
  };
  p.max_statements = draw(32, caps.statements, o.max_statements);
  p.max_expr_depth = draw(4, caps.depth, o.max_expr_depth);
  p.max_nesting = draw(3, caps.nesting, o.max_nesting);
  p.options.max_invocations = std::max<uint32_t>(1, std::min(caps.invocations, o.max_invocations));
  // Loops multiply work by their trips; a wide grid gets fewer.
  p.max_trip_product = caps.invocations > 4096 ? 4 : caps.invocations > 256 ? 8 : 64;
}

void draw_grid(Plan& p) {
  const bool multi = p.features.multi_axis;
  const uint32_t max_total = p.options.max_invocations;
  const uint32_t max_group = std::max<uint32_t>(1, p.options.max_workgroup_invocations);
  const bool wide = p.size == SizeClass::Wide || p.size == SizeClass::LargeGrid;
  for (int attempt = 0; attempt < 16; ++attempt) {
    uint32_t x = p.rng.pick<uint32_t>(kExtentsX);
    if (wide && p.rng.chance(3, 4)) x = p.rng.pick<uint32_t>(kWideExtents);
    p.workgroup_size = {x, multi ? p.rng.pick<uint32_t>(kExtentsYz) : 1,
                        multi ? p.rng.pick<uint32_t>(kExtentsYz) : 1};
    if (p.invocations_per_workgroup() > max_group || p.invocations_per_workgroup() > max_total)
      continue;
    if (wide) {
      // As many workgroups as fit, up to Vulkan's guaranteed 65535 per axis.
      const uint32_t groups = std::min<uint32_t>(65535, max_total / p.invocations_per_workgroup());
      p.grid = {static_cast<uint32_t>(p.rng.between(std::max<uint32_t>(1, groups / 4), groups)), 1,
                1};
    } else {
      p.grid = {static_cast<uint32_t>(p.rng.between(1, 3)),
                multi ? static_cast<uint32_t>(p.rng.between(1, 2)) : 1,
                multi ? static_cast<uint32_t>(p.rng.between(1, 2)) : 1};
    }
    if (p.total_invocations() <= max_total) return;
  }
  p.workgroup_size = {std::min<uint32_t>(2, max_group), 1, 1};
  p.grid = {1, 1, 1};
}

DataType draw_type(Plan& p) {
  return p.features.wide_types && p.rng.chance(2, 3) ? p.rng.pick<DataType>(kValueTypes)
                                                     : DataType::U32;
}

/// Bytes a workgroup array takes (a Bytes array counts whole words).
uint32_t workgroup_array_bytes(const BufferPlan& b) {
  return b.elements * (b.decl.element == DataType::Bytes ? 4 : element_size(b.decl.element));
}

/// Element count of a storage buffer: declared (count > 0) or host-sized.
void size_storage(Plan& p, BufferPlan& b, uint32_t elements) {
  b.elements = elements;
  if (elements > 0 && p.rng.chance(1, 3)) b.decl.count = elements;
}

void plan_buffers(Plan& p) {
  const uint32_t total = p.total_invocations();
  const uint32_t inputs = static_cast<uint32_t>(p.rng.between(1, 4));
  for (uint32_t i = 0; i < inputs; ++i) {
    BufferPlan& b = add_buffer(p, "in" + std::to_string(i), Role::Input, BufferAccess::ReadOnly,
                               i == 0 ? DataType::U32 : draw_type(p));
    // Empty now and then: every index is then out of bounds.
    size_storage(p, b,
                 p.rng.chance(1, 12) ? 0 : static_cast<uint32_t>(p.rng.between(1, 2 * total + 3)));
  }
  if (p.features.uniform_buffers) {
    const uint32_t uniforms = static_cast<uint32_t>(p.rng.between(1, 2));
    for (uint32_t i = 0; i < uniforms; ++i) {
      BufferPlan& b = add_buffer(p, "uni" + std::to_string(i), Role::Uniform, BufferAccess::Uniform,
                                 draw_type(p));
      size_storage(p, b, static_cast<uint32_t>(p.rng.between(1, 9)));
    }
  }
  const uint32_t outputs = static_cast<uint32_t>(p.rng.between(1, 3));
  for (uint32_t i = 0; i < outputs; ++i) {
    // The first output holds U32, so own-slot atomics always have a target.
    BufferPlan& b = add_buffer(p, "out" + std::to_string(i), Role::Own, BufferAccess::ReadWrite,
                               i == 0 ? DataType::U32 : draw_type(p));
    b.slots = static_cast<uint32_t>(p.rng.between(1, 3));
    size_storage(p, b, total * b.slots + static_cast<uint32_t>(p.rng.between(0, 2)));
  }
  if (p.features.contended_atomics) {
    const uint32_t counters = static_cast<uint32_t>(p.rng.between(1, 2));
    for (uint32_t i = 0; i < counters; ++i) {
      BufferPlan& b = add_buffer(p, "cnt" + std::to_string(i), Role::Counter,
                                 BufferAccess::ReadWrite, DataType::U32);
      b.counter_op = p.rng.pick<AtomicOp>(kCounterOps);
      b.counter_expected = edge_biased_u32(p.rng);
      b.counter_value = edge_biased_u32(p.rng);
      size_storage(p, b, static_cast<uint32_t>(p.rng.between(1, 4)));
    }
  }
  if (p.features.bytes_buffers) {
    constexpr std::array<BufferAccess, 3> kAccess = {
        BufferAccess::ReadOnly, BufferAccess::ReadWrite, BufferAccess::Uniform};
    BufferPlan& b =
        add_buffer(p, "raw", Role::Raw, p.rng.pick<BufferAccess>(kAccess), DataType::Bytes);
    // Bytes of every length mod 4; BufLen counts backing words (S1).
    const uint32_t bytes = static_cast<uint32_t>(p.rng.between(0, 19));
    b.elements = (bytes + 3) / 4;
    b.slots = bytes;  // Raw: the host byte length.
    if (bytes % 4 == 0 && bytes > 0 && p.rng.chance(1, 3)) b.decl.count = b.elements;
  }
  if (p.features.workgroup_memory) {
    const uint32_t arrays = static_cast<uint32_t>(p.rng.between(1, 3));
    for (uint32_t i = 0; i < arrays; ++i) {
      const bool bytes = p.features.bytes_buffers && p.rng.chance(1, 4);
      BufferPlan& b = add_buffer(p, "wg" + std::to_string(i), bytes ? Role::Raw : Role::Workgroup,
                                 BufferAccess::Workgroup, bytes ? DataType::Bytes : draw_type(p));
      // Larger than the workgroup: several slots per local invocation.
      b.slots = static_cast<uint32_t>(p.rng.between(1, 3));
      b.elements =
          p.invocations_per_workgroup() * b.slots + static_cast<uint32_t>(p.rng.between(0, 3));
      b.decl.count = b.elements;
      if (p.workgroup_bytes + workgroup_array_bytes(b) > kWorkgroupBytesLimit / 2) {
        // A wide workgroup: one U32 slot per invocation, or no array at all.
        b.role = Role::Workgroup;
        b.decl.element = DataType::U32;
        b.slots = 1;
        b.elements = p.invocations_per_workgroup();
        b.decl.count = b.elements;
        if (p.workgroup_bytes + workgroup_array_bytes(b) > kWorkgroupBytesLimit / 2) {
          p.buffers.pop_back();
          break;
        }
      }
      p.workgroup_bytes += workgroup_array_bytes(b);
    }
  }
  plan_shape_buffers(p);
  // Binding slots in a random order, so no backend may assume declaration order.
  std::vector<uint32_t> slots;
  for (const BufferPlan& b : p.buffers) {
    if (takes_binding(b.decl.access)) slots.push_back(static_cast<uint32_t>(slots.size()));
  }
  for (size_t i = slots.size(); i > 1; --i) std::swap(slots[i - 1], slots[p.rng.below(i)]);
  size_t next = 0;
  for (BufferPlan& b : p.buffers) {
    if (takes_binding(b.decl.access)) b.decl.binding = slots[next++];
  }
}

ByteBuffer edge_biased_bytes(Prng& rng, size_t bytes) {
  ByteBuffer out(bytes);
  for (size_t i = 0; i < bytes; i += 4) {
    const uint32_t word = edge_biased_u32(rng);
    for (size_t k = 0; k < 4 && i + k < bytes; ++k)
      out[i + k] = static_cast<uint8_t>(word >> (8 * k));
  }
  return out;
}

}  // namespace

BufferPlan& add_buffer(Plan& p, std::string name, Role role, BufferAccess access,
                       DataType element) {
  BufferPlan b;
  b.decl.name = std::move(name);
  b.decl.access = access;
  b.decl.element = element;
  b.role = role;
  p.buffers.push_back(std::move(b));
  return p.buffers.back();
}

const BufferPlan& Plan::buffer(const std::string& name) const {
  for (const BufferPlan& b : buffers) {
    if (b.decl.name == name) return b;
  }
  throw std::logic_error("the generator planned no buffer `" + name + "`");
}

void Plan::note(const std::string& shape) {
  if (std::find(shapes.begin(), shapes.end(), shape) == shapes.end()) shapes.push_back(shape);
}

std::vector<DataType> Plan::value_types() const {
  if (!features.wide_types) return {DataType::U32};
  return {kValueTypes.begin(), kValueTypes.end()};
}

std::vector<const Local*> Plan::locals_of(DataType type, bool assignable_only) const {
  std::vector<const Local*> out;
  for (const auto& scope : scopes) {
    for (const Local& l : scope) {
      if (l.type == type && (l.assignable || !assignable_only)) out.push_back(&l);
    }
  }
  return out;
}

std::string Plan::fresh_name() {
  if (features.shadowing && !closed_names.empty() && rng.chance(1, 2)) {
    const size_t i = rng.below(closed_names.size());
    std::string name = closed_names[i];
    closed_names.erase(closed_names.begin() + static_cast<std::ptrdiff_t>(i));
    return name;
  }
  return "v" + std::to_string(next_name++);
}

void Plan::close_scope() {
  for (Local& l : scopes.back()) closed_names.push_back(std::move(l.name));
  scopes.pop_back();
}

void Plan::declare(std::string name, DataType type, bool assignable) {
  scopes.back().push_back(Local{std::move(name), type, assignable});
}

void plan_layout(Plan& p) {
  draw_features(p);
  draw_sizes(p);
  draw_grid(p);
  plan_buffers(p);
}

BufferSet gen_inputs(Plan& p) {
  BufferSet inputs;
  for (const BufferPlan& b : p.buffers) {
    if (b.decl.access == BufferAccess::Workgroup) continue;
    if (!b.fixed_words.empty()) {
      ByteBuffer words(4 * b.fixed_words.size());
      for (size_t i = 0; i < b.fixed_words.size(); ++i) {
        for (size_t k = 0; k < 4; ++k)
          words[4 * i + k] = static_cast<uint8_t>(b.fixed_words[i] >> (8 * k));
      }
      inputs[b.decl.name] = std::move(words);
      continue;
    }
    size_t bytes =
        b.role == Role::Raw ? b.slots : size_t{b.elements} * element_size(b.decl.element);
    // A host-sized buffer may end in a partial element nothing can address.
    if (b.role != Role::Raw && b.decl.count == 0 && p.rng.chance(1, 6)) {
      bytes += p.rng.below(element_size(b.decl.element));
    }
    inputs[b.decl.name] = edge_biased_bytes(p.rng, bytes);
  }
  return inputs;
}

uint32_t edge_biased_u32(Prng& rng) {
  static const std::vector<uint32_t> edges = edge_values();
  if (rng.chance(1, 2)) return rng.pick<uint32_t>(edges);
  if (rng.chance(1, 2)) return static_cast<uint32_t>(rng.below(64));
  return rng.next_u32();
}

}  // namespace vyre::wellformed
