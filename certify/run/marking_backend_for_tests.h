// Tests only: the fuzz hunt's seeded bug, a backend whose outputs are damaged
// for programs picked by their shape alone, so that every hunt of a seed
// meets the same failures however its programs are batched or shared out.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <utility>

#include "backends/reference_backend.h"
#include "certify/run/fuzz_hunt.h"
#include "spec/text/text_format.h"

namespace vyre::certify {

/// The programs compiled by the MarkingBackends that share it, as text.
class ProgramLog {
 public:
  void add(std::string program) {
    std::lock_guard lock(mutex_);
    programs_.insert(std::move(program));
  }
  std::set<std::string> programs() const {
    std::lock_guard lock(mutex_);
    return programs_;
  }

 private:
  mutable std::mutex mutex_;
  std::set<std::string> programs_;
};

/// Holds the first dispatch of each of `parties` backends until every one
/// has reached its own (or two minutes have passed, so that a hunt that never
/// gives a worker anything fails its test rather than hanging it).
class FirstDispatchMeeting {
 public:
  explicit FirstDispatchMeeting(unsigned parties) : waiting_for_(parties) {}
  void arrive_and_wait() {
    std::unique_lock lock(mutex_);
    if (waiting_for_ > 0) --waiting_for_;
    all_.notify_all();
    all_.wait_for(lock, std::chrono::minutes(2), [&] { return waiting_for_ == 0; });
  }
  bool all_arrived() const {
    std::lock_guard lock(mutex_);
    return waiting_for_ == 0;
  }

 private:
  mutable std::mutex mutex_;
  std::condition_variable all_;
  unsigned waiting_for_;
};

/// A compiled program of MarkingBackend: the reference's, and whether its
/// outputs are to be damaged.
struct MarkedProgram final : CompiledProgram {
  MarkedProgram(std::shared_ptr<const CompiledProgram> p, bool d)
      : inner(std::move(p)), damaged(d) {}
  std::shared_ptr<const CompiledProgram> inner;
  bool damaged;
};

/// The reference interpreter, compiling concurrently, whose outputs are one
/// byte off for programs with a body of 3 mod 4 top-level statements (a bug
/// that depends on the program alone, so every hunt meets it alike); it
/// counts the compiles made before its first dispatch, logs the programs it
/// compiles to `log` and meets the other backends of `meeting` at its first
/// dispatch (each when given).
class MarkingBackend final : public Backend {
 public:
  explicit MarkingBackend(ProgramLog* log = nullptr, FirstDispatchMeeting* meeting = nullptr)
      : log_(log), meeting_(meeting) {}
  std::string name() const override { return "marking"; }
  Capabilities probe() override { return reference_->probe(); }
  CompileOutcome compile(const Program& program) override {
    ++compiles_;
    if (dispatches_ == 0) ++compiles_before_dispatch_;
    if (log_ != nullptr) log_->add(print_program(program));
    CompileOutcome out = reference_->compile(program);
    if (out.program) {
      out.program = std::make_shared<MarkedProgram>(out.program, program.entry.size() % 4 == 3);
    }
    return out;
  }
  DispatchOutcome dispatch(const CompiledProgram& program, const BufferSet& inputs,
                           const Grid& grid) override {
    if (dispatches_++ == 0 && meeting_ != nullptr) meeting_->arrive_and_wait();
    const auto& marked = dynamic_cast<const MarkedProgram&>(program);
    DispatchOutcome out = reference_->dispatch(*marked.inner, inputs, grid);
    if (marked.damaged) {
      for (auto& [name, bytes] : out.outputs) {
        if (!bytes.empty()) bytes[0] ^= 1;
      }
    }
    return out;
  }
  bool compiles_concurrently() const override { return true; }

  uint64_t compiles() const { return compiles_; }
  uint64_t compiles_before_dispatch() const { return compiles_before_dispatch_; }
  uint64_t dispatches() const { return dispatches_; }

 private:
  std::unique_ptr<Backend> reference_ = make_reference_backend(BackendOptions{});
  ProgramLog* log_;
  FirstDispatchMeeting* meeting_;
  std::atomic<uint64_t> compiles_{0};
  std::atomic<uint64_t> compiles_before_dispatch_{0};
  std::atomic<uint64_t> dispatches_{0};
};

/// A quiet hunt on MarkingBackend of a fixed seed's first `programs` programs
/// (one run each) into `out_dir`: bounded by the count, not by time.
inline HuntOptions marking_hunt_options(const std::string& out_dir, uint64_t programs) {
  HuntOptions o;
  o.seed = 20261127;
  o.seconds = 600;
  o.max_programs = programs;
  o.runs = 1;
  o.out_dir = out_dir;
  o.progress = false;
  o.backend_name = "marking";
  return o;
}

}  // namespace vyre::certify
