#include "generators/program_gen.h"

#include <algorithm>
#include <ostream>
#include <tuple>
#include <vector>

#include "spec/ir/builder.h"
#include "spec/ir/host_words.h"
#include "spec/text/text_format.h"

namespace vyre {
namespace {

namespace gen = rc::gen;
using build::make;

/// Statements per body and arguments per call stay small: breadth comes from
/// the number of runs, not from one huge program.
constexpr int kMaxBodyLength = 4;
constexpr int kMaxCallArgs = 4;
constexpr int kMaxBuffers = 4;
/// RapidCheck's size (0..100 by default) maps to nesting: bodies up to 4
/// deep, expressions up to 5 levels.
constexpr int kMaxProgramDepth = 4;
constexpr int kMaxProgramExprDepth = 5;
/// Deep programs: up to 100 nested bodies around an expression up to 150
/// deep, past V018 (64) and V030 (128) yet, at most 100 + 150 + a few levels,
/// well inside the text format's kMaxTextNesting (512).
constexpr int kMaxDeepNesting = 100;
constexpr int kMaxDeepExpr = 150;
/// Wide programs: up to this many top-level statements, and a call with up
/// to kMaxWideCallArgs arguments.
constexpr int kMaxWideBody = 128;
constexpr int kMaxWideCallArgs = 64;
/// Generators are built once per depth up to this one and then shared:
/// building one costs far more than drawing a value from it.
constexpr int kCachedDepth = 8;

/// One of `values`, shrinking towards the first (gen::elementOf never shrinks).
template <typename T>
rc::Gen<T> element_of(std::vector<T> values) {
  size_t count = values.size();
  return gen::map(gen::inRange<size_t>(0, count),
                  [values = std::move(values)](size_t i) { return values[i]; });
}

template <typename T>
rc::Gen<T> element_of(std::span<const T> values) {
  return element_of(std::vector<T>(values.begin(), values.end()));
}

/// Like gen::weightedOneOf, but a choice shrinks towards the options listed
/// before it (RapidCheck's own choice never shrinks), so leaves, listed
/// first, are where counterexamples end up.
template <typename T>
rc::Gen<T> weighted(std::initializer_list<std::pair<size_t, rc::Gen<T>>> options) {
  std::vector<size_t> weights;
  std::vector<rc::Gen<T>> gens;
  for (const auto& [weight, g] : options) {
    weights.push_back(weight);
    gens.push_back(g);
  }
  rc::Gen<size_t> choice = [weights](const rc::Random& random, int) {
    rc::Random stream = random;
    uint64_t total = 0;
    for (size_t w : weights) total += w;
    uint64_t pick = stream.next() % total;
    size_t i = 0;
    while (pick >= weights[i]) pick -= weights[i++];
    return rc::shrinkable::shrinkRecur(i,
                                       [](size_t v) { return rc::shrink::towards<size_t>(v, 0); });
  };
  return gen::mapcat(choice, [gens = std::move(gens)](size_t i) { return gens[i]; });
}

rc::Gen<uint32_t> small_or_any_u32(uint32_t small_end) {
  return weighted<uint32_t>(
      {{6, gen::inRange<uint32_t>(0, small_end)}, {1, gen::arbitrary<uint32_t>()}});
}

rc::Gen<uint32_t> axis() {
  return weighted<uint32_t>({{6, gen::inRange<uint32_t>(0, 3)}, {1, gen::arbitrary<uint32_t>()}});
}

rc::Gen<std::string> op_id() {
  return weighted<std::string>(
      {{6, element_of<std::string>({"primitive.min", "primitive.max", "primitive.clamp",
                                    "primitive.add", "graph.bfs", "nope", "a.b.c"})},
       {1, arbitrary_name()}});
}

/// Lifts an expression kind into a shared node.
template <typename Kind>
ExprPtr node_of(Kind kind) {
  return make(std::move(kind));
}

rc::Gen<ExprPtr> leaf_expr() {
  static const rc::Gen<ExprPtr> leaves = weighted<ExprPtr>({
      {4,
       gen::map(gen::arbitrary<uint32_t>(), [](uint32_t v) { return node_of(expr::LitU32{v}); })},
      {3,
       gen::map(arbitrary_name(), [](std::string n) { return node_of(expr::Var{std::move(n)}); })},
      {2, gen::map(gen::arbitrary<int32_t>(), [](int32_t v) { return node_of(expr::LitI32{v}); })},
      {1, gen::map(gen::arbitrary<bool>(), [](bool v) { return node_of(expr::LitBool{v}); })},
      {1, gen::map(arbitrary_name(),
                   [](std::string n) { return node_of(expr::BufLen{std::move(n)}); })},
      {2, gen::map(axis(), [](uint32_t a) { return node_of(expr::InvocationId{a}); })},
      {1, gen::map(axis(), [](uint32_t a) { return node_of(expr::WorkgroupId{a}); })},
      {1, gen::map(axis(), [](uint32_t a) { return node_of(expr::LocalId{a}); })},
  });
  return leaves;
}

rc::Gen<Body> arbitrary_body(int depth, int expr_depth) {
  return gen::mapcat(gen::inRange(0, kMaxBodyLength + 1), [=](int length) {
    return gen::container<Body>(static_cast<size_t>(length), arbitrary_node(depth, expr_depth));
  });
}

rc::Gen<std::vector<BufferDecl>> arbitrary_buffers() {
  static const rc::Gen<std::vector<BufferDecl>> buffers = [] {
    auto one = gen::build<BufferDecl>(gen::set(&BufferDecl::name, arbitrary_name()),
                                      gen::set(&BufferDecl::binding, small_or_any_u32(4)),
                                      gen::set(&BufferDecl::access, element_of(all_accesses())),
                                      gen::set(&BufferDecl::element, element_of(all_data_types())),
                                      gen::set(&BufferDecl::count, small_or_any_u32(65)));
    return gen::mapcat(gen::inRange(0, kMaxBuffers + 1), [one](int n) {
      return gen::container<std::vector<BufferDecl>>(static_cast<size_t>(n), one);
    });
  }();
  return buffers;
}

/// Workgroup sizes and grids: mostly ordinary, sometimes 0 or huge.
rc::Gen<std::array<uint32_t, 3>> three_sizes() {
  static const rc::Gen<std::array<uint32_t, 3>> sizes = [] {
    auto size = weighted<uint32_t>({{6, gen::inRange<uint32_t>(1, 257)},
                                    {1, gen::just<uint32_t>(0)},
                                    {1, gen::arbitrary<uint32_t>()}});
    return gen::map(gen::tuple(size, size, size), [](const auto& xyz) {
      return std::array<uint32_t, 3>{std::get<0>(xyz), std::get<1>(xyz), std::get<2>(xyz)};
    });
  }();
  return sizes;
}

rc::Gen<BufferSet> arbitrary_buffer_set() {
  static const rc::Gen<BufferSet> sets = gen::mapcat(gen::inRange(0, 4), [](int count) {
    return gen::map(gen::container<std::vector<std::pair<std::string, ByteBuffer>>>(
                        static_cast<size_t>(count), gen::pair(arbitrary_name(), arbitrary_bytes())),
                    [](const std::vector<std::pair<std::string, ByteBuffer>>& pairs) {
                      return BufferSet(pairs.begin(), pairs.end());
                    });
  });
  return sets;
}

}  // namespace

rc::Gen<std::string> arbitrary_name() {
  static const rc::Gen<std::string> names = weighted<std::string>({
      {12, element_of<std::string>({"a", "b", "x", "i", "out", "in", "buf"})},
      {2, element_of<std::string>({"if", "add", "true", "let", "invocation_id", "input",
                                   "reference", "nothing", "", "a b", "1x", "a.b",
                                   std::string("\0\n\"\\\x7f\xff", 6)})},
      {1, gen::string<std::string>()},
  });
  return names;
}

namespace {

rc::Gen<ExprPtr> make_expr_gen(int depth) {
  if (depth <= 0) return leaf_expr();
  auto sub = gen::lazy([depth] { return arbitrary_expr(depth - 1); });
  auto maybe_sub = weighted<ExprPtr>({{3, gen::just<ExprPtr>(nullptr)}, {1, sub}});
  return weighted<ExprPtr>({
      {8, leaf_expr()},
      {4, gen::apply(
              [](BinOp op, ExprPtr l, ExprPtr r) {
                return node_of(expr::Binary{op, std::move(l), std::move(r)});
              },
              element_of(all_bin_ops()), sub, sub)},
      {2, gen::apply(
              [](std::string b, ExprPtr i) {
                return node_of(expr::Load{std::move(b), std::move(i)});
              },
              arbitrary_name(), sub)},
      {2, gen::apply(
              [](UnOp op, ExprPtr x) {
                return node_of(expr::Unary{op, std::move(x)});
              },
              element_of(all_un_ops()), sub)},
      {1, gen::apply(
              [](std::string id, std::vector<ExprPtr> args) {
                return node_of(expr::Call{std::move(id), std::move(args)});
              },
              op_id(),
              gen::mapcat(gen::inRange(0, kMaxCallArgs + 1),
                          [sub](int n) {
                            return gen::container<std::vector<ExprPtr>>(static_cast<size_t>(n),
                                                                        sub);
                          }))},
      {1, gen::apply(
              [](ExprPtr c, ExprPtr t, ExprPtr f) {
                return node_of(expr::Select{std::move(c), std::move(t), std::move(f)});
              },
              sub, sub, sub)},
      {1, gen::apply(
              [](DataType t, ExprPtr v) {
                return node_of(expr::Cast{t, std::move(v)});
              },
              element_of(all_data_types()), sub)},
      {2, gen::apply(
              [](AtomicOp op, std::string b, ExprPtr i, ExprPtr e, ExprPtr v) {
                return node_of(
                    expr::Atomic{op, std::move(b), std::move(i), std::move(e), std::move(v)});
              },
              element_of(all_atomic_ops()), arbitrary_name(), sub, maybe_sub, sub)},
  });
}

rc::Gen<Node> make_node_gen(int depth, int expr_depth) {
  auto value = arbitrary_expr(expr_depth);
  auto simple = weighted<Node>({
      {4,
       gen::apply([](std::string n, ExprPtr v) { return build::let(std::move(n), std::move(v)); },
                  arbitrary_name(), value)},
      {2, gen::apply(
              [](std::string n, ExprPtr v) { return build::assign(std::move(n), std::move(v)); },
              arbitrary_name(), value)},
      {3,
       gen::apply([](std::string b, ExprPtr i,
                     ExprPtr v) { return build::store(std::move(b), std::move(i), std::move(v)); },
                  arbitrary_name(), value, value)},
      {1, gen::just(build::ret())},
      {1, gen::just(build::barrier())},
  });
  if (depth <= 0) return simple;
  auto body = gen::lazy([=] { return arbitrary_body(depth - 1, expr_depth); });
  return weighted<Node>({
      {6, simple},
      {2, gen::apply([](ExprPtr c, Body t,
                        Body f) { return build::if_(std::move(c), std::move(t), std::move(f)); },
                     value, body, body)},
      {1, gen::apply(
              [](std::string v, ExprPtr from, ExprPtr to, Body b) {
                return build::loop(std::move(v), std::move(from), std::move(to), std::move(b));
              },
              arbitrary_name(), value, value, body)},
      {1, gen::map(body, [](Body b) { return build::block(std::move(b)); })},
  });
}

}  // namespace

rc::Gen<ExprPtr> arbitrary_expr(int depth) {
  static const std::vector<rc::Gen<ExprPtr>> cached = [] {
    std::vector<rc::Gen<ExprPtr>> gens;
    for (int d = 0; d <= kCachedDepth; ++d) gens.push_back(make_expr_gen(d));
    return gens;
  }();
  if (depth >= 0 && depth <= kCachedDepth) return cached[static_cast<size_t>(depth)];
  return make_expr_gen(depth);
}

rc::Gen<Node> arbitrary_node(int depth, int expr_depth) {
  static const std::vector<rc::Gen<Node>> cached = [] {
    std::vector<rc::Gen<Node>> gens;
    for (int d = 0; d <= kCachedDepth; ++d) {
      for (int e = 0; e <= kCachedDepth; ++e) gens.push_back(make_node_gen(d, e));
    }
    return gens;
  }();
  if (depth >= 0 && depth <= kCachedDepth && expr_depth >= 0 && expr_depth <= kCachedDepth) {
    return cached[static_cast<size_t>(depth * (kCachedDepth + 1) + expr_depth)];
  }
  return make_node_gen(depth, expr_depth);
}

namespace {

/// One level of a deep program: the statement that wraps the level inside it
/// (0: if, 1: the else of an if, 2: for, 3: block) and the statements before it.
struct Layer {
  int kind;
  ExprPtr first;
  ExprPtr second;
  std::string name;
  Body before;
};

rc::Gen<Layer> arbitrary_layer() {
  return gen::apply(
      [](int kind, ExprPtr first, ExprPtr second, std::string name, Body before) {
        return Layer{kind, std::move(first), std::move(second), std::move(name), std::move(before)};
      },
      gen::inRange(0, 4), arbitrary_expr(1), arbitrary_expr(1), arbitrary_name(),
      weighted<Body>({{1, gen::just(Body{})}, {1, arbitrary_body(0, 1)}}));
}

/// A list of 0 to `max` values, its length uniform at any RapidCheck size
/// (the size alone would keep early programs shallow), each value drawn at
/// the nominal size 100. It shrinks by dropping values, so a counterexample
/// keeps only the levels that matter.
template <typename Container, typename T>
rc::Gen<Container> list_up_to(int max, rc::Gen<T> value) {
  return gen::resize(max, gen::container<Container>(gen::resize(100, std::move(value))));
}

/// An expression up to kMaxDeepExpr deep: unary and binary operators, each binary one
/// with a leaf on one side. Built bottom-up in a loop, not by recursion.
rc::Gen<ExprPtr> deep_expr() {
  using Level = std::tuple<bool, UnOp, BinOp, bool, ExprPtr>;
  auto level = gen::tuple(gen::arbitrary<bool>(), element_of(all_un_ops()),
                          element_of(all_bin_ops()), gen::arbitrary<bool>(), leaf_expr());
  return gen::apply(
      [](ExprPtr e, const std::vector<Level>& levels) {
        for (const auto& [unary, un_op, bin_op, leaf_left, leaf] : levels) {
          if (unary) {
            e = node_of(expr::Unary{un_op, std::move(e)});
          } else if (leaf_left) {
            e = node_of(expr::Binary{bin_op, leaf, std::move(e)});
          } else {
            e = node_of(expr::Binary{bin_op, std::move(e), leaf});
          }
        }
        return e;
      },
      leaf_expr(), list_up_to<std::vector<Level>>(kMaxDeepExpr - 1, level));
}

/// A body nested up to kMaxDeepNesting deep, a deep expression at
/// its heart. Built inside out in a loop, so no generator recursion.
rc::Gen<Body> deep_body() {
  return gen::apply(
      [](std::string name, ExprPtr heart, Body innermost, std::vector<Layer> layers) {
        Body body = std::move(innermost);
        body.push_back(build::let(std::move(name), std::move(heart)));
        for (Layer& layer : layers) {
          Node wrapped = layer.kind == 0   ? build::if_(layer.first, std::move(body))
                         : layer.kind == 1 ? build::if_(layer.first, {}, std::move(body))
                         : layer.kind == 2 ? build::loop(std::move(layer.name), layer.first,
                                                         layer.second, std::move(body))
                                           : build::block(std::move(body));
          body = std::move(layer.before);
          body.push_back(std::move(wrapped));
        }
        return body;
      },
      arbitrary_name(), deep_expr(), arbitrary_body(0, 2),
      list_up_to<std::vector<Layer>>(kMaxDeepNesting, arbitrary_layer()));
}

/// Up to kMaxWideBody statements (some nesting, shallow
/// expressions) and a call with up to kMaxWideCallArgs arguments.
rc::Gen<Body> wide_body() {
  auto wide_call = gen::apply(
      [](std::string name, std::string id, std::vector<ExprPtr> args) {
        return build::let(std::move(name), node_of(expr::Call{std::move(id), std::move(args)}));
      },
      arbitrary_name(), op_id(),
      list_up_to<std::vector<ExprPtr>>(kMaxWideCallArgs, arbitrary_expr(1)));
  return gen::apply(
      [](Body body, Node call) {
        body.push_back(std::move(call));
        return body;
      },
      list_up_to<Body>(kMaxWideBody, arbitrary_node(1, 2)), wide_call);
}

rc::Gen<Program> program_with(rc::Gen<Body> entry) {
  return gen::build<Program>(gen::set(&Program::buffers, arbitrary_buffers()),
                             gen::set(&Program::workgroup_size, three_sizes()),
                             gen::set(&Program::entry, std::move(entry)));
}

}  // namespace

rc::Gen<Program> arbitrary_program() {
  static const std::vector<rc::Gen<Program>> by_depth = [] {
    std::vector<rc::Gen<Program>> gens;
    for (int d = 0; d <= kMaxProgramDepth; ++d) {
      for (int e = 0; e <= kMaxProgramExprDepth; ++e)
        gens.push_back(program_with(arbitrary_body(d, e)));
    }
    return gens;
  }();
  static const rc::Gen<Program> deep = program_with(deep_body());
  static const rc::Gen<Program> wide = program_with(wide_body());
  return gen::withSize([](int size) {
    int depth = std::clamp(size / 25, 0, kMaxProgramDepth);
    int expr_depth = std::clamp(size / 20, 0, kMaxProgramExprDepth);
    const rc::Gen<Program>& ordinary =
        by_depth[static_cast<size_t>(depth * (kMaxProgramExprDepth + 1) + expr_depth)];
    if (size == 0) return ordinary;
    // Ordinary first, so that counterexamples shrink towards it.
    return weighted<Program>({{2, ordinary}, {1, deep}, {1, wide}});
  });
}

rc::Gen<ByteBuffer> arbitrary_bytes() {
  static const rc::Gen<ByteBuffer> byte_buffers = weighted<ByteBuffer>({
      {1, gen::just(ByteBuffer{})},
      {2, gen::apply([](uint8_t size, uint8_t byte) { return ByteBuffer(size, byte); },
                     gen::arbitrary<uint8_t>(), gen::arbitrary<uint8_t>())},
      {4, gen::map(gen::container<std::vector<uint32_t>>(gen::arbitrary<uint32_t>()),
                   [](const std::vector<uint32_t>& words) { return to_bytes(words); })},
      {3, gen::container<ByteBuffer>(gen::arbitrary<uint8_t>())},
  });
  return byte_buffers;
}

rc::Gen<TestCase> arbitrary_test_case() {
  static const rc::Gen<TestCase> cases = [] {
    auto expected = weighted<std::optional<BufferSet>>({
        {2, gen::just(std::optional<BufferSet>())},
        {1, gen::just(std::optional<BufferSet>(BufferSet{}))},
        {3,
         gen::map(arbitrary_buffer_set(), [](BufferSet s) { return std::optional(std::move(s)); })},
    });
    auto grid = gen::map(three_sizes(), [](std::array<uint32_t, 3> xyz) { return Grid{xyz}; });
    return gen::build<TestCase>(gen::set(&TestCase::name, gen::string<std::string>()),
                                gen::set(&TestCase::program, arbitrary_program()),
                                gen::set(&TestCase::grid, grid),
                                gen::set(&TestCase::inputs, arbitrary_buffer_set()),
                                gen::set(&TestCase::expected, expected));
  }();
  return cases;
}

void showValue(const Program& program, std::ostream& os) {
  os << "\n" << print_program(program);
}

void showValue(const TestCase& test_case, std::ostream& os) {
  os << "\n" << print_case(test_case);
}

}  // namespace vyre
