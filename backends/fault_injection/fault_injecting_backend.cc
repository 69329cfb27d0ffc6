#include "backends/fault_injection/fault_injecting_backend.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <thread>

namespace vyre {
namespace {

/// Salts of fault_draw: which run a batch fault hits, which byte is flipped.
constexpr uint64_t kRunSalt = 0x52554E;
constexpr uint64_t kByteSalt = 0x42595445;

/// Flips one byte, chosen by `draw`, of the first non-empty buffer outside
/// `scratch` (one the caller judges, or the fault would go unseen); false
/// when there is none.
bool flip_one_byte(BufferSet& outputs, uint64_t draw, const std::vector<std::string>& scratch) {
  for (auto& [name, bytes] : outputs) {
    if (bytes.empty() || std::find(scratch.begin(), scratch.end(), name) != scratch.end()) {
      continue;
    }
    bytes[draw % bytes.size()] ^= 0xFF;
    return true;
  }
  return false;
}

/// Drops the last byte of the first non-empty buffer; false when every buffer is empty.
bool truncate_one_buffer(BufferSet& outputs) {
  for (auto& [name, bytes] : outputs) {
    if (bytes.empty()) continue;
    bytes.pop_back();
    return true;
  }
  return false;
}

class FaultInjectingBackend final : public Backend {
 public:
  FaultInjectingBackend(std::unique_ptr<Backend> inner, FaultInjection injection)
      : inner_(std::move(inner)), injection_(std::move(injection)) {}

  std::string name() const override { return inner_->name(); }
  Capabilities probe() override { return inner_->probe(); }
  CompileOutcome compile(const Program& program) override { return inner_->compile(program); }
  std::vector<Encoding> encodings() const override { return inner_->encodings(); }
  CompileOutcome compile_encoded(const Program& program, Encoding encoding) override {
    return inner_->compile_encoded(program, encoding);
  }
  bool compiles_concurrently() const override { return inner_->compiles_concurrently(); }
  void prepare(const CompiledProgram& program) override { inner_->prepare(program); }
  uint32_t concurrent_dispatches() const override { return inner_->concurrent_dispatches(); }
  uint32_t useful_processes() const override { return inner_->useful_processes(); }
  std::optional<DriverCacheUse> driver_cache() const override { return inner_->driver_cache(); }
  bool saved_for_process_exit() override { return inner_->saved_for_process_exit(); }

  DispatchOutcome dispatch(const CompiledProgram& program, const BufferSet& inputs,
                           const Grid& grid) override {
    const uint64_t call = injection_.calls->next();
    const std::optional<FaultKind> fault = fault_at(injection_.plan, call);
    DispatchOutcome out;
    if (std::optional<std::string> failure = status_fault(fault, call, out.status)) {
      out.message = std::move(*failure);
      return out;
    }
    out = inner_->dispatch(program, inputs, grid);
    if (out.status != Status::Ok || !fault) return out;
    if (*fault == FaultKind::WrongBytes) {
      note(*fault, call, flip_one_byte(out.outputs, fault_draw(seed(), call, kByteSalt), {}));
    } else {
      note(*fault, call, truncate_one_buffer(out.outputs));
    }
    return out;
  }

  BatchOutcome dispatch_runs(const CompiledProgram& program, const BufferSet& inputs,
                             const Grid& grid, const BatchOptions& options) override {
    const uint64_t call = injection_.calls->next();
    const std::optional<FaultKind> fault = fault_at(injection_.plan, call);
    const uint32_t runs = std::max<uint32_t>(options.runs, 1);
    BatchOutcome out;
    if (std::optional<std::string> failure = status_fault(fault, call, out.status)) {
      out.message = std::move(*failure);
      out.failed_run = static_cast<uint32_t>(fault_draw(seed(), call, kRunSalt) % runs);
      out.dispatches = out.failed_run + 1;
      out.submissions = 1;
      return out;
    }
    out = inner_->dispatch_runs(program, inputs, grid, options);
    if (out.status != Status::Ok || !fault) return out;
    if (*fault == FaultKind::TruncatedReadback) {
      note(*fault, call, truncate_one_buffer(out.first_outputs));
    } else {
      note(*fault, call, corrupt_one_run(out, runs, options, call));
    }
    return out;
  }

 private:
  uint64_t seed() const { return injection_.plan.seed; }

  /// Says on stderr what was injected where, so a backend author can match
  /// each failing case with its fault.
  void note(FaultKind fault, uint64_t call, bool injected) const {
    std::fprintf(stderr, "vyre-certify: --inject-faults: %s at dispatch call %llu%s\n",
                 std::string(name_of(fault)).c_str(), static_cast<unsigned long long>(call),
                 injected ? "" : " not injected: the judged outputs hold no byte");
  }

  /// Acts out a fault that ends the call with a status (a lost device, a
  /// hang, a failed allocation, a crash); sets `status` and returns the
  /// message, or nullopt for no such fault.
  std::optional<std::string> status_fault(std::optional<FaultKind> fault, uint64_t call,
                                          Status& status) {
    const std::string injected = " (injected by --inject-faults " + injection_.plan.spec +
                                 " at dispatch call " + std::to_string(call) + ")";
    if (const uint64_t lost = lost_at_.load(); lost != 0) {
      status = Status::DeviceLost;
      return "the device was lost at dispatch call " + std::to_string(lost) +
             " and this backend was not recreated" + injected;
    }
    if (!fault || *fault == FaultKind::WrongBytes || *fault == FaultKind::TruncatedReadback) {
      return std::nullopt;
    }
    note(*fault, call, true);
    switch (*fault) {
      case FaultKind::DeviceLost:
        lost_at_ = call;
        status = Status::DeviceLost;
        return "device lost" + injected;
      case FaultKind::Hang:
        if (injection_.in_child_process) {
          // The parent's call timeout kills this process.
          for (;;) ::pause();
        }
        std::this_thread::sleep_for(injection_.hang_timeout);
        status = Status::Timeout;
        return "the submission did not finish within " +
               std::to_string(injection_.hang_timeout.count()) + " ms" + injected;
      case FaultKind::AllocationFailure:
        status = Status::Error;
        return "out of device memory: a buffer allocation failed" + injected;
      case FaultKind::Crash:
        std::abort();
      case FaultKind::WrongBytes:
      case FaultKind::TruncatedReadback:
        break;
    }
    return std::nullopt;
  }

  /// Gives one run of the batch, drawn from the seed, run 0's bytes with one
  /// judged byte flipped (run 0 itself when the batch has one run); keeps
  /// `differing` the first options.reported_differing differing runs in run
  /// order, without options.scratch, as a backend returns them.
  bool corrupt_one_run(BatchOutcome& out, uint32_t runs, const BatchOptions& options,
                       uint64_t call) const {
    BufferSet wrong = out.first_outputs;
    if (!flip_one_byte(wrong, fault_draw(seed(), call, kByteSalt), options.scratch)) return false;
    if (runs == 1) {
      out.first_outputs = std::move(wrong);
      return true;
    }
    for (const std::string& name : options.scratch) wrong.erase(name);
    const uint32_t reported = options.reported_differing;
    const uint32_t run = 1 + static_cast<uint32_t>(fault_draw(seed(), call, kRunSalt) % (runs - 1));
    auto at = std::lower_bound(out.differing.begin(), out.differing.end(), run,
                               [](const DifferingRun& d, uint32_t r) { return d.run < r; });
    if (at != out.differing.end() && at->run == run) {
      at->outputs = std::move(wrong);
      return true;
    }
    ++out.differing_runs;
    out.differing.insert(at, {run, std::move(wrong)});
    if (out.differing.size() > reported) out.differing.resize(reported);
    return true;
  }

  std::unique_ptr<Backend> inner_;
  FaultInjection injection_;
  /// The call a device-lost fault fired at (0: none); this backend's device
  /// stays lost after it, as a real one does until it is recreated.
  std::atomic<uint64_t> lost_at_{0};
};

}  // namespace

Result<std::shared_ptr<FaultCallCounter>> FaultCallCounter::make() {
  void* shared = ::mmap(nullptr, sizeof(std::atomic<uint64_t>), PROT_READ | PROT_WRITE,
                        MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (shared == MAP_FAILED) {
    return Error{std::string("cannot map the fault injector's call counter: ") +
                 std::strerror(errno)};
  }
  static_assert(std::atomic<uint64_t>::is_always_lock_free,
                "the counter is shared between processes only if it is lock-free");
  return std::shared_ptr<FaultCallCounter>(
      new FaultCallCounter(new (shared) std::atomic<uint64_t>(0)));
}

FaultCallCounter::~FaultCallCounter() {
  ::munmap(count_, sizeof(std::atomic<uint64_t>));
}

uint64_t FaultCallCounter::next() {
  return count_->fetch_add(1) + 1;
}

Result<std::unique_ptr<Backend>> inject_faults(std::unique_ptr<Backend> inner,
                                               FaultInjection injection) {
  if (!injection.calls) return Error{"--inject-faults: no call counter given"};
  if (injection.plan.crashes() && !injection.in_child_process) {
    return Error{
        "--inject-faults: a `crash` fault needs the backend in a child process (a "
        "plugin, --backend ./libmybackend.so); crashing here would end the certifier"};
  }
  return std::unique_ptr<Backend>(
      std::make_unique<FaultInjectingBackend>(std::move(inner), std::move(injection)));
}

}  // namespace vyre
