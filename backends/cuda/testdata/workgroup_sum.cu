// Lowered from a vyre 0.4.0 program (backends/cuda).
extern "C" __global__ void __launch_bounds__(64) vyre_main(
    const unsigned int* b0,  // input: read_only u32
    unsigned int* b1,  // sums: read_write u32
    unsigned int n0,  // element count of b0
    unsigned int n1,  // element count of b1
    unsigned int* vyre_control  // word 0: a loop iteration budget ran out
) {
  __shared__ unsigned int w0[64];  // tile
  {  // Workgroup memory starts at zero (S5).
    const unsigned int vyre_local_index = (threadIdx.z * 64u + threadIdx.y * 64u + threadIdx.x);
    for (unsigned int i = vyre_local_index; i < 64u; i += 64u) w0[i] = 0u;
  }
  __syncthreads();
  unsigned int vyre_iterations = 0u;
  unsigned int v0_lid = threadIdx.x;
  unsigned int v1_gid = (blockIdx.x * blockDim.x + threadIdx.x);
  const unsigned int t0 = (v1_gid < n0 ? 1u : 0u);
  if (t0 != 0u) {
    unsigned int t1 = 0u;
    if (v1_gid < n0) t1 = b0[v1_gid];
    if (v0_lid < 64u) w0[v0_lid] = t1;
  }
  __syncthreads();
  {
    const unsigned int t2 = 0u;
    const unsigned int t3 = 6u;
    unsigned int c4 = t2;
    for (; c4 < t3; ++c4) {
      if (++vyre_iterations > 67108864u) { vyre_control[0] = 1u; break; }
      const unsigned int v2_step = c4;
      const unsigned int t5 = 32u >> (v2_step & 31u);
      unsigned int v3_stride = t5;
      const unsigned int t6 = (v0_lid < v3_stride ? 1u : 0u);
      if (t6 != 0u) {
        unsigned int t7 = 0u;
        if (v0_lid < 64u) t7 = w0[v0_lid];
        const unsigned int t8 = v0_lid + v3_stride;
        unsigned int t9 = 0u;
        if (t8 < 64u) t9 = w0[t8];
        const unsigned int t10 = t7 + t9;
        if (v0_lid < 64u) w0[v0_lid] = t10;
      }
      __syncthreads();
    }
  }
  unsigned int v4_group = blockIdx.x;
  const unsigned int t11 = (v0_lid == 0u ? 1u : 0u);
  const unsigned int t12 = (v4_group < n1 ? 1u : 0u);
  const unsigned int t13 = (t11 != 0u && t12 != 0u ? 1u : 0u);
  if (t13 != 0u) {
    unsigned int t14 = 0u;
    if (0u < 64u) t14 = w0[0u];
    if (v4_group < n1) b1[v4_group] = t14;
  }
}
