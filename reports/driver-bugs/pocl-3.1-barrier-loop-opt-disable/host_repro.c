// Stand-alone reproducer of a PoCL 3.1 miscompilation, using no vyre code:
// built with -cl-opt-disable, a loop that holds a barrier and a break and
// runs no iteration makes a later private update come out wrong.
// Build and run: cc host_repro.c -lOpenCL -o host_repro && ./host_repro
// Exit 0: correct; 1: the bug (out[0] is 0, not 1); 2: setup.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>

// One work-group of 1x3x1 work-items. The loop runs no iteration (its
// break is never taken and no work-item reaches its barrier), so th is
// 0 ^ 1 = 1 and work-item 0 stores it.
static const char* kKernel =
    "__kernel void k(__global uint* out) {\n"
    "  uint steps = 0u;\n"
    "  uint th = 0u;\n"
    "  for (uint i = 0u; i < 0u; ++i) {\n"
    "    if (++steps > 1000u) break;\n"
    "    barrier(CLK_GLOBAL_MEM_FENCE);\n"
    "  }\n"
    "  th = th ^ 1u;\n"
    "  if (get_global_id(1) == 0u) out[0] = th;\n"
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
  if (err != CL_SUCCESS ||
      clBuildProgram(program, 1, &device, "-cl-std=CL1.2 -cl-opt-disable", NULL, NULL)) {
    return 2;
  }
  cl_kernel kernel = clCreateKernel(program, "k", &err);
  cl_uint out[8] = {0};
  cl_mem buffer =
      clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof out, out, &err);
  clSetKernelArg(kernel, 0, sizeof buffer, &buffer);
  const size_t global[3] = {1, 3, 1}, local[3] = {1, 3, 1};
  err = clEnqueueNDRangeKernel(queue, kernel, 3, NULL, global, local, 0, NULL, NULL);
  if (err == CL_SUCCESS) {
    err = clEnqueueReadBuffer(queue, buffer, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL);
  }
  if (err != CL_SUCCESS) return 2;
  printf("out[0] = %u (expected 1: th = 0 ^ 1)\n", out[0]);
  return out[0] == 1 ? 0 : 1;
}
