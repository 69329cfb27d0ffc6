// Lowered from a vyre 0.4.0 program (backends/opencl).
// Bit i moves to bit 31 - i (OpenCL C 1.2 has no builtin for it).
uint vyre_reverse_bits(uint x) {
  x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
  x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
  x = ((x >> 4) & 0x0F0F0F0Fu) | ((x & 0x0F0F0F0Fu) << 4);
  x = ((x >> 8) & 0x00FF00FFu) | ((x & 0x00FF00FFu) << 8);
  return (x >> 16) | (x << 16);
}
__kernel __attribute__((reqd_work_group_size(1, 2, 1)))
void vyre_main(
    __global const uint2* b0,  // in1: read_only u64
    __global const uint* b1,  // in0: read_only u32
    uint n0,  // element count of b0
    uint n1,  // element count of b1
    __global uint* vyre_control  // word 0: a loop iteration budget ran out
) {
  uint vyre_iterations = 0u;
  uint v0_gid = ((uint)get_global_id(1));
  if (((uint)get_group_id(0)) != 0u) {
    return;
  }
  const uint t0 = (2u == 0u ? 0u : n0 % max(2u, 1u));
  const uint t1 = 1u + t0;
  {
    const uint t2 = 0u;
    const uint t3 = t1;
    uint c4 = t2;
    for (; c4 < t3; ++c4) {
      if (++vyre_iterations > 67108864u) { vyre_control[0] = 1u; break; }
      const uint v1_v8 = c4;
      barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    }
  }
  const uint t5 = v0_gid * 3u;
  uint t6 = 0u;
  if (t5 < n1) t6 = b1[t5];
  const uint t7 = (4u == 0u ? 0u : t6 % max(4u, 1u));
  {
    const uint t8 = 0u;
    const uint t9 = t7;
    uint c10 = t8;
    for (; c10 < t9; ++c10) {
      if (++vyre_iterations > 67108864u) { vyre_control[0] = 1u; break; }
      const uint v2_v9 = c10;
    }
  }
}
