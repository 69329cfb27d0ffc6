#include "reference/exec/lane_schedule.h"

#include <numeric>
#include <utility>

namespace vyre::reference {
namespace {

/// Distinct random lane orders kept per batch; each operation picks one, which
/// varies the order between operations without shuffling per operation.
constexpr size_t kLaneOrders = 4;

uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

}  // namespace

LaneSchedule::LaneSchedule(const Schedule& schedule, uint32_t workgroups)
    : kind_(schedule.kind), workgroups_(workgroups), state_(schedule.seed) {
  if (kind_ != Schedule::Kind::Random) return;
  domain_bits_ = 1;
  while (domain_bits_ < 32 && (uint64_t{1} << domain_bits_) < workgroups_) ++domain_bits_;
  for (uint64_t& key : keys_) key = next_random();
}

uint64_t LaneSchedule::next_random() {
  return splitmix64(state_);
}

uint32_t LaneSchedule::workgroup_at(uint32_t position) const {
  switch (kind_) {
    case Schedule::Kind::Canonical:
      return position;
    case Schedule::Kind::Reversed:
      return workgroups_ - 1 - position;
    case Schedule::Kind::Random:
      break;
  }
  // A keyed bijection on [0, 2^bits): odd multiply, xor-shift and add are each
  // invertible mod 2^bits. Cycle-walking restricts it to [0, workgroups).
  const uint64_t mask = (uint64_t{1} << domain_bits_) - 1;
  const uint32_t shift = domain_bits_ / 2 + 1;
  uint64_t x = position;
  do {
    for (uint64_t key : keys_) {
      x = (x * (key | 1)) & mask;
      x ^= x >> shift;
      x = (x + (key >> 32)) & mask;
    }
  } while (x >= workgroups_);
  return static_cast<uint32_t>(x);
}

void LaneSchedule::begin_batch(uint32_t lanes) {
  if (kind_ != Schedule::Kind::Random && lanes == lanes_ && !lane_orders_.empty()) return;
  lanes_ = lanes;
  std::vector<uint32_t> identity(lanes);
  std::iota(identity.begin(), identity.end(), 0u);
  lane_orders_.clear();
  switch (kind_) {
    case Schedule::Kind::Canonical:
      lane_orders_.push_back(std::move(identity));
      return;
    case Schedule::Kind::Reversed:
      lane_orders_.emplace_back(identity.rbegin(), identity.rend());
      return;
    case Schedule::Kind::Random:
      break;
  }
  for (size_t k = 0; k < kLaneOrders; ++k) {
    std::vector<uint32_t> order = identity;
    for (uint32_t i = lanes; i > 1; --i) {
      const uint32_t j = static_cast<uint32_t>(next_random() % i);
      std::swap(order[i - 1], order[j]);
    }
    lane_orders_.push_back(std::move(order));
  }
}

std::span<const uint32_t> LaneSchedule::next_lane_order() {
  static constexpr uint32_t kWindowOrder[] = {0};
  if (in_window_) return kWindowOrder;
  if (lane_orders_.size() == 1) return lane_orders_.front();
  return lane_orders_[next_random() % lane_orders_.size()];
}

bool LaneSchedule::next_else_first() {
  switch (kind_) {
    case Schedule::Kind::Canonical:
      return false;
    case Schedule::Kind::Reversed:
      return true;
    case Schedule::Kind::Random:
      break;
  }
  return (next_random() & 1) != 0;
}

}  // namespace vyre::reference
