// Stand-alone reproducer of the same PoCL 3.1 miscompilation with no barrier
// after the never-taken return: a loop whose trip count is the same for the
// whole work-group takes its place (PoCL gives such a loop implicit barriers).
// Work-items that returned still perform the atomic below. No vyre code.
// Build and run: cc host_repro_loop.c -lOpenCL -o host_repro_loop && ./host_repro_loop
// Exit 0: correct; 1: the bug (cnt = 7 instead of 1); 2: setup.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>

// One work-group of 1x1x3 work-items, ids 1, 3 and 5. The first return and
// the store in the loop are never taken; work-items 3 and 5 take the second
// return and must not reach the atomic, so cnt ends as 1 and out[0] as 0.
// The bug is fragile to the form: with `% 2u` for `% max(2u, 1u)`, or with
// the bounds checks on n_cnt and n_out left out, PoCL gets it right (our
// lowering emits both forms; the record's README).
static const char* kKernel =
    "__kernel void k(__global uint* cnt, __global uint* out, uint n_cnt, uint n_out) {\n"
    "  barrier(CLK_GLOBAL_MEM_FENCE);\n"
    "  uint id = 1u + (uint)get_global_id(2) * 2u;\n"
    "  if (get_group_id(0) != 0u) return;\n"
    "  uint trips = 1u + (uint)get_group_id(2) % max(2u, 1u);\n"
    "  for (uint c = 0u; c < trips; ++c) {\n"
    "    if (c > 1000u) out[1] = 5u;\n"
    "  }\n"
    "  if (id >= 3u) return;\n"
    "  uint old = 0u;\n"
    "  if (0u < n_cnt) old = atomic_or(&cnt[0], id);\n"
    "  if (0u < n_out) out[0] = old;\n"
    "}\n";

int main(void) {
  cl_platform_id platform;
  cl_device_id device;
  cl_int err = clGetPlatformIDs(1, &platform, NULL);
  if (err == CL_SUCCESS) err = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL);
  if (err != CL_SUCCESS) return 2;
  cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  cl_command_queue queue = clCreateCommandQueue(ctx, device, 0, &err);
  cl_program program = clCreateProgramWithSource(ctx, 1, &kKernel, NULL, &err);
  if (err != CL_SUCCESS || clBuildProgram(program, 1, &device, "-cl-std=CL1.2", NULL, NULL)) {
    return 2;
  }
  cl_kernel kernel = clCreateKernel(program, "k", &err);
  cl_uint cnt = 0, out[2] = {0, 0};
  cl_mem cnt_buffer =
      clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof cnt, &cnt, &err);
  cl_mem out_buffer =
      clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof out, out, &err);
  clSetKernelArg(kernel, 0, sizeof cnt_buffer, &cnt_buffer);
  clSetKernelArg(kernel, 1, sizeof out_buffer, &out_buffer);
  const cl_uint n_cnt = 1, n_out = 2;
  clSetKernelArg(kernel, 2, sizeof n_cnt, &n_cnt);
  clSetKernelArg(kernel, 3, sizeof n_out, &n_out);
  const size_t global[3] = {1, 1, 3}, local[3] = {1, 1, 3};
  err = clEnqueueNDRangeKernel(queue, kernel, 3, NULL, global, local, 0, NULL, NULL);
  if (err == CL_SUCCESS) {
    err = clEnqueueReadBuffer(queue, cnt_buffer, CL_TRUE, 0, sizeof cnt, &cnt, 0, NULL, NULL);
  }
  if (err == CL_SUCCESS) {
    err = clEnqueueReadBuffer(queue, out_buffer, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL);
  }
  if (err != CL_SUCCESS) return 2;
  printf("cnt = %u, out[0] = %u (expected 1 and 0: work-items 3 and 5 returned)\n", cnt, out[0]);
  return cnt == 1 && out[0] == 0 ? 0 : 1;
}
