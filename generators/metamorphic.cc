#include "generators/metamorphic.h"

#include <set>

#include "generators/prng.h"
#include "generators/program_edit.h"
#include "spec/ir/builder.h"
#include "spec/validate/validator.h"

namespace vyre {
namespace {

using namespace build;

/// Names read, written or declared, and buffers read or written, by a
/// statement (nested bodies included).
struct Effects {
  std::set<std::string> var_reads, var_writes, buffer_reads, buffer_writes;
  bool control = false;  ///< holds a Barrier or Return
};

void expr_effects(const ExprPtr& e, Effects& fx) {
  edit::transform(e, [&](const ExprPtr& x) {
    if (const auto* v = x->as<expr::Var>()) fx.var_reads.insert(v->name);
    if (const auto* l = x->as<expr::Load>()) fx.buffer_reads.insert(l->buffer);
    if (const auto* a = x->as<expr::Atomic>()) fx.buffer_writes.insert(a->buffer);
    return x;
  });
}

void body_effects(const Body& body, Effects& fx);

void node_effects(const Node& n, Effects& fx) {
  if (const auto* x = n.as<node::Let>()) {
    expr_effects(x->value, fx);
    fx.var_writes.insert(x->name);
  } else if (const auto* x = n.as<node::Assign>()) {
    expr_effects(x->value, fx);
    fx.var_writes.insert(x->name);
  } else if (const auto* x = n.as<node::Store>()) {
    expr_effects(x->index, fx);
    expr_effects(x->value, fx);
    fx.buffer_writes.insert(x->buffer);
  } else if (const auto* x = n.as<node::If>()) {
    expr_effects(x->cond, fx);
    body_effects(x->then_body, fx);
    body_effects(x->otherwise, fx);
  } else if (const auto* x = n.as<node::Loop>()) {
    expr_effects(x->from, fx);
    expr_effects(x->to, fx);
    fx.var_writes.insert(x->var);
    body_effects(x->body, fx);
  } else if (const auto* x = n.as<node::Block>()) {
    body_effects(x->body, fx);
  } else {
    fx.control = true;
  }
}

void body_effects(const Body& body, Effects& fx) {
  for (const Node& n : body) node_effects(n, fx);
}

bool meets(const std::set<std::string>& a, const std::set<std::string>& b) {
  for (const std::string& x : a) {
    if (b.contains(x)) return true;
  }
  return false;
}

bool independent(const Node& a, const Node& b) {
  Effects fa, fb;
  node_effects(a, fa);
  node_effects(b, fb);
  if (fa.control || fb.control) return false;
  return !meets(fa.var_writes, fb.var_reads) && !meets(fa.var_writes, fb.var_writes) &&
         !meets(fb.var_writes, fa.var_reads) && !meets(fa.buffer_writes, fb.buffer_reads) &&
         !meets(fa.buffer_writes, fb.buffer_writes) && !meets(fb.buffer_writes, fa.buffer_reads);
}

/// A name used nowhere in `p`.
std::string unused_name(const Program& p, const std::string& stem) {
  Effects fx;
  body_effects(p.entry, fx);
  for (int i = 0;; ++i) {
    std::string name = stem + std::to_string(i);
    if (!fx.var_reads.contains(name) && !fx.var_writes.contains(name)) return name;
  }
}

bool depends_on_workgroup(const Program& p) {
  bool depends = false;
  for (const BufferDecl& b : p.buffers) depends |= b.access == BufferAccess::Workgroup;
  edit::transform(p.entry, [&](const ExprPtr& x) {
    depends |= x->as<expr::LocalId>() != nullptr || x->as<expr::WorkgroupId>() != nullptr;
    return x;
  });
  for (size_t i = 0; i < edit::statement_count(p.entry); ++i) {
    depends |= edit::statement_at(p.entry, i).as<node::Barrier>() != nullptr;
  }
  return depends;
}

/// The u32 word `index` of the input of `buffer`, when the host gave it.
std::optional<uint32_t> input_word(const TestCase& c, const std::string& buffer, uint32_t index) {
  const auto it = c.inputs.find(buffer);
  if (it == c.inputs.end() || it->second.size() < 4 * (size_t{index} + 1)) return std::nullopt;
  uint32_t w = 0;
  for (int k = 0; k < 4; ++k) w |= uint32_t{it->second[4 * index + k]} << (8 * k);
  return w;
}

/// A condition false for these inputs, read from the inputs when possible:
/// false only at run time, so the compiler cannot delete the dead code (a
/// declared buffer's BufLen is a compile-time constant and is left out).
ExprPtr false_condition(const TestCase& c, Prng& rng) {
  std::vector<ExprPtr> options;
  for (const BufferDecl& b : c.program.buffers) {
    if (b.access == BufferAccess::Workgroup) continue;
    const uint64_t elements =
        host_element_count(b.element, c.inputs.count(b.name) ? c.inputs.at(b.name).size() : 0);
    if (b.count == 0) options.push_back(gt(buflen(b.name), u32(static_cast<uint32_t>(elements))));
    if (b.element == DataType::U32 && b.access != BufferAccess::ReadWrite && elements > 0) {
      const auto index = static_cast<uint32_t>(rng.below(elements));
      if (const auto w = input_word(c, b.name, index))
        options.push_back(ne(load(b.name, u32(index)), u32(*w)));
    }
  }
  if (options.empty()) return boolean(false);
  return options[rng.below(options.size())];
}

/// `c` with `guarded` in front of its statement number `site`.
TestCase with_in_front(const TestCase& c, size_t site, const Node& guarded) {
  TestCase out = c;
  out.program.entry = edit::replace_statement(c.program.entry, site, [&](const Node& n) {
    return Body{guarded, n};
  });
  return out;
}

/// Dead code behind a condition false for these inputs (GraphicsFuzz's
/// donors and dead jumps): junk that would change the output if it ran, or,
/// one time in two, a `return` that would end the invocation. A compiler must
/// keep a dead `return` as it must keep a store, and to a driver that cannot
/// prove the condition uniform every barrier after it may look divergent,
/// the shape behind most of the driver bugs the suite found. Where a
/// `return` would make the program invalid (under divergent control with a
/// barrier after it, V010) the junk goes in its place.
std::optional<TestCase> dead_code(const TestCase& c, Prng& rng) {
  std::vector<const BufferDecl*> writable;
  for (const BufferDecl& b : c.program.buffers) {
    if (b.access == BufferAccess::ReadWrite && b.element != DataType::Bytes) writable.push_back(&b);
  }
  const size_t statements = edit::statement_count(c.program.entry);
  if (writable.empty() || statements == 0) return std::nullopt;
  const BufferDecl& target = *writable[rng.below(writable.size())];
  const std::string name = unused_name(c.program, "dead");
  // Junk that would change the output (and race) if it ever ran.
  const Body junk = {let(name, add(invocation_id(0), u32(rng.next_u32()))),
                     store(target.name, mod(var(name), u32(4)), cast(target.element, var(name)))};
  const ExprPtr never = false_condition(c, rng);
  const size_t site = rng.below(statements);
  if (rng.below(2) == 0) {
    TestCase jump = with_in_front(c, site, if_(never, {ret()}));
    if (validate(jump.program).empty()) return jump;
  }
  return with_in_front(c, site, if_(never, junk));
}

std::optional<TestCase> identity(const TestCase& c, Prng& rng) {
  std::vector<size_t> sites;
  const std::vector<edit::ExprSite> all = edit::expression_sites(c.program.entry);
  for (size_t i = 0; i < all.size(); ++i) {
    if (all[i].u32_position) sites.push_back(i);
  }
  if (sites.empty()) return std::nullopt;
  const uint32_t k = rng.next_u32();
  const uint64_t form = rng.below(6);
  TestCase out = c;
  out.program.entry = edit::replace_expression(c.program.entry, sites[rng.below(sites.size())],
                                               [&](const ExprPtr& x) -> ExprPtr {
                                                 switch (form) {
                                                   case 0:
                                                     return add(x, u32(0));
                                                   case 1:
                                                     return bit_xor(bit_xor(x, u32(k)), u32(k));
                                                   case 2:
                                                     return mul(x, u32(1));
                                                   case 3:
                                                     return sub(x, u32(0));
                                                   case 4:
                                                     return shl(x, u32(32));
                                                   default:
                                                     return call("primitive.max", {x, u32(0)});
                                                 }
                                               });
  return out;
}

/// Own expressions of a statement only (its bodies emptied).
Node without_bodies(Node n) {
  if (auto* x = std::get_if<node::If>(&n.kind)) x->then_body.clear(), x->otherwise.clear();
  if (auto* x = std::get_if<node::Loop>(&n.kind)) x->body.clear();
  if (auto* x = std::get_if<node::Block>(&n.kind)) x->body.clear();
  return n;
}

std::optional<TestCase> outline(const TestCase& c, Prng& rng) {
  // (statement, own expression) pairs that may move in front of the
  // statement: any, when the statement evaluates no atomic, else only the
  // first expression it evaluates.
  std::vector<std::pair<size_t, size_t>> sites;
  for (size_t s = 0; s < edit::statement_count(c.program.entry); ++s) {
    const Body own = {without_bodies(edit::statement_at(c.program.entry, s))};
    const bool pure = !edit::has_atomic(own[0]);
    const std::vector<edit::ExprSite> all = edit::expression_sites(own);
    for (size_t i = 0; i < all.size(); ++i) {
      if (pure || all[i].evaluated_first) sites.push_back({s, i});
    }
  }
  if (sites.empty()) return std::nullopt;
  const auto [s, i] = sites[rng.below(sites.size())];
  const std::string name = unused_name(c.program, "out");
  TestCase out = c;
  out.program.entry = edit::replace_statement(c.program.entry, s, [&, i = i](const Node& n) {
    const ExprPtr e = edit::expression_at(Body{without_bodies(n)}, i).expr;
    Body rewritten =
        edit::replace_expression(Body{n}, i, [&](const ExprPtr&) { return var(name); });
    return Body{let(name, e), rewritten[0]};
  });
  return out;
}

bool inlinable_value(const ExprPtr& e, const std::set<std::string>& assigned) {
  bool ok = true;
  edit::transform(e, [&](const ExprPtr& x) {
    ok &= x->as<expr::Atomic>() == nullptr && x->as<expr::Load>() == nullptr;
    if (const auto* v = x->as<expr::Var>()) ok &= !assigned.contains(v->name);
    return x;
  });
  return ok;
}

/// Inlines the `target`-th inlinable let (counting from `counter`) into the
/// rest of its body.
bool inline_let(Body& body, const std::set<std::string>& assigned, size_t& counter, size_t target) {
  for (size_t j = 0; j < body.size(); ++j) {
    const auto* let_node = body[j].as<node::Let>();
    if (let_node != nullptr && !assigned.contains(let_node->name) &&
        inlinable_value(let_node->value, assigned) && counter++ == target) {
      const std::string name = let_node->name;
      const ExprPtr value = let_node->value;
      Body rest(body.begin() + static_cast<std::ptrdiff_t>(j) + 1, body.end());
      rest = edit::transform(rest, [&](const ExprPtr& x) {
        const auto* v = x->as<expr::Var>();
        return v != nullptr && v->name == name ? value : x;
      });
      body.resize(j);
      body.insert(body.end(), rest.begin(), rest.end());
      return true;
    }
    Node& n = body[j];
    std::vector<Body*> inner;
    if (auto* x = std::get_if<node::If>(&n.kind)) inner = {&x->then_body, &x->otherwise};
    if (auto* x = std::get_if<node::Loop>(&n.kind)) inner = {&x->body};
    if (auto* x = std::get_if<node::Block>(&n.kind)) inner = {&x->body};
    for (Body* b : inner) {
      if (inline_let(*b, assigned, counter, target)) return true;
    }
  }
  return false;
}

std::optional<TestCase> inline_one(const TestCase& c, Prng& rng) {
  std::set<std::string> assigned;
  for (size_t s = 0; s < edit::statement_count(c.program.entry); ++s) {
    if (const auto* a = edit::statement_at(c.program.entry, s).as<node::Assign>())
      assigned.insert(a->name);
  }
  Body probe = c.program.entry;
  size_t count = 0;
  inline_let(probe, assigned, count, SIZE_MAX);
  if (count == 0) return std::nullopt;
  TestCase out = c;
  size_t counter = 0;
  inline_let(out.program.entry, assigned, counter, rng.below(count));
  return out;
}

std::optional<TestCase> peel(const TestCase& c, Prng& rng) {
  std::vector<size_t> loops;
  for (size_t s = 0; s < edit::statement_count(c.program.entry); ++s) {
    if (edit::statement_at(c.program.entry, s).as<node::Loop>() != nullptr) loops.push_back(s);
  }
  if (loops.empty()) return std::nullopt;
  const std::string lo = unused_name(c.program, "lo");
  const std::string hi = unused_name(c.program, "hi");
  TestCase out = c;
  out.program.entry =
      edit::replace_statement(c.program.entry, loops[rng.below(loops.size())], [&](const Node& n) {
        const auto& l = *n.as<node::Loop>();
        Body first = {let(l.var, var(lo))};
        first.insert(first.end(), l.body.begin(), l.body.end());
        // Bounds once, in their order; the first trip in its own scope; the rest as before.
        return Body{
            block({let(lo, l.from), let(hi, l.to),
                   if_(lt(var(lo), var(hi)),
                       {block(first), loop(l.var, add(var(lo), u32(1)), var(hi), l.body)})})};
      });
  return out;
}

/// Swaps the `target`-th independent adjacent pair (counting from `counter`).
bool swap_pair(Body& body, size_t& counter, size_t target) {
  for (size_t j = 0; j < body.size(); ++j) {
    if (j + 1 < body.size() && independent(body[j], body[j + 1]) && counter++ == target) {
      std::swap(body[j], body[j + 1]);
      return true;
    }
    Node& n = body[j];
    std::vector<Body*> inner;
    if (auto* x = std::get_if<node::If>(&n.kind)) inner = {&x->then_body, &x->otherwise};
    if (auto* x = std::get_if<node::Loop>(&n.kind)) inner = {&x->body};
    if (auto* x = std::get_if<node::Block>(&n.kind)) inner = {&x->body};
    for (Body* b : inner) {
      if (swap_pair(*b, counter, target)) return true;
    }
  }
  return false;
}

std::optional<TestCase> reorder(const TestCase& c, Prng& rng) {
  Body probe = c.program.entry;
  size_t count = 0;
  swap_pair(probe, count, SIZE_MAX);
  if (count == 0) return std::nullopt;
  TestCase out = c;
  size_t counter = 0;
  swap_pair(out.program.entry, counter, rng.below(count));
  return out;
}

std::optional<TestCase> workgroup_shape(const TestCase& c, Prng& rng) {
  if (depends_on_workgroup(c.program)) return std::nullopt;
  TestCase out = c;
  // At most 64 invocations per workgroup, far below every backend's limit.
  uint32_t room = 64;
  for (int axis = 0; axis < 3; ++axis) {
    const uint32_t total = c.program.workgroup_size[axis] * c.grid.workgroups[axis];
    std::vector<uint32_t> divisors;
    for (uint32_t d = 1; d <= total && d <= room; ++d) {
      if (total % d == 0) divisors.push_back(d);
    }
    const uint32_t size = divisors[rng.below(divisors.size())];
    out.program.workgroup_size[axis] = size;
    out.grid.workgroups[axis] = total / size;
    room /= size;
  }
  if (out.program.workgroup_size == c.program.workgroup_size) return std::nullopt;
  return out;
}

using Rewrite = std::optional<TestCase> (*)(const TestCase&, Prng&);

constexpr std::pair<const char*, Rewrite> kRewrites[] = {{"dead_code", dead_code},
                                                         {"identity", identity},
                                                         {"outline", outline},
                                                         {"inline", inline_one},
                                                         {"peel", peel},
                                                         {"reorder", reorder},
                                                         {"workgroup_shape", workgroup_shape}};

}  // namespace

std::vector<MetamorphicVariant> metamorphic_variants(const TestCase& c, uint64_t seed) {
  Prng rng(seed);
  std::vector<MetamorphicVariant> out;
  for (const auto& [name, rewrite] : kRewrites) {
    // One stream per rewrite, so adding a rewrite never moves another's site.
    Prng stream = rng.split();
    if (std::optional<TestCase> v = rewrite(c, stream)) {
      v->name = c.name + "~" + name;
      out.push_back({name, std::move(*v)});
    }
  }
  return out;
}

}  // namespace vyre
