// Stand-alone reproducer of a PoCL 3.1 miscompilation, using no vyre code:
// in a loop with a never-taken return before a barrier, a store guarded by a
// comparison with a kernel argument runs without its guard.
// Build and run: cc host_repro.c -lOpenCL -o host_repro && ./host_repro
// Exit 0: correct; 1: the bug (a guarded store ran); 2: setup failure.
#define _DEFAULT_SOURCE
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

// Work-item l of a group of 4 runs the loop l times (0 to 3): the return
// needs a fifth iteration, so it is never taken, and n = 4 is never greater
// than IDX (4 or 0x80000000), so `out[IDX]` is never written.
static const char* kKernel =
    "__kernel void k(__global uint* out, __global uint* cnt, uint n) {\n"
    "  uint iterations = 0u;\n"
    "  for (uint i = 0u; i < get_local_id(0); ++i) {\n"
    "    if (++iterations > 4u) return;\n"
    "    atomic_inc(cnt);\n"
    "    if (IDX < n) out[IDX] = 0u;\n"
    "  }\n"
    "  barrier(CLK_GLOBAL_MEM_FENCE);\n"
    "}\n";

enum { kWords = 8, kN = 4, kGroups = 2, kGroupSize = 4 };
// out[0x80000000] is 8 GiB past out: out lies at the start of a reservation
// 8 GiB and two pages long, all inaccessible but out's page, so that store
// faults whatever else the process has mapped.
static const size_t kPage = 4096;
static const uint64_t kFarOffset = 0x80000000ull * 4u;

// What the child saw, in memory shared with the parent.
struct Outcome {
  cl_uint out[kWords];
  cl_uint cnt;
  uintptr_t out_address;    // where out lies in the child
  uintptr_t fault_address;  // the address of a SIGSEGV, 0 without one
};
static struct Outcome* outcome;

// Records the faulting address; SA_RESETHAND then lets the store fault again
// with the default action, so the parent sees the child killed by SIGSEGV.
static void on_segv(int signal_number, siginfo_t* info, void* context) {
  (void)signal_number;
  (void)context;
  outcome->fault_address = (uintptr_t)info->si_addr;
}

// Builds the kernel with IDX = `idx` and runs 2 groups of 4 work-items on
// out = eight 7s, cnt = 0, n = 4; fills *outcome. Returns 0, or 2 on a setup
// failure.
static int run_kernel(const char* idx) {
  cl_platform_id platform;
  cl_device_id device;
  cl_int err = clGetPlatformIDs(1, &platform, NULL);
  if (err == CL_SUCCESS) err = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL);
  if (err != CL_SUCCESS) return 2;
  cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  cl_command_queue queue = clCreateCommandQueue(ctx, device, 0, &err);
  cl_program program = clCreateProgramWithSource(ctx, 1, &kKernel, NULL, &err);
  char options[64];
  snprintf(options, sizeof options, "-cl-std=CL1.2 -DIDX=%s", idx);
  if (err != CL_SUCCESS || clBuildProgram(program, 1, &device, options, NULL, NULL)) return 2;
  cl_kernel kernel = clCreateKernel(program, "k", &err);
  if (err != CL_SUCCESS) return 2;

  const size_t reserved = kPage + kFarOffset + kPage;
  cl_uint* out =
      mmap(NULL, reserved, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (out == MAP_FAILED || mprotect(out, kPage, PROT_READ | PROT_WRITE) != 0) return 2;
  for (int i = 0; i < kWords; ++i) out[i] = 7;
  outcome->out_address = (uintptr_t)out;
  cl_mem out_buffer = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR,
                                     kWords * sizeof(cl_uint), out, &err);
  const cl_uint zero = 0, n = kN;
  cl_mem cnt_buffer = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof zero,
                                     (void*)&zero, &err);
  if (err != CL_SUCCESS) return 2;
  err = clSetKernelArg(kernel, 0, sizeof out_buffer, &out_buffer);
  if (err == CL_SUCCESS) err = clSetKernelArg(kernel, 1, sizeof cnt_buffer, &cnt_buffer);
  if (err == CL_SUCCESS) err = clSetKernelArg(kernel, 2, sizeof n, &n);
  const size_t global = kGroups * kGroupSize, local = kGroupSize;
  if (err == CL_SUCCESS) {
    err = clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, 0, NULL, NULL);
  }
  if (err == CL_SUCCESS) {
    err = clEnqueueReadBuffer(queue, out_buffer, CL_TRUE, 0, sizeof outcome->out, outcome->out, 0,
                              NULL, NULL);
  }
  if (err == CL_SUCCESS) {
    err = clEnqueueReadBuffer(queue, cnt_buffer, CL_TRUE, 0, sizeof outcome->cnt, &outcome->cnt, 0,
                              NULL, NULL);
  }
  return err == CL_SUCCESS ? 0 : 2;
}

// Runs the kernel with IDX = `idx` in a child process and reports; returns
// 0 when correct, 1 when the guarded store ran, 2 on a setup failure.
static int check(const char* idx) {
  memset(outcome, 0, sizeof *outcome);
  fflush(stdout);
  const pid_t child = fork();
  if (child < 0) return 2;
  if (child == 0) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_segv;
    action.sa_flags = SA_SIGINFO | SA_RESETHAND;
    sigaction(SIGSEGV, &action, NULL);
    _exit(run_kernel(idx));
  }
  int status = 0;
  if (waitpid(child, &status, 0) != child) return 2;
  printf("IDX = %s, n = %u: ", idx, kN);
  if (WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV) {
    if (outcome->fault_address - outcome->out_address == kFarOffset) {
      printf("child killed by SIGSEGV at out + 0x%llx (&out[0x80000000]: the guarded store ran)\n",
             (unsigned long long)kFarOffset);
    } else {
      printf("child killed by SIGSEGV at address %#llx (out is at %#llx)\n",
             (unsigned long long)outcome->fault_address, (unsigned long long)outcome->out_address);
    }
    return 1;
  }
  if (WIFSIGNALED(status)) {
    printf("child killed by signal %d (%s)\n", WTERMSIG(status), strsignal(WTERMSIG(status)));
    return 1;
  }
  if (WEXITSTATUS(status) != 0) {
    printf("setup failed (exit %d; no OpenCL device?)\n", WEXITSTATUS(status));
    return 2;
  }
  int wrong = 0;
  for (int i = 0; i < kWords; ++i) wrong |= outcome->out[i] != 7;
  // Each group runs the loop 0 + 1 + 2 + 3 = 6 times.
  const cl_uint expected_cnt = kGroups * 6;
  printf("out[4] = %u, cnt = %u (expected 7 and %u)%s\n", outcome->out[4], outcome->cnt,
         expected_cnt, wrong ? ": the guarded store ran" : "");
  return wrong || outcome->cnt != expected_cnt ? 1 : 0;
}

int main(void) {
  outcome = mmap(NULL, sizeof *outcome, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (outcome == MAP_FAILED) return 2;
  const int in_bounds = check("4u");
  const int far = check("0x80000000u");
  if (in_bounds == 2 || far == 2) return 2;
  return in_bounds || far ? 1 : 0;
}
