// Control flow and values with hand-written expectations: loop bounds
// evaluated once, zero-trip and edge loops, fresh iteration scopes, Return,
// strong CompareExchange under contention, U64 / vector / Bool memory, uniform,
// empty and Bytes buffers (pinned spec sections 1-5; SEMANTICS S1, S2, S4, S5).
#include "reference/spec_tables/case_builder.h"
#include "reference/spec_tables/table_parts.h"

namespace vyre::reference {
namespace {

using namespace vyre::build;
using spec_tables::make_case;

TestCase loop_bounds_evaluated_once() {
  // `to` is n = 3 at entry; the body raises n, which must not extend the
  // loop; `from` holds an atomic, which must happen once.
  const ExprPtr lane = local_id(0);
  Program p{{storage("c", 0, BufferAccess::ReadWrite), storage("out", 1, BufferAccess::ReadWrite)},
            {2, 1, 1},
            {let("n", u32(3)), let("k", u32(0)),
             loop("i", atomic(AtomicOp::Add, "c", lane, u32(1)), var("n"),
                  {assign("n", add(var("n"), u32(1))), assign("k", add(var("k"), u32(1)))}),
             store("out", mul(lane, u32(2)), var("k")),
             store("out", add(mul(lane, u32(2)), u32(1)), var("n"))}};
  return make_case("exec/loop_bounds_evaluated_once", std::move(p), Grid{},
                   {{"c", to_bytes({0, 0})}, {"out", zero_words(4)}},
                   {{"c", to_bytes({1, 1})}, {"out", to_bytes({3, 6, 3, 6})}});
}

TestCase zero_trip_and_edge_loops() {
  auto counted = [](const std::string& v, uint32_t from, uint32_t to) {
    return loop("i_" + v, u32(from), u32(to), {assign(v, add(var(v), u32(1)))});
  };
  Program p{{storage("out", 0, BufferAccess::ReadWrite)},
            {1, 1, 1},
            {let("a", u32(0)), counted("a", 5, 5), let("b", u32(0)), counted("b", 7, 3),
             let("c", u32(0)), counted("c", 0xFFFFFFFF, 0), let("d", u32(0)), let("last", u32(0)),
             loop("i", u32(0xFFFFFFFE), u32(0xFFFFFFFF),
                  {assign("d", add(var("d"), u32(1))), assign("last", var("i"))}),
             store("out", u32(0), var("a")), store("out", u32(1), var("b")),
             store("out", u32(2), var("c")), store("out", u32(3), var("d")),
             store("out", u32(4), var("last"))}};
  // [5, 5), [7, 3) and [MAX, 0) run zero times; [MAX - 1, MAX) once, without
  // the variable wrapping.
  return make_case("exec/zero_trip_and_edge_loops", std::move(p), Grid{}, {{"out", zero_words(5)}},
                   {{"out", to_bytes({0, 0, 0, 1, 0xFFFFFFFE})}});
}

TestCase loop_iterations_have_fresh_scopes() {
  Program p{{storage("out", 0, BufferAccess::ReadWrite)},
            {1, 1, 1},
            {let("s", u32(0)),
             loop("i", u32(2), u32(6),
                  {let("sq", mul(var("i"), var("i"))), assign("s", add(var("s"), var("sq")))}),
             store("out", u32(0), var("s"))}};
  // 4 + 9 + 16 + 25: i takes 2..5, never 6 (half-open).
  return make_case("exec/loop_fresh_scope_half_open", std::move(p), Grid{},
                   {{"out", zero_words(1)}}, {{"out", to_bytes({54})}});
}

TestCase return_ends_the_invocation() {
  const ExprPtr lane = local_id(0);
  Program p{
      {storage("out", 0, BufferAccess::ReadWrite), storage("steps", 1, BufferAccess::ReadWrite)},
      {4, 1, 1},
      {store("out", lane, u32(1)),
       block({let("n", u32(0)),
              loop("i", u32(0), u32(10),
                   {if_(eq(var("i"), add(lane, u32(2))), {store("steps", lane, var("n")), ret()}),
                    assign("n", add(var("n"), u32(1)))}),
              store("steps", lane, u32(999))}),
       if_(bit_and(lane, u32(1)), {ret()}), store("out", lane, u32(2))}};
  // Every lane returns inside the loop after lane + 2 steps, so the later
  // stores never run: out keeps 1 and steps is lane + 2.
  return make_case("exec/return_ends_invocation", std::move(p), Grid{},
                   {{"out", zero_words(4)}, {"steps", zero_words(4)}},
                   {{"out", to_bytes({1, 1, 1, 1})}, {"steps", to_bytes({2, 3, 4, 5})}});
}

TestCase return_under_a_branch() {
  const ExprPtr lane = local_id(0);
  Program p{{storage("out", 0, BufferAccess::ReadWrite)},
            {4, 1, 1},
            {store("out", lane, u32(1)), if_(bit_and(lane, u32(1)), {ret()}),
             store("out", lane, u32(2))}};
  return make_case("exec/return_under_branch", std::move(p), Grid{}, {{"out", zero_words(4)}},
                   {{"out", to_bytes({2, 1, 2, 1})}});
}

TestCase compare_exchange_is_strong() {
  // 128 invocations race to take lock[0] from 0 to 1: exactly one sees 0.
  // lock[1] holds 5 and every attempt expects 4: none may write.
  Program p{
      {storage("lock", 0, BufferAccess::ReadWrite), storage("winners", 1, BufferAccess::ReadWrite)},
      {64, 1, 1},
      {let("old", compare_exchange("lock", u32(0), u32(0), u32(1))),
       let("won", atomic(AtomicOp::Add, "winners", u32(0),
                         select(eq(var("old"), u32(0)), u32(1), u32(0)))),
       let("failed", compare_exchange("lock", u32(1), u32(4), u32(9)))}};
  return make_case("exec/S10/compare_exchange_strong", std::move(p), Grid{{2, 1, 1}},
                   {{"lock", to_bytes({0, 5})}, {"winners", to_bytes({0})}},
                   {{"lock", to_bytes({1, 5})}, {"winners", to_bytes({1})}});
}

TestCase wide_and_bool_values_in_memory() {
  const ExprPtr lane = local_id(0);
  const ExprPtr other = sub(u32(1), lane);
  Program p{{storage("in64", 0, BufferAccess::ReadOnly, DataType::U64),
             storage("out64", 1, BufferAccess::ReadWrite, DataType::U64),
             storage("in4", 2, BufferAccess::ReadOnly, DataType::Vec4U32),
             storage("out4", 3, BufferAccess::ReadWrite, DataType::Vec4U32),
             storage("bools", 4, BufferAccess::ReadOnly, DataType::Bool),
             storage("bools_out", 5, BufferAccess::ReadWrite, DataType::Bool),
             storage("flags", 6, BufferAccess::ReadWrite, DataType::Bool),
             storage("pick2", 7, BufferAccess::ReadWrite, DataType::Vec2U32)},
            {2, 1, 1},
            {store("out64", lane, load("in64", lane)), store("out4", lane, load("in4", other)),
             store("bools_out", lane, load("bools", lane)),
             store("flags", lane, cast(DataType::Bool, lt(lane, u32(1)))),
             store("pick2", lane,
                   select(load("bools", lane), cast(DataType::Vec2U32, load("in64", lane)),
                          cast(DataType::Vec2U32, lane)))}};
  // bools memory [0, 7] loads as false, true and stores back as 0, 1.
  return make_case(
      "exec/u64_vec_bool_memory", std::move(p), Grid{},
      {{"in64", to_bytes({1, 2, 0xFFFFFFFF, 0x80000000})},
       {"out64", zero_words(4)},
       {"in4", to_bytes({1, 2, 3, 4, 0xDEADBEEF, 0xCAFEBABE, 0x55555555, 0xAAAAAAAA})},
       {"out4", zero_words(8)},
       {"bools", to_bytes({0, 7})},
       {"bools_out", zero_words(2)},
       {"flags", zero_words(2)},
       {"pick2", zero_words(4)}},
      {{"out64", to_bytes({1, 2, 0xFFFFFFFF, 0x80000000})},
       {"out4", to_bytes({0xDEADBEEF, 0xCAFEBABE, 0x55555555, 0xAAAAAAAA, 1, 2, 3, 4})},
       {"bools_out", to_bytes({0, 1})},
       {"flags", to_bytes({1, 0})},
       {"pick2", to_bytes({0, 0, 0xFFFFFFFF, 0x80000000})}});
}

TestCase uniform_buffer() {
  const ExprPtr i = invocation_id(0);
  Program p{
      {storage("params", 0, BufferAccess::Uniform), storage("in", 1, BufferAccess::ReadOnly),
       storage("out", 2, BufferAccess::ReadWrite)},
      {4, 1, 1},
      {store("out", i, add(mul(load("in", i), load("params", u32(0))), load("params", u32(1))))}};
  // x * 3 + 7, wrapping: 0xFFFFFFFF * 3 + 7 = 4 mod 2^32.
  return make_case("exec/uniform_buffer", std::move(p), Grid{},
                   {{"params", to_bytes({3, 7})},
                    {"in", to_bytes({0, 1, 2, 0xFFFFFFFF})},
                    {"out", zero_words(4)}},
                   {{"out", to_bytes({7, 10, 13, 4})}});
}

TestCase empty_buffers() {
  Program p{
      {storage("empty", 0, BufferAccess::ReadOnly), storage("empty_rw", 1, BufferAccess::ReadWrite),
       storage("out", 2, BufferAccess::ReadWrite)},
      {1, 1, 1},
      {store("out", u32(0), buflen("empty")),
       store("out", u32(1), add(load("empty", u32(0)), u32(5))), store("empty_rw", u32(0), u32(1)),
       store("out", u32(2), add(buflen("empty_rw"), u32(9)))}};
  // BufLen 0; the load reads 0 and the store does nothing (both counted).
  return make_case("exec/S15/empty_buffers", std::move(p), Grid{},
                   {{"empty", {}}, {"empty_rw", {}}, {"out", zero_words(3)}},
                   {{"empty_rw", {}}, {"out", to_bytes({0, 5, 9})}});
}

TestCase bytes_buffers_have_a_length_only() {
  // BufLen of a Bytes buffer is its number of backing u32 words, the last one
  // padded (seed 003, "`Bytes` Layout"; SEMANTICS S1), so ceil(bytes / 4):
  // 0 bytes -> 0 words, 1 -> 1, 4 -> 1, 5 -> 2, and 10 -> 3 (bytes 8 and 9 in
  // word 2, lanes 0 and 1). One is a uniform buffer, which binds differently.
  const auto blob = [](const char* name, uint32_t binding, BufferAccess access) {
    return storage(name, binding, access, DataType::Bytes);
  };
  Program p{{blob("b0", 0, BufferAccess::ReadOnly), blob("b1", 1, BufferAccess::ReadOnly),
             blob("b4", 2, BufferAccess::Uniform), blob("b5", 3, BufferAccess::ReadOnly),
             blob("b10", 4, BufferAccess::ReadOnly), storage("out", 5, BufferAccess::ReadWrite)},
            {1, 1, 1},
            {store("out", u32(0), buflen("b0")), store("out", u32(1), buflen("b1")),
             store("out", u32(2), buflen("b4")), store("out", u32(3), buflen("b5")),
             store("out", u32(4), buflen("b10"))}};
  return make_case("exec/bytes_buflen", std::move(p), Grid{},
                   {{"b0", {}},
                    {"b1", ByteBuffer{1}},
                    {"b4", ByteBuffer{1, 2, 3, 4}},
                    {"b5", ByteBuffer{1, 2, 3, 4, 5}},
                    {"b10", ByteBuffer{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}},
                    {"out", zero_words(5)}},
                   {{"out", to_bytes({0, 1, 1, 2, 3})}});
}

TestCase bytes_read_write_round_trip() {
  // A read_write Bytes buffer of 7 bytes, which the program never touches:
  // it comes back byte for byte, its partial last word included (S1, S5).
  Program p{{storage("blob", 0, BufferAccess::ReadWrite, DataType::Bytes),
             storage("out", 1, BufferAccess::ReadWrite)},
            {1, 1, 1},
            {store("out", u32(0), buflen("blob"))}};
  const ByteBuffer blob{0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6, 0x07};
  return make_case("exec/bytes_read_write_round_trip", std::move(p), Grid{},
                   {{"blob", blob}, {"out", zero_words(1)}},
                   {{"blob", blob}, {"out", to_bytes({2})}});
}

}  // namespace

std::vector<TestCase> control_and_value_cases() {
  return {bytes_read_write_round_trip(),
          loop_bounds_evaluated_once(),
          zero_trip_and_edge_loops(),
          loop_iterations_have_fresh_scopes(),
          return_ends_the_invocation(),
          return_under_a_branch(),
          compare_exchange_is_strong(),
          wide_and_bool_values_in_memory(),
          uniform_buffer(),
          empty_buffers(),
          bytes_buffers_have_a_length_only()};
}

}  // namespace vyre::reference
