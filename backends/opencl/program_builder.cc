// Building kernels: the disk cache first, then joined programs.
#include "backends/opencl/program_builder.h"

#include "backends/opencl/opencl_c_emitter.h"
#include "backends/opencl/program_batch.h"

namespace vyre::opencl {
namespace {

/// Version of the cache entries' layout below; a change makes old entries misses.
constexpr std::string_view kEntryFormat = "vyre opencl v1";

std::string build_log(const OpenClApi& api, cl_program program, cl_device_id device) {
  size_t size = 0;
  if (api.clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size) !=
      CL_SUCCESS) {
    return "(no build log)";
  }
  std::string log(size, '\0');
  api.clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  return log;
}

/// The program's binary for its one device; empty when the driver gives none.
std::vector<uint8_t> program_binary(const OpenClApi& api, cl_program program) {
  size_t size = 0;
  if (api.clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr) !=
          CL_SUCCESS ||
      size == 0) {
    return {};
  }
  std::vector<uint8_t> binary(size);
  unsigned char* into = binary.data();
  if (api.clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof into, &into, nullptr) !=
      CL_SUCCESS) {
    return {};
  }
  return binary;
}

}  // namespace

BuiltProgram::~BuiltProgram() {
  if (!context_->abandoned()) api_.clReleaseProgram(program_);
}

BuiltKernel::~BuiltKernel() {
  if (kernel != nullptr && !program->context().abandoned()) program->api().clReleaseKernel(kernel);
}

Result<std::shared_ptr<const BuiltKernel>> kernel_for_lane(
    const std::shared_ptr<const BuiltKernel>& kernel, size_t lane) {
  if (lane == 0) return kernel;
  std::lock_guard lock(kernel->lanes_mutex_);
  if (kernel->lanes_.size() < lane) kernel->lanes_.resize(lane);
  std::shared_ptr<const BuiltKernel>& mine = kernel->lanes_[lane - 1];
  if (mine) return mine;
  cl_int error = CL_SUCCESS;
  cl_kernel made = kernel->program->api().clCreateKernel(kernel->program->program(),
                                                         kernel->name.c_str(), &error);
  if (made == nullptr) {
    return Error{"clCreateKernel failed for dispatch lane " + std::to_string(lane) + ": " +
                 cl_error_name(error)};
  }
  auto built = std::make_shared<BuiltKernel>(kernel->program, made, kernel->name);
  built->max_work_group_size = kernel->max_work_group_size;
  mine = std::move(built);
  return mine;
}

std::string build_options_of(std::string_view text) {
  std::string options = kBuildOptions;
  if (text.starts_with(kOptDisableLine)) options += " -cl-opt-disable";
  return options;
}

ProgramBuilder::ProgramBuilder(const OpenClApi& api, std::shared_ptr<const ClContext> context,
                               DiskCache* disk, std::string device_key, std::string device_name,
                               std::shared_ptr<BuildCounts> counts)
    : api_(api),
      context_(std::move(context)),
      disk_(disk),
      device_key_(std::move(device_key)),
      device_name_(std::move(device_name)),
      counts_(std::move(counts)) {}

std::string ProgramBuilder::index_key(std::string_view source) const {
  return std::string(kEntryFormat) + " kernel\n" + device_key_ + "\n" + std::string(source);
}

std::string ProgramBuilder::program_key(const std::string& digest) const {
  return std::string(kEntryFormat) + " program\n" + device_key_ + "\n" + digest;
}

std::vector<Result<std::shared_ptr<const BuiltKernel>>> ProgramBuilder::build(
    const std::vector<std::string_view>& sources) {
  std::vector<Result<std::shared_ptr<const BuiltKernel>>> out(
      sources.size(), Result<std::shared_ptr<const BuiltKernel>>(Error{"not built"}));
  // Sources left to build, grouped by prelude (today every source has the same).
  std::map<std::string_view, std::vector<size_t>> joinable;
  std::vector<size_t> alone;
  for (size_t i = 0; i < sources.size(); ++i) {
    if (std::shared_ptr<const BuiltKernel> cached = from_disk(sources[i])) {
      out[i] = std::move(cached);
      continue;
    }
    if (std::optional<KernelSourceParts> parts = split_kernel_source(sources[i])) {
      joinable[parts->prelude].push_back(i);
    } else {
      alone.push_back(i);
    }
  }
  for (const auto& [prelude, members] : joinable) {
    if (members.size() == 1) {
      alone.push_back(members.front());
      continue;
    }
    std::vector<std::string_view> texts;
    std::vector<std::string> names;
    for (size_t n = 0; n < members.size(); ++n) {
      texts.push_back(sources[members[n]]);
      names.push_back(joined_kernel_name(n));
    }
    const std::string text = join_kernel_sources(texts, kKernelName);
    Result<std::shared_ptr<const BuiltProgram>> program = build_program(text);
    if (!program.ok()) {
      // One source the driver rejects fails them all: build each alone, so
      // that the rest run and the rejected one reports its own log.
      alone.insert(alone.end(), members.begin(), members.end());
      continue;
    }
    counts_->kernels_built += members.size();
    for (size_t n = 0; n < members.size(); ++n) out[members[n]] = make_kernel(*program, names[n]);
    store(**program, text, texts, names);
  }
  for (size_t i : alone) {
    const std::string text(sources[i]);
    Result<std::shared_ptr<const BuiltProgram>> program = build_program(text);
    if (!program.ok()) {
      out[i] = program.error();
      continue;
    }
    ++counts_->kernels_built;
    out[i] = make_kernel(*program, kKernelName);
    store(**program, text, {sources[i]}, {kKernelName});
  }
  return out;
}

std::shared_ptr<const BuiltKernel> ProgramBuilder::from_disk(std::string_view source) {
  if (disk_ == nullptr) return nullptr;
  std::optional<std::vector<uint8_t>> index = disk_->load(index_key(source));
  if (!index) return nullptr;
  // "<64 hex digits of the program>\n<kernel name>"
  const std::string entry(index->begin(), index->end());
  const size_t newline = entry.find('\n');
  if (newline != 64 || entry.size() == 65) return nullptr;
  std::shared_ptr<const BuiltProgram> program =
      load_program(entry.substr(0, 64), build_options_of(source));
  if (!program) return nullptr;
  Result<std::shared_ptr<const BuiltKernel>> kernel = make_kernel(program, entry.substr(65));
  if (!kernel.ok()) return nullptr;
  ++counts_->kernels_loaded;
  return *kernel;
}

std::shared_ptr<const BuiltProgram> ProgramBuilder::load_program(const std::string& digest,
                                                                 const std::string& options) {
  {
    std::lock_guard lock(mutex_);
    if (auto it = loaded_.find(digest); it != loaded_.end()) {
      if (std::shared_ptr<const BuiltProgram> live = it->second.lock()) return live;
    }
    if (refused_.count(digest) != 0) return nullptr;  // Asked once per program, not per kernel.
  }
  std::optional<std::vector<uint8_t>> binary = disk_->load(program_key(digest));
  if (!binary || binary->empty()) return nullptr;
  const size_t length = binary->size();
  const unsigned char* bytes = binary->data();
  cl_device_id device = context_->device();
  cl_int binary_status = CL_SUCCESS;
  cl_int error = CL_SUCCESS;
  cl_program program = api_.clCreateProgramWithBinary(context_->context(), 1, &device, &length,
                                                      &bytes, &binary_status, &error);
  const auto refused = [&]() -> std::shared_ptr<const BuiltProgram> {
    ++counts_->binaries_refused;
    std::lock_guard lock(mutex_);
    refused_.insert(digest);
    return nullptr;
  };
  if (program == nullptr) return refused();
  auto held = std::make_shared<const BuiltProgram>(api_, context_, program);
  // A binary the driver does not take (another driver version wrote it under
  // a colliding key, or it is damaged in a way the digest cannot see) is a
  // miss: the kernel is built from source.
  if (error != CL_SUCCESS || binary_status != CL_SUCCESS ||
      api_.clBuildProgram(program, 1, &device, options.c_str(), nullptr, nullptr) != CL_SUCCESS) {
    return refused();
  }
  std::lock_guard lock(mutex_);
  loaded_[digest] = held;
  return held;
}

Result<std::shared_ptr<const BuiltProgram>> ProgramBuilder::build_program(const std::string& text) {
  const char* source = text.c_str();
  const size_t length = text.size();
  cl_int error = CL_SUCCESS;
  cl_program program =
      api_.clCreateProgramWithSource(context_->context(), 1, &source, &length, &error);
  if (program == nullptr) {
    return Error{"clCreateProgramWithSource failed on " + device_name_ + ": " +
                 cl_error_name(error)};
  }
  auto held = std::make_shared<const BuiltProgram>(api_, context_, program);
  cl_device_id device = context_->device();
  ++counts_->programs_built;
  const std::string options = build_options_of(text);
  error = api_.clBuildProgram(program, 1, &device, options.c_str(), nullptr, nullptr);
  if (error != CL_SUCCESS) {
    return Error{"the OpenCL compiler of " + device_name_ + " rejected the kernel (" +
                 cl_error_name(error) + "):\n" + build_log(api_, program, device) +
                 "\n--- generated OpenCL C ---\n" + text};
  }
  return held;
}

Result<std::shared_ptr<const BuiltKernel>> ProgramBuilder::make_kernel(
    std::shared_ptr<const BuiltProgram> program, const std::string& name) {
  cl_int error = CL_SUCCESS;
  cl_kernel kernel = api_.clCreateKernel(program->program(), name.c_str(), &error);
  if (kernel == nullptr) {
    return Error{"clCreateKernel failed on " + device_name_ + ": " + cl_error_name(error)};
  }
  auto built = std::make_shared<BuiltKernel>(std::move(program), kernel, name);
  size_t work_group_size = 0;
  api_.clGetKernelWorkGroupInfo(kernel, context_->device(), CL_KERNEL_WORK_GROUP_SIZE,
                                sizeof work_group_size, &work_group_size, nullptr);
  built->max_work_group_size = work_group_size;
  return std::shared_ptr<const BuiltKernel>(std::move(built));
}

void ProgramBuilder::store(const BuiltProgram& program, const std::string& text,
                           const std::vector<std::string_view>& sources,
                           const std::vector<std::string>& names) {
  if (disk_ == nullptr) return;
  const std::vector<uint8_t> binary = program_binary(api_, program.program());
  if (binary.empty()) return;
  const std::string digest = sha256_hex(text);
  // The program first: an index entry never points at a program not yet stored.
  disk_->store(program_key(digest), binary);
  for (size_t i = 0; i < sources.size(); ++i) {
    const std::string entry = digest + "\n" + names[i];
    disk_->store(index_key(sources[i]),
                 {reinterpret_cast<const uint8_t*>(entry.data()), entry.size()});
  }
}

}  // namespace vyre::opencl
