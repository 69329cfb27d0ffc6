#include "generators/reducer.h"

#include <algorithm>
#include <chrono>
#include <optional>
#include <set>

#include "generators/program_edit.h"
#include "spec/ir/builder.h"
#include "spec/validate/validator.h"

namespace vyre {
namespace {

using namespace build;

class Reducer {
 public:
  Reducer(const std::function<bool(const TestCase&)>& interesting, const ReduceOptions& options)
      : interesting_(interesting), options_(options), start_(std::chrono::steady_clock::now()) {}

  TestCase run(TestCase current) {
    if (!test(current)) return current;
    bool progress = true;
    while (progress && !capped()) {
      progress = false;
      progress |= pass(current, [&](const TestCase& c, size_t i) { return drop_statement(c, i); });
      progress |= pass(current, [&](const TestCase& c, size_t i) { return unwrap(c, i); });
      progress |= pass(current, [&](const TestCase& c, size_t i) { return simplify_expr(c, i); });
      progress |= pass(current, [&](const TestCase& c, size_t i) { return shrink_host(c, i); });
    }
    return current;
  }

  ReduceStats stats;

 private:
  bool capped() {
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    stats.capped =
        stats.predicate_calls >= options_.max_predicate_calls || seconds > options_.max_seconds;
    return stats.capped;
  }

  bool test(const TestCase& c) {
    ++stats.predicate_calls;
    return interesting_(c);
  }

  /// Tries the candidates of site i = 0, 1, ... of `make` (nullopt past the
  /// last site, an empty list where nothing applies); keeps the first
  /// accepted one and retries the same site on the smaller case.
  template <typename Make>
  bool pass(TestCase& current, Make make) {
    bool progress = false;
    for (size_t i = 0; !capped();) {
      std::optional<std::vector<TestCase>> options = make(current, i);
      if (!options) break;
      bool accepted = false;
      for (TestCase& candidate : *options) {
        if (capped()) break;
        if (!validate(candidate.program).empty()) continue;
        if (test(candidate)) {
          current = std::move(candidate);
          ++stats.accepted_steps;
          accepted = progress = true;
          break;
        }
      }
      if (!accepted) ++i;
    }
    return progress;
  }

  static TestCase with_entry(const TestCase& c, Body entry) {
    TestCase out = c;
    out.program.entry = std::move(entry);
    return out;
  }

  std::optional<std::vector<TestCase>> drop_statement(const TestCase& c, size_t i) {
    if (i >= edit::statement_count(c.program.entry)) return std::nullopt;
    return std::vector<TestCase>{with_entry(
        c, edit::replace_statement(c.program.entry, i, [](const Node&) { return Body{}; }))};
  }

  std::optional<std::vector<TestCase>> unwrap(const TestCase& c, size_t i) {
    const Body& entry = c.program.entry;
    if (i >= edit::statement_count(entry)) return std::nullopt;
    std::vector<Body> replacements;
    const Node& n = edit::statement_at(entry, i);
    if (const auto* x = n.as<node::If>()) {
      replacements = {x->then_body, x->otherwise};
    } else if (const auto* x = n.as<node::Loop>()) {
      Body once = {let(x->var, x->from)};
      once.insert(once.end(), x->body.begin(), x->body.end());
      replacements = {{block(once)}, once};
    } else if (const auto* x = n.as<node::Block>()) {
      replacements = {x->body};
    } else if (const auto* x = n.as<node::Assign>()) {
      // Its value bound to a new name, so the Let it assigns can go (a name
      // already taken makes the validator reject the candidate).
      replacements = {{let(x->name + "_", x->value)}};
    }
    std::vector<TestCase> out;
    for (Body& r : replacements) {
      out.push_back(
          with_entry(c, edit::replace_statement(entry, i, [&](const Node&) { return r; })));
    }
    return out;
  }

  /// Smaller expressions for `e`: its operands, then literals.
  static std::vector<ExprPtr> smaller(const ExprPtr& e) {
    std::vector<ExprPtr> out;
    if (const auto* x = e->as<expr::LitU32>()) {
      for (uint32_t v : {0u, 1u, x->value >> 1, x->value & 0xffu}) {
        if (v < x->value) out.push_back(u32(v));
      }
      return out;
    }
    if (const auto* x = e->as<expr::LitI32>()) {
      if (x->value != 0) out.push_back(i32(0));
      if (x->value < -1 || x->value > 1) out.push_back(i32(x->value / 2));
      return out;
    }
    if (const auto* x = e->as<expr::LitBool>()) {
      if (x->value) out.push_back(boolean(false));
      return out;
    }
    out = edit::operands(*e);
    // Literals of each type; the validator rejects the ones of the wrong type.
    for (ExprPtr lit : {u32(0), u32(1), i32(0), boolean(false)}) out.push_back(lit);
    return out;
  }

  std::optional<std::vector<TestCase>> simplify_expr(const TestCase& c, size_t i) {
    const Body& entry = c.program.entry;
    if (i >= edit::expression_count(entry)) return std::nullopt;
    const ExprPtr e = edit::expression_at(entry, i).expr;
    std::vector<TestCase> out;
    for (const ExprPtr& r : smaller(e)) {
      if (!r) continue;
      out.push_back(
          with_entry(c, edit::replace_expression(entry, i, [&](const ExprPtr&) { return r; })));
    }
    return out;
  }

  /// Host-side shrinking: candidates for buffer k (drop if unused, halve,
  /// zero), then the grid and the workgroup size.
  std::optional<std::vector<TestCase>> shrink_host(const TestCase& c, size_t i) {
    const size_t buffers = c.program.buffers.size();
    if (i < buffers) return shrink_buffer(c, i);
    if (i == buffers) return shrink_shape(c);
    return std::nullopt;
  }

  static std::vector<TestCase> shrink_buffer(const TestCase& c, size_t k) {
    std::vector<TestCase> out;
    const BufferDecl decl = c.program.buffers[k];
    {
      TestCase dropped = c;
      dropped.program.buffers.erase(dropped.program.buffers.begin() +
                                    static_cast<std::ptrdiff_t>(k));
      dropped.inputs.erase(decl.name);
      out.push_back(std::move(dropped));
    }
    const auto it = c.inputs.find(decl.name);
    if (it == c.inputs.end()) return out;
    const ByteBuffer& bytes = it->second;
    const size_t unit = decl.element == DataType::Bytes ? 1 : element_size(decl.element);
    if (decl.count == 0 && !bytes.empty()) {
      TestCase halved = c;
      halved.inputs[decl.name].resize(bytes.size() / 2 / unit * unit);
      out.push_back(std::move(halved));
    }
    if (std::any_of(bytes.begin(), bytes.end(), [](uint8_t b) { return b != 0; })) {
      TestCase zeroed = c;
      std::fill(zeroed.inputs[decl.name].begin(), zeroed.inputs[decl.name].end(), 0);
      out.push_back(std::move(zeroed));
    }
    return out;
  }

  static std::vector<TestCase> shrink_shape(const TestCase& c) {
    std::vector<TestCase> out;
    for (int axis = 0; axis < 3; ++axis) {
      if (c.grid.workgroups[axis] > 1) {
        TestCase one = c;
        one.grid.workgroups[axis] = 1;
        out.push_back(one);
        TestCase fewer = c;
        --fewer.grid.workgroups[axis];
        out.push_back(fewer);
      }
      if (c.program.workgroup_size[axis] > 1) {
        TestCase one = c;
        one.program.workgroup_size[axis] = 1;
        out.push_back(one);
        TestCase fewer = c;
        --fewer.program.workgroup_size[axis];
        out.push_back(fewer);
      }
    }
    return out;
  }

  const std::function<bool(const TestCase&)>& interesting_;
  ReduceOptions options_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace

TestCase reduce(const TestCase& start, const std::function<bool(const TestCase&)>& interesting,
                const ReduceOptions& options, ReduceStats* stats) {
  Reducer reducer(interesting, options);
  TestCase out = reducer.run(start);
  if (stats != nullptr) *stats = reducer.stats;
  return out;
}

}  // namespace vyre
