// The run's timing and progress helpers (certification_run.h, progress.h).
#include "certify/run/certification_run.h"

#include <gtest/gtest.h>

#include "certify/run/progress.h"

namespace vyre::certify {
namespace {

using std::chrono::seconds;

TEST(RecordOtherTime, MakesThePhasesAddUpToTheWallTime) {
  Report r;
  r.wall_us = 1000;
  r.phase_us = {
      {"open", 100}, {"catalog", 50}, {"compile", 200}, {"dispatch", 400}, {"reference", 150}};
  record_other_time(r);
  EXPECT_EQ(r.phase_us.at("other"), 100u);  // 1000 - (100 + 50 + 200 + 400 + 150)
  // Recording again replaces the earlier remainder rather than counting it.
  r.wall_us = 1200;
  record_other_time(r);
  EXPECT_EQ(r.phase_us.at("other"), 300u);
}

TEST(RecordOtherTime, IsZeroWhenThePhasesCoverTheWallTime) {
  Report r;
  r.wall_us = 10;
  r.phase_us = {{"dispatch", 12}};
  record_other_time(r);
  EXPECT_EQ(r.phase_us.at("other"), 0u);
}

TEST(ClockText, MinutesAndSecondsThenHours) {
  EXPECT_EQ(clock_text(seconds(0)), "0:00");
  EXPECT_EQ(clock_text(seconds(56)), "0:56");
  EXPECT_EQ(clock_text(seconds(125)), "2:05");
  EXPECT_EQ(clock_text(seconds(3725)), "1:02:05");
}

TEST(ProgressLine, NamesTheCaseBeingRunWithBothElapsedTimes) {
  EXPECT_EQ(
      progress_line(36, 224, "L4/saturation/storage_buffer_128MiB", seconds(125), seconds(56)),
      "[37/224] 2:05 running L4/saturation/storage_buffer_128MiB (0:56)");
}

TEST(ProgressLine, ShortensALongIdToOneTerminalRow) {
  const std::string id = "L4/" + std::string(100, 'x') + "/end";
  const std::string line = progress_line(0, 9, id, seconds(1), seconds(2));
  EXPECT_EQ(line.size(), 79u);
  EXPECT_EQ(line.substr(0, 21), "[1/9] 0:01 running ..");
  EXPECT_EQ(line.substr(line.size() - 12), "x/end (0:02)");
}

}  // namespace
}  // namespace vyre::certify
