// Lowered from a vyre 0.4.0 program (backends/cuda).
extern "C" __global__ void __launch_bounds__(64) vyre_main(
    const unsigned int* b0,  // values: read_only u32
    unsigned int* b1,  // bins: read_write u32
    unsigned int n0,  // element count of b0
    unsigned int n1  // element count of b1
) {
  unsigned int v0_i = (blockIdx.x * blockDim.x + threadIdx.x);
  const unsigned int t0 = (v0_i < n0 ? 1u : 0u);
  if (t0 != 0u) {
    unsigned int t1 = 0u;
    if (v0_i < n0) t1 = b0[v0_i];
    const unsigned int t2 = t1 & 15u;
    unsigned int t3 = 0u;
    if (t2 < n1) t3 = atomicAdd(&b1[t2], 1u);
    unsigned int v1_previous = t3;
  }
}
