// Stand-alone reproducer of a PoCL 3.1 miscompilation, using no vyre code:
// work-items that returned after a barrier still perform a later store.
// Build and run: cc host_repro.c -lOpenCL -o host_repro && ./host_repro
// Exit 0: correct; 1: the bug (out[10] and out[11] overwritten); 2: setup.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>

// n0 is never 0, so the first return is never taken. Work-items 10 and 11
// take the second return and must not reach the stores below it.
static const char* kKernel =
    "__kernel void k(__global uint* out, uint n0, uint n1) {\n"
    "  uint gid = get_global_id(0);\n"
    "  if (n0 == 0u) return;\n"
    "  barrier(CLK_GLOBAL_MEM_FENCE);\n"
    "  if (gid >= 10u) return;\n"
    "  if (n1 > 3u) out[0] = 1u;\n"
    "  if (gid < n0) out[gid] = 0u;\n"
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
  cl_uint out[12];
  for (int i = 0; i < 12; ++i) out[i] = 7;
  cl_mem buffer =
      clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof out, out, &err);
  const cl_uint n0 = 12, n1 = 2;
  clSetKernelArg(kernel, 0, sizeof buffer, &buffer);
  clSetKernelArg(kernel, 1, sizeof n0, &n0);
  clSetKernelArg(kernel, 2, sizeof n1, &n1);
  const size_t global = 12, local = 4;
  err = clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, 0, NULL, NULL);
  if (err == CL_SUCCESS) {
    err = clEnqueueReadBuffer(queue, buffer, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL);
  }
  if (err != CL_SUCCESS) return 2;
  printf("out[10] = %u, out[11] = %u (expected 7 and 7: work-items 10 and 11 returned)\n", out[10],
         out[11]);
  return out[10] == 7 && out[11] == 7 ? 0 : 1;
}
