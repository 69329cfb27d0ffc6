// Stand-alone reproducer of a PoCL 3.1 miscompilation, using no vyre code:
// with a work-group-uniform early return before a barrier, the first
// work-item runs the code before the return twice.
// Build and run: cc host_repro.c -lOpenCL -o host_repro && ./host_repro
// Exit 0: correct; 1: the bug (out[0] incremented twice); 2: setup.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>

// One work-group of 1x2x2 work-items, each adding 1 to its own element. The
// group id is 0, so the return is never taken.
static const char* kKernel =
    "__kernel void k(__global uint* out) {\n"
    "  uint i = get_global_id(1) + get_global_id(2) * 3u;\n"
    "  out[i] = out[i] + 1u;\n"
    "  if (get_group_id(1) != 0u) return;\n"
    "  barrier(CLK_GLOBAL_MEM_FENCE);\n"
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
  cl_uint out[8] = {0};
  cl_mem buffer =
      clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof out, out, &err);
  clSetKernelArg(kernel, 0, sizeof buffer, &buffer);
  const size_t global[3] = {1, 2, 2}, local[3] = {1, 2, 2};
  err = clEnqueueNDRangeKernel(queue, kernel, 3, NULL, global, local, 0, NULL, NULL);
  if (err == CL_SUCCESS) {
    err = clEnqueueReadBuffer(queue, buffer, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL);
  }
  if (err != CL_SUCCESS) return 2;
  printf("out = %u %u %u %u %u (expected 1 1 0 1 1: each of the four work-items adds 1 once)\n",
         out[0], out[1], out[2], out[3], out[4]);
  return out[0] == 1 && out[1] == 1 && out[2] == 0 && out[3] == 1 && out[4] == 1 ? 0 : 1;
}
