#include "certify/report/replay_command.h"

namespace vyre::certify {

std::string replay_command(std::string_view repro, std::string_view backend) {
  return "vyre-certify run " + std::string(repro) + " --backend " + std::string(backend);
}

std::string reduce_command(std::string_view repro, std::string_view backend) {
  return "vyre-certify reduce " + std::string(repro) + " --backend " + std::string(backend);
}

std::string rerun_command(std::string_view backend, Level level, uint64_t seed,
                          std::string_view case_id) {
  return "vyre-certify --backend " + std::string(backend) + " --level " +
         std::string(name_of(level)) + " --seed " + std::to_string(seed) + " --filter " +
         std::string(case_id);
}

}  // namespace vyre::certify
