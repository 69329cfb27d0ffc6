// The symptom of a failure, on hand-written outputs and messages: which
// buffers differ and how, a message's stable part (numbers, addresses and
// times masked, the first line only), and the words a report shows.
#include "certify/run/failure_symptom.h"

#include <gtest/gtest.h>

namespace vyre::certify {
namespace {

const BufferSet kExpected = {{"a", {1, 0, 0, 0}}, {"b", {2, 0, 0, 0}}, {"c", {3, 0, 0, 0}}};

TEST(FailureSymptom, NamesEachDifferingBufferAndHowItDiffers) {
  const BufferSet observed = {{"a", {1, 0, 0, 0}}, {"b", {2, 0, 0, 1}}, {"extra", {}}};
  const FailureSymptom s = output_symptom(Verdict::BadOutput, kExpected, observed);
  const std::map<std::string, BufferDifference> want = {{"b", BufferDifference::Bytes},
                                                        {"c", BufferDifference::Missing},
                                                        {"extra", BufferDifference::Unexpected}};
  EXPECT_EQ(s.verdict, Verdict::BadOutput);
  EXPECT_EQ(s.buffers, want);
  EXPECT_EQ(s.message, "");
  EXPECT_EQ(describe(s),
            "bad output: buffer `b` differs; buffer `c` did not come back; buffer `extra` came "
            "back unexpected");
  const BufferSet short_a = {{"a", {1, 0}}, {"b", {2, 0, 0, 0}}, {"c", {3, 0, 0, 0}}};
  EXPECT_EQ(describe(output_symptom(Verdict::BadOutput, kExpected, short_a)),
            "bad output: buffer `a` has another length");
}

TEST(FailureSymptom, AFailureInAnotherBufferIsAnotherSymptom) {
  const BufferSet wrong_a = {{"a", {9, 0, 0, 0}}, {"b", {2, 0, 0, 0}}, {"c", {3, 0, 0, 0}}};
  const BufferSet wrong_b = {{"a", {1, 0, 0, 0}}, {"b", {9, 0, 0, 0}}, {"c", {3, 0, 0, 0}}};
  const BufferSet wrong_ab = {{"a", {9, 0, 0, 0}}, {"b", {9, 0, 0, 0}}, {"c", {3, 0, 0, 0}}};
  const FailureSymptom in_a = output_symptom(Verdict::Fail, kExpected, wrong_a);
  EXPECT_EQ(describe(in_a), "fail: buffer `a` differs");
  EXPECT_NE(in_a, output_symptom(Verdict::Fail, kExpected, wrong_b));
  EXPECT_NE(in_a, output_symptom(Verdict::Fail, kExpected, wrong_ab));
  EXPECT_EQ(describe(output_symptom(Verdict::Fail, kExpected, wrong_ab)),
            "fail: buffers `a`, `b` differ");
  // Other wrong words of the same buffer: the same symptom.
  const BufferSet other_word_of_a = {{"a", {1, 0, 0, 7}}, {"b", {2, 0, 0, 0}}, {"c", {3, 0, 0, 0}}};
  EXPECT_EQ(in_a, output_symptom(Verdict::Fail, kExpected, other_word_of_a));
  EXPECT_NE(in_a, output_symptom(Verdict::BadOutput, kExpected, wrong_a));
}

TEST(FailureSymptom, AStableMessageMasksNumbersAndKeepsTheFirstLine) {
  EXPECT_EQ(stable_message("backend process crashed (signal 11: SIGSEGV) during dispatch"),
            "backend process crashed (signal #: SIGSEGV) during dispatch");
  EXPECT_EQ(stable_message("fault at 0x7ffd12AB after 2000 ms; v17 unset  \nbuild log: 3 errors"),
            "fault at 0x# after # ms; v# unset");
  EXPECT_EQ(stable_message("0x"), "#x");
  EXPECT_EQ(stable_message(std::string(200, 'e')), std::string(160, 'e'));
  // 159 ASCII characters, then a 2-byte character over the cut: dropped whole.
  EXPECT_EQ(stable_message(std::string(159, 'e') + "\xC3\xA9tail"), std::string(159, 'e'));
}

TEST(FailureSymptom, AStatusSymptomIsItsVerdictAndStableMessage) {
  const FailureSymptom first =
      status_symptom(Verdict::Timeout, "did not answer within 2000 ms during dispatch");
  const FailureSymptom later =
      status_symptom(Verdict::Timeout, "did not answer within 3000 ms during dispatch");
  EXPECT_EQ(first, later);
  EXPECT_TRUE(first.buffers.empty());
  EXPECT_EQ(describe(first), "timeout: did not answer within # ms during dispatch");
  EXPECT_NE(first,
            status_symptom(Verdict::Timeout, "did not answer within 2000 ms during compile"));
  EXPECT_NE(first,
            status_symptom(Verdict::DeviceLost, "did not answer within 2000 ms during dispatch"));
}

}  // namespace
}  // namespace vyre::certify
