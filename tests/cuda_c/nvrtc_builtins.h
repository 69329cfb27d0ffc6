// What NVRTC declares before every CUDA C source, as far as the CUDA C
// lowering (backends/cuda/cuda_c_dialect.cc) may use it, for checking emitted
// kernels with clang as a CUDA device compiler where no CUDA toolkit is
// installed (tests/cuda_c_syntax_test.cc, clang -nocudainc). Declarations
// only, with the signatures of CUDA's own headers (vector_types.h,
// device_atomic_functions.h, device_functions.h, math_functions.h), the
// int overloads included, so that a wrong argument type, an ambiguous call
// or a builtin NVRTC lacks fails here as it would there. A name missing here
// that NVRTC has makes the check fail, never pass: add it with CUDA's exact
// signature.
#pragma once

#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __shared__ __attribute__((shared))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))

// vector_types.h: the built-in vector types, plain aggregates without
// operators or swizzles; uint2 and uint4 are 8- and 16-byte aligned.
struct uint3 {
  unsigned int x, y, z;
};
struct dim3 {
  unsigned int x, y, z;
};
struct __attribute__((aligned(8))) uint2 {
  unsigned int x, y;
};
struct __attribute__((aligned(16))) uint4 {
  unsigned int x, y, z, w;
};

// The built-in index variables (read-only).
extern const __device__ uint3 threadIdx;
extern const __device__ uint3 blockIdx;
extern const __device__ dim3 blockDim;
extern const __device__ dim3 gridDim;

// vector_functions.h
__device__ uint2 make_uint2(unsigned int x, unsigned int y);
__device__ uint4 make_uint4(unsigned int x, unsigned int y, unsigned int z, unsigned int w);

// Synchronisation.
__device__ void __syncthreads();
__device__ void __threadfence_block();
__device__ void __threadfence();

// device_atomic_functions.h: the int and unsigned int overloads.
__device__ int atomicAdd(int* address, int val);
__device__ unsigned int atomicAdd(unsigned int* address, unsigned int val);
__device__ int atomicOr(int* address, int val);
__device__ unsigned int atomicOr(unsigned int* address, unsigned int val);
__device__ int atomicAnd(int* address, int val);
__device__ unsigned int atomicAnd(unsigned int* address, unsigned int val);
__device__ int atomicXor(int* address, int val);
__device__ unsigned int atomicXor(unsigned int* address, unsigned int val);
__device__ int atomicMin(int* address, int val);
__device__ unsigned int atomicMin(unsigned int* address, unsigned int val);
__device__ int atomicMax(int* address, int val);
__device__ unsigned int atomicMax(unsigned int* address, unsigned int val);
__device__ int atomicExch(int* address, int val);
__device__ unsigned int atomicExch(unsigned int* address, unsigned int val);
__device__ int atomicCAS(int* address, int compare, int val);
__device__ unsigned int atomicCAS(unsigned int* address, unsigned int compare, unsigned int val);

// device_functions.h: the integer intrinsics.
__device__ int __popc(unsigned int x);
__device__ int __clz(int x);
__device__ int __ffs(int x);
__device__ unsigned int __brev(unsigned int x);

// math_functions.h: the integer max overloads.
__device__ int max(int a, int b);
__device__ unsigned int max(unsigned int a, unsigned int b);
__device__ unsigned int max(int a, unsigned int b);
__device__ unsigned int max(unsigned int a, int b);
__device__ long long max(long long a, long long b);
__device__ unsigned long long max(unsigned long long a, unsigned long long b);
