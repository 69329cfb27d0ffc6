// The race detector's second records: per element, an earlier access by
// another invocation than the latest one. Most elements never get one (each
// invocation keeps to its own elements), so they start in an open-addressing
// hash table keyed by element index; once the table would take more memory
// than a plain array of one record per element, they move into such an array.
// Either way every allocation is first reserved in the run's MemoryBudget,
// so the records count against RunOptions::max_memory_bytes, and the most
// they take is one array (12 bytes per element) per kind of access, plus a
// table of at most that size while they move.
#pragma once

#include <bit>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string_view>

#include "reference/memory_budget.h"

namespace vyre::reference {

/// One remembered access; all-zero means none.
struct RaceRecord {
  /// Linear invocation id + 1; 0 when empty.
  uint32_t invocation_plus_one = 0;
  /// The barrier phase it happened in (RaceDetector numbers them).
  uint32_t phase = 0;
  /// Its node's index in the run's access sites.
  uint32_t site = 0;
  bool empty() const { return invocation_plus_one == 0; }
  uint32_t invocation() const { return invocation_plus_one - 1; }
};

/// Sparse-then-dense records of one kind of access to one buffer.
class SecondRecords {
 public:
  /// What the reservations are for, as the memory-limit Error names it.
  static constexpr std::string_view kWhat =
      "the race detector's records of elements that several invocations access";

  /// Records for a buffer of `elements` elements, reserving in `memory`.
  SecondRecords(uint64_t elements, MemoryBudget& memory) : elements_(elements), memory_(&memory) {}
  SecondRecords(const SecondRecords&) = delete;
  SecondRecords& operator=(const SecondRecords&) = delete;
  ~SecondRecords() { memory_->release(reserved_); }

  /// The record of element `index`, or null if it has none.
  const RaceRecord* find(uint32_t index) const {
    if (dense_) return dense_[index].empty() ? nullptr : &dense_[index];
    if (size_ == 0) return nullptr;
    for (uint64_t s = home(index);; s = (s + 1) & mask_) {
      const Slot& slot = slots_[s];
      if (slot.index_plus_one == index + 1) return &slot.record;
      if (slot.index_plus_one == 0) return nullptr;
    }
  }

  /// The record of element `index`, added empty if missing; null when the
  /// memory budget refused the growth (the run then ends with its Error) or
  /// the allocator failed (out_of_memory() tells which).
  RaceRecord* find_or_add(uint32_t index) {
    if (dense_) return &dense_[index];
    if (size_ + 1 > (mask_ + 1) / 2 && !grow()) return nullptr;
    if (dense_) return &dense_[index];
    for (uint64_t s = home(index);; s = (s + 1) & mask_) {
      Slot& slot = slots_[s];
      if (slot.index_plus_one == index + 1) return &slot.record;
      if (slot.index_plus_one == 0) {
        slot.index_plus_one = index + 1;
        ++size_;
        return &slot.record;
      }
    }
  }

  /// Whether an allocation failed although the budget allowed it.
  bool out_of_memory() const { return out_of_memory_; }

 private:
  struct Slot {
    /// Element index + 1 (elements are fewer than 2^32); 0 for a free slot.
    uint32_t index_plus_one = 0;
    RaceRecord record;
  };
  static_assert(sizeof(Slot) == 16 && sizeof(RaceRecord) == 12);
  struct FreeDeleter {
    void operator()(void* p) const { std::free(p); }
  };

  /// The slot element `index` hashes to: the top bits of a Fibonacci hash,
  /// as many as the table has (mask_ + 1 == 2^(64 - shift_)).
  uint64_t home(uint32_t index) const {
    return (uint64_t{index} * 0x9E3779B97F4A7C15ull) >> shift_;
  }

  /// Doubles the table, or moves to the dense array once that is smaller.
  bool grow() {
    const uint64_t capacity = slots_ ? (mask_ + 1) * 2 : 16;
    const uint64_t table_bytes = capacity * sizeof(Slot);
    const uint64_t dense_bytes = elements_ * sizeof(RaceRecord);
    return table_bytes < dense_bytes ? rehash(capacity) : densify();
  }

  /// Moves every record into a table of `capacity` slots.
  bool rehash(uint64_t capacity) {
    const uint64_t bytes = capacity * sizeof(Slot);
    std::unique_ptr<Slot[], FreeDeleter> slots(
        static_cast<Slot*>(take(bytes, capacity, sizeof(Slot))));
    if (!slots) return false;
    std::unique_ptr<Slot[], FreeDeleter> old = std::move(slots_);
    const uint64_t old_capacity = old ? mask_ + 1 : 0;
    slots_ = std::move(slots);
    mask_ = capacity - 1;
    shift_ = 64 - static_cast<uint32_t>(std::countr_zero(capacity));
    for (uint64_t i = 0; i < old_capacity; ++i) {
      if (old[i].index_plus_one == 0) continue;
      uint64_t s = home(static_cast<uint32_t>(old[i].index_plus_one - 1));
      while (slots_[s].index_plus_one != 0) s = (s + 1) & mask_;
      slots_[s] = old[i];
    }
    give_back(old_capacity * sizeof(Slot));
    return true;
  }

  /// Moves every record into an array of one record per element.
  bool densify() {
    std::unique_ptr<RaceRecord[], FreeDeleter> dense(static_cast<RaceRecord*>(
        take(elements_ * sizeof(RaceRecord), elements_, sizeof(RaceRecord))));
    if (!dense) return false;
    const uint64_t capacity = slots_ ? mask_ + 1 : 0;
    for (uint64_t i = 0; i < capacity; ++i) {
      if (slots_[i].index_plus_one != 0) dense[slots_[i].index_plus_one - 1] = slots_[i].record;
    }
    slots_.reset();
    give_back(capacity * sizeof(Slot));
    dense_ = std::move(dense);
    return true;
  }

  /// Zeroed memory for `count` items of `size` bytes, reserved first; null
  /// when the budget or the allocator refuses.
  void* take(uint64_t bytes, uint64_t count, uint64_t size) {
    if (!memory_->reserve(bytes, kWhat)) return nullptr;
    void* p = std::calloc(count, size);
    if (p == nullptr) {
      memory_->release(bytes);
      out_of_memory_ = true;
      return nullptr;
    }
    reserved_ += bytes;
    return p;
  }
  void give_back(uint64_t bytes) {
    memory_->release(bytes);
    reserved_ -= bytes;
  }

  uint64_t elements_;
  MemoryBudget* memory_;
  /// Bytes this holds in the budget.
  uint64_t reserved_ = 0;
  std::unique_ptr<Slot[], FreeDeleter> slots_;
  uint64_t mask_ = 0;
  uint32_t shift_ = 64;
  uint64_t size_ = 0;
  /// One record per element, once the table grew past it.
  std::unique_ptr<RaceRecord[], FreeDeleter> dense_;
  bool out_of_memory_ = false;
};

}  // namespace vyre::reference
