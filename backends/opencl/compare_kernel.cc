// The comparison kernel's source and arguments.
#include "backends/opencl/compare_kernel.h"

#include <algorithm>

namespace vyre::opencl {

const char* const kCompareKernelSource =
    "// Saves one run's packed outputs, compares them with run 0's and makes\n"
    "// them fresh (pristine) for the next run in the same buffer\n"
    "// (backends/opencl/compare_kernel.h). Every buffer is a separate one.\n"
    "__kernel void vyre_main(__global uint* restrict work, __global const uint* restrict "
    "pristine,\n"
    "                        __global uint* restrict first, __global uint* restrict others,\n"
    "                        __global const ulong* restrict table, uint entries, ulong stride,\n"
    "                        __global uint* restrict status, uint slots, uint control,\n"
    "                        ulong control_word, uint contiguous, uint slot) {\n"
    "  const ulong id = get_global_id(0);\n"
    "  const ulong size = get_global_size(0);\n"
    "  uint differs = 0u;\n"
    "  for (uint e = 0u; e < entries; ++e) {\n"
    "    const ulong offset = table[4ul * e];\n"
    "    const ulong words = table[4ul * e + 1ul];\n"
    "    const uint last_mask = (uint)table[4ul * e + 2ul];\n"
    "    // The words of this work-item: on a CPU one block (its caches),\n"
    "    // elsewhere every size-th word (coalesced accesses).\n"
    "    const ulong block = contiguous != 0u ? (words + size - 1ul) / size : 1ul;\n"
    "    const ulong begin = contiguous != 0u ? id * block : id;\n"
    "    const ulong end = contiguous != 0u ? min(begin + block, words) : words;\n"
    "    const ulong step = contiguous != 0u ? 1ul : size;\n"
    "    __global uint* run = work + offset;\n"
    "    __global const uint* fresh = pristine + offset;\n"
    "    if (slot == 0u) {\n"
    "      __global uint* saved = first + offset;\n"
    "      for (ulong i = begin; i < end; i += step) {\n"
    "        saved[i] = run[i];\n"
    "        run[i] = fresh[i];\n"
    "      }\n"
    "      continue;\n"
    "    }\n"
    "    if (table[4ul * e + 3ul] == 0ul) {  // Scratch: made fresh, not judged.\n"
    "      for (ulong i = begin; i < end; i += step) run[i] = fresh[i];\n"
    "      continue;\n"
    "    }\n"
    "    __global const uint* base = first + offset;\n"
    "    __global uint* saved = others + (ulong)(slot - 1u) * stride + offset;\n"
    "    for (ulong i = begin; i < end; i += step) {\n"
    "      const uint value = run[i];\n"
    "      saved[i] = value;\n"
    "      const uint mask = i + 1ul == words ? last_mask : 0xFFFFFFFFu;\n"
    "      differs |= (value ^ base[i]) & mask;\n"
    "      run[i] = fresh[i];\n"
    "    }\n"
    "  }\n"
    "  if (differs != 0u) atomic_or(&status[slot], 1u);\n"
    "  if (control != 0u && id == 0ul) {\n"
    "    status[slots + slot] = work[control_word];\n"
    "    work[control_word] = 0u;\n"
    "  }\n"
    "}\n";

namespace {

/// The compare kernel's arguments (kCompareKernelSource), in order.
enum CompareArg : cl_uint {
  kWork,
  kPristine,
  kFirst,
  kOthers,
  kTable,
  kEntries,
  kStride,
  kStatus,
  kSlots,
  kControl,
  kControlWord,
  kContiguous,
  kSlot,
};

constexpr uint64_t kMaxCompareGroups = 1024;

}  // namespace

cl_int set_compare_arguments(const OpenClApi& api, cl_kernel kernel, const CompareArguments& a) {
  cl_int error = CL_SUCCESS;
  const auto set = [&](CompareArg index, size_t size, const void* value) {
    if (error == CL_SUCCESS) error = api.clSetKernelArg(kernel, index, size, value);
  };
  set(kWork, sizeof a.work, &a.work);
  set(kPristine, sizeof a.pristine, &a.pristine);
  set(kFirst, sizeof a.first, &a.first);
  set(kOthers, sizeof a.others, &a.others);
  set(kTable, sizeof a.table, &a.table);
  set(kEntries, sizeof a.entries, &a.entries);
  set(kStride, sizeof a.stride, &a.stride);
  set(kStatus, sizeof a.status, &a.status);
  set(kSlots, sizeof a.slots, &a.slots);
  set(kControl, sizeof a.control, &a.control);
  set(kControlWord, sizeof a.control_word, &a.control_word);
  set(kContiguous, sizeof a.contiguous, &a.contiguous);
  return error;
}

cl_int set_compare_slot(const OpenClApi& api, cl_kernel kernel, uint32_t slot) {
  const cl_uint index = slot;
  return api.clSetKernelArg(kernel, kSlot, sizeof index, &index);
}

size_t compare_work_items(uint64_t words) {
  const uint64_t groups = std::min<uint64_t>(
      (std::max<uint64_t>(words, 1) + kCompareGroup - 1) / kCompareGroup, kMaxCompareGroups);
  return static_cast<size_t>(groups) * kCompareGroup;
}

}  // namespace vyre::opencl
