// The comparison kernel of a batch (batch_run.cc): after each run it saves
// the run's packed outputs into the run's slot, compares them with run 0's
// (setting the slot's flag on a difference), copies the run's control word
// next to the flags, and writes the pristine bytes back for the next run in
// the same buffer. Its source, its arguments in order, and its launch size.
#pragma once

#include <cstddef>
#include <cstdint>

#include "backends/opencl/opencl_api.h"

namespace vyre::opencl {

/// The compare kernel's OpenCL C, built and cached like a program's kernel.
extern const char* const kCompareKernelSource;

/// Work-items per workgroup of a comparison.
inline constexpr size_t kCompareGroup = 64;

/// The arguments a batch sets once per kernel object: every one but the slot.
struct CompareArguments {
  cl_mem work;      ///< The packed outputs the run wrote.
  cl_mem pristine;  ///< Their initial bytes, written back into `work`.
  cl_mem first;     ///< Run 0's outputs (slot 0).
  cl_mem others;    ///< The other slots, `stride` words apart.
  cl_mem table;     ///< (offset, words, last-word mask, judged) per output.
  cl_uint entries;  ///< Rows of `table`.
  cl_ulong stride;
  cl_mem status;  ///< A flag per slot, then a control word per slot.
  cl_uint slots;
  cl_uint control;        ///< Whether the packed outputs hold a control word...
  cl_ulong control_word;  ///< ...at this word.
  /// 1 on a CPU device: each work-item walks one block of words (its
  /// caches); 0 elsewhere: every global-size-th word (coalesced).
  cl_uint contiguous;
};

/// Sets `arguments` on `kernel` (an object of kCompareKernelSource's
/// kernel); the first error, or CL_SUCCESS.
cl_int set_compare_arguments(const OpenClApi& api, cl_kernel kernel,
                             const CompareArguments& arguments);

/// Sets the slot the next comparison saves the run into (0: run 0).
cl_int set_compare_slot(const OpenClApi& api, cl_kernel kernel, uint32_t slot);

/// Work-items of a comparison of `words` words: whole groups of
/// kCompareGroup, at most 1024 groups; the kernel's grid-stride loop covers
/// any length.
size_t compare_work_items(uint64_t words);

}  // namespace vyre::opencl
