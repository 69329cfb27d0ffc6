// Stand-alone reproducer of a PoCL 3.1 miscompilation, using no vyre code:
// the record's kernel (repro.cl, our lowering of repro.vyre, verbatim) sets
// its loop-budget flag, vyre_control[0], though no loop runs more than 5
// times. Each loop counts its trips in `vyre_iterations` and sets the flag
// only past 67108864; the kernel takes tens of microseconds, so no loop ran
// that long: the flag's store ran without its condition.
// Build and run: cc host_repro.c -lOpenCL -o host_repro && ./host_repro
// Exit 0: correct; 1: the bug (the flag set); 2: setup failure.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <time.h>

static const char* kKernel =
    "// Lowered from a vyre 0.4.0 program (backends/opencl).\n"
    "// Bit i moves to bit 31 - i (OpenCL C 1.2 has no builtin for it).\n"
    "uint vyre_reverse_bits(uint x) {\n"
    "  x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);\n"
    "  x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);\n"
    "  x = ((x >> 4) & 0x0F0F0F0Fu) | ((x & 0x0F0F0F0Fu) << 4);\n"
    "  x = ((x >> 8) & 0x00FF00FFu) | ((x & 0x00FF00FFu) << 8);\n"
    "  return (x >> 16) | (x << 16);\n"
    "}\n"
    "__kernel __attribute__((reqd_work_group_size(1, 2, 1)))\n"
    "void vyre_main(\n"
    "    __global const uint2* b0,  // in1: read_only u64\n"
    "    __global const uint* b1,  // in0: read_only u32\n"
    "    uint n0,  // element count of b0\n"
    "    uint n1,  // element count of b1\n"
    "    __global uint* vyre_control  // word 0: a loop iteration budget ran out\n"
    ") {\n"
    "  uint vyre_iterations = 0u;\n"
    "  uint v0_gid = ((uint)get_global_id(1));\n"
    "  if (((uint)get_group_id(0)) != 0u) {\n"
    "    return;\n"
    "  }\n"
    "  const uint t0 = (2u == 0u ? 0u : n0 % max(2u, 1u));\n"
    "  const uint t1 = 1u + t0;\n"
    "  {\n"
    "    const uint t2 = 0u;\n"
    "    const uint t3 = t1;\n"
    "    uint c4 = t2;\n"
    "    for (; c4 < t3; ++c4) {\n"
    "      if (++vyre_iterations > 67108864u) { vyre_control[0] = 1u; break; }\n"
    "      const uint v1_v8 = c4;\n"
    "      barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);\n"
    "    }\n"
    "  }\n"
    "  const uint t5 = v0_gid * 3u;\n"
    "  uint t6 = 0u;\n"
    "  if (t5 < n1) t6 = b1[t5];\n"
    "  const uint t7 = (4u == 0u ? 0u : t6 % max(4u, 1u));\n"
    "  {\n"
    "    const uint t8 = 0u;\n"
    "    const uint t9 = t7;\n"
    "    uint c10 = t8;\n"
    "    for (; c10 < t9; ++c10) {\n"
    "      if (++vyre_iterations > 67108864u) { vyre_control[0] = 1u; break; }\n"
    "      const uint v2_v9 = c10;\n"
    "    }\n"
    "  }\n"
    "}\n";

// repro.vyre's in0 (b1); in1 (b0) is 197 zero u64s. Two work-groups of 2:
// work-items 0 to 3 loop 2 times in the barrier loop (n0 % 2 = 1), then 3, 1,
// 2 and 0 times (b1[9] is past n1 and reads 0).
static const cl_uint kB1[9] = {0xFFFFFFDFu, 0xFFFFFFE1u, 0xBCFEE3AFu, 37u,        0xA4FDA46Eu,
                               10u,         2u,          2u,          0xD0874BA1u};

// Builds the kernel with `options` and runs it 3 times; prints the flag and
// the time of each run. Returns 0 when the flag stays 0, 1 when it is set, 2
// on a setup failure.
static int run(const char* options) {
  cl_platform_id platform;
  cl_device_id device;
  cl_int err = clGetPlatformIDs(1, &platform, NULL);
  if (err == CL_SUCCESS) err = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL);
  if (err != CL_SUCCESS) return 2;
  cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  cl_command_queue queue = clCreateCommandQueue(ctx, device, 0, &err);
  cl_program program = clCreateProgramWithSource(ctx, 1, &kKernel, NULL, &err);
  if (err != CL_SUCCESS || clBuildProgram(program, 1, &device, options, NULL, NULL)) return 2;
  cl_kernel kernel = clCreateKernel(program, "vyre_main", &err);
  static cl_uint b0[2 * 197];
  const cl_uint n0 = 197, n1 = 9;
  cl_mem b0_buffer =
      clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof b0, b0, &err);
  cl_mem b1_buffer =
      clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof kB1, (void*)kB1, &err);
  cl_mem control_buffer = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof(cl_uint), NULL, &err);
  if (err != CL_SUCCESS) return 2;
  err = clSetKernelArg(kernel, 0, sizeof b0_buffer, &b0_buffer);
  if (err == CL_SUCCESS) err = clSetKernelArg(kernel, 1, sizeof b1_buffer, &b1_buffer);
  if (err == CL_SUCCESS) err = clSetKernelArg(kernel, 2, sizeof n0, &n0);
  if (err == CL_SUCCESS) err = clSetKernelArg(kernel, 3, sizeof n1, &n1);
  if (err == CL_SUCCESS) err = clSetKernelArg(kernel, 4, sizeof control_buffer, &control_buffer);
  if (err != CL_SUCCESS) return 2;
  const size_t global[3] = {1, 4, 1}, local[3] = {1, 2, 1};
  int wrong = 0;
  for (int run = 0; run < 3; ++run) {
    cl_uint control = 0;
    err = clEnqueueWriteBuffer(queue, control_buffer, CL_TRUE, 0, sizeof control, &control, 0, NULL,
                               NULL);
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    if (err == CL_SUCCESS) {
      err = clEnqueueNDRangeKernel(queue, kernel, 3, NULL, global, local, 0, NULL, NULL);
    }
    if (err == CL_SUCCESS) {
      err = clEnqueueReadBuffer(queue, control_buffer, CL_TRUE, 0, sizeof control, &control, 0,
                                NULL, NULL);
    }
    clock_gettime(CLOCK_MONOTONIC, &end);
    if (err != CL_SUCCESS) return 2;
    const double ms = (end.tv_sec - start.tv_sec) * 1e3 + (end.tv_nsec - start.tv_nsec) / 1e6;
    printf("%-18s run %d: vyre_control[0] = %u (expected 0), %.3f ms\n", options, run, control, ms);
    wrong |= control != 0;
  }
  return wrong;
}

int main(void) {
  const int plain = run("-cl-std=CL1.2 -w");  // the backend's options
  const int opt_disable = run("-cl-std=CL1.2 -w -cl-opt-disable");
  if (plain == 2 || opt_disable == 2) {
    puts("setup failed (no OpenCL device?)");
    return 2;
  }
  return plain || opt_disable;
}
