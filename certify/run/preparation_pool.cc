#include "certify/run/preparation_pool.h"

#include <algorithm>

#include "certify/run/run_clock.h"
#include "spec/support/parallel_for.h"

namespace vyre::certify {

PreparationPool::PreparationPool(const std::vector<const SuiteCase*>& cases,
                                 const CaseRunOptions& options, Backend* compile_on,
                                 unsigned threads, size_t lookahead, CompiledAhead* ahead)
    : cases_(cases),
      options_(options),
      compile_on_(compile_on),
      ahead_(ahead),
      lookahead_(std::max<size_t>(lookahead, 1)),
      far_lookahead_(threads >= kFarLookaheadThreads ? kFarLookahead : 0),
      held_(cases.size(), 0),
      done_(cases.size()) {
  for (unsigned t = 0; t < std::max(threads, 1u); ++t) workers_.emplace_back([this] { work(); });
}

PreparationPool::~PreparationPool() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  for (std::thread& t : workers_) t.join();
}

CaseExpectations PreparationPool::take(size_t index) {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return done_[index].has_value(); });
  CaseExpectations out = std::move(*done_[index]);
  done_[index].reset();
  held_total_ -= held_[index];
  held_[index] = 0;
  taken_ = std::max(taken_, index + 1);  // Lanes take cases nearly, not strictly, in order.
  lock.unlock();
  // Room for one more case ahead.
  changed_.notify_all();
  return out;
}

void PreparationPool::work() {
  for (;;) {
    size_t index = 0;
    {
      std::unique_lock lock(mutex_);
      changed_.wait(lock, [&] {
        return stopping_ || next_ >= cases_.size() || next_ < taken_ + lookahead_ ||
               (held_total_ < kHeldBytesBudget && next_ < taken_ + far_lookahead_);
      });
      if (stopping_ || next_ >= cases_.size()) return;
      index = next_++;
    }
    CaseExpectations e = compute_expectations(*cases_[index], options_);
    if (ahead_ != nullptr) {
      // Each case is one worker's: its entry is moved, the map left as it is.
      if (auto it = ahead_->find(cases_[index]->id); it != ahead_->end()) {
        e.compiled = std::move(it->second);
      }
    }
    if (compile_on_ != nullptr) compile_ahead(*compile_on_, e);
    const uint64_t bytes = held_bytes(e);
    {
      std::lock_guard lock(mutex_);
      done_[index] = std::move(e);
      held_[index] = bytes;
      held_total_ += bytes;
    }
    changed_.notify_all();
  }
}

uint64_t held_bytes(const CaseExpectations& e) {
  uint64_t bytes = 0;
  const auto add = [&](const BufferSet& buffers) {
    for (const auto& [name, data] : buffers) bytes += data.size();
  };
  for (const VariantExpectation& v : e.variants) {
    add(v.variant.test_case.inputs);
    if (v.expectation) {
      add(v.expectation->inputs);
      if (v.expectation->expected) add(*v.expectation->expected);
    }
  }
  if (e.host_outputs) add(*e.host_outputs);
  return bytes;
}

void compile_ahead(Backend& backend, CaseExpectations& e) {
  for (const VariantExpectation& ve : e.variants) {
    if (ve.invalid) {
      e.compiled.clear();  // The run stops at the invalid variant, compiling nothing.
      return;
    }
    const Program& program = ve.variant.test_case.program;
    const CompileKey key = compile_key(ve.variant.test_case);
    if (e.compiled.count(key) != 0) continue;
    const auto start = RunClock::Clock::now();
    CompileOutcome out = backend.compile_encoded(program, key.second);
    if (out.status == Status::Ok && out.program) backend.prepare(*out.program);
    e.compile_us += RunClock::micros_since(start);
    e.compiled.emplace(key, std::move(out));
  }
}

CompiledAhead compile_cases_ahead(Backend& backend, const std::vector<const SuiteCase*>& cases,
                                  const CaseRunOptions& options, unsigned threads) {
  CompiledAhead out;
  if (!backend.compiles_concurrently()) return out;
  std::vector<CaseExpectations> shells(cases.size());
  parallel_for(cases.size(), threads, [&](size_t i) {
    const DispatchCase* d = dispatch_of(*cases[i]);
    if (d == nullptr) return true;
    // The variants as the run makes them, without their expectations: every
    // one is compiled (an invalid one, which stops the run of its case,
    // costs a compile that is not used).
    for (Variant& v : variants_of(*d, options)) {
      shells[i].variants.push_back({std::move(v), std::nullopt, std::nullopt});
    }
    compile_ahead(backend, shells[i]);
    return true;
  });
  for (size_t i = 0; i < cases.size(); ++i) {
    if (!shells[i].compiled.empty()) out[cases[i]->id] = std::move(shells[i].compiled);
  }
  return out;
}

}  // namespace vyre::certify
