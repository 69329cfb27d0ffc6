// run_device_shards with a stand-in for vyre-certify: a shell script that
// logs its arguments. The shards must run at once (shard 1 waits for shard
// 2 to have started), the merge must follow them, and the exit status is
// the merge's, or 2 when a shard left no verdict.
#include "certify/gate/device_runs.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace vyre::certify {
namespace {

namespace fs = std::filesystem;

/// A folder with a script `self` that logs `$@` to LOG/<role>.args, where
/// role is shard-I or merge; shard I exits with the code in LOG/exit-I (0
/// if none), the merge with LOG/exit-merge.
struct StandIn {
  fs::path dir;
  fs::path self;

  explicit StandIn(const std::string& name) : dir(fs::path(testing::TempDir()) / name) {
    fs::remove_all(dir);
    fs::create_directories(dir);
    self = dir / "vyre-certify";
    std::ofstream script(self);
    script << "#!/bin/sh\n"
           << "log=" << dir.string() << "\n"
           << "if [ \"$1\" = merge ]; then role=merge; else\n"
           << "  role=$(echo \"$@\" | sed -n 's/.*--shard \\([0-9]*\\)\\/.*/shard-\\1/p'); fi\n"
           << "echo \"$@\" > $log/$role.args\n"
           << "if [ $role = shard-1 ]; then\n"  // started alone, it would wait 10 s, then fail
           << "  n=0; while [ ! -f $log/shard-2.args ] && [ $n -lt 100 ]; do sleep 0.1; "
              "n=$((n+1)); done\n"
           << "  [ -f $log/shard-2.args ] || exit 3\n"
           << "fi\n"
           << "[ -f $log/exit-$role ] && exit $(cat $log/exit-$role)\n"
           << "exit 0\n";
    script.close();
    chmod(self.c_str(), 0755);
  }

  void exit_code(const std::string& role, int code) const {
    std::ofstream(dir / ("exit-" + role)) << code;
  }

  std::string args(const std::string& role) const {
    std::ifstream in(dir / (role + ".args"));
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }

  ShardPlan plan() const {
    ShardPlan p;
    p.self = self.string();
    p.inherited = {"--backend", "vulkan"};
    p.seed = 11;
    p.out = (dir / "out").string();
    return p;
  }
};

TEST(DeviceRuns, ShardsRunAtOnceThenTheMergeWhoseStatusIsTheRunsStatus) {
  const StandIn stand_in("device_runs_merge");
  stand_in.exit_code("shard-2", 1);  // a shard that is not certified still reports
  stand_in.exit_code("merge", 1);
  EXPECT_EQ(run_device_shards(stand_in.plan(), {"0", "1"}), 1);
  const std::string out = stand_in.plan().out;
  EXPECT_EQ(stand_in.args("shard-1"),
            "--backend vulkan --device 0 --seed 11 --seed-policy fixed --shard 1/2 --out " + out +
                "/shard-1 --quiet\n");
  EXPECT_EQ(stand_in.args("shard-2"),
            "--backend vulkan --device 1 --seed 11 --seed-policy fixed --shard 2/2 --out " + out +
                "/shard-2 --quiet\n");
  EXPECT_EQ(stand_in.args("merge"),
            "merge --out " + out + " " + out + "/shard-1 " + out + "/shard-2\n");
}

TEST(DeviceRuns, AShardWithoutAVerdictFailsTheRunWithoutAMerge) {
  const StandIn stand_in("device_runs_no_verdict");
  stand_in.exit_code("shard-2", 2);
  EXPECT_EQ(run_device_shards(stand_in.plan(), {"0", "0"}), 2);
  EXPECT_EQ(stand_in.args("merge"), "");
}

TEST(DeviceRuns, AChildThatCannotStartFailsTheRun) {
  ShardPlan plan;
  plan.self = "/nonexistent/vyre-certify";
  plan.out = testing::TempDir() + "device_runs_missing";
  EXPECT_EQ(run_device_shards(plan, {"0"}), 2);
}

}  // namespace
}  // namespace vyre::certify
