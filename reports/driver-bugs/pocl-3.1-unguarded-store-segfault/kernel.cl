// Lowered from a vyre 0.4.0 program (backends/opencl).
// Bit i moves to bit 31 - i (OpenCL C 1.2 has no builtin for it).
uint vyre_reverse_bits(uint x) {
  x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
  x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
  x = ((x >> 4) & 0x0F0F0F0Fu) | ((x & 0x0F0F0F0Fu) << 4);
  x = ((x >> 8) & 0x00FF00FFu) | ((x & 0x00FF00FFu) << 8);
  return (x >> 16) | (x << 16);
}
__kernel __attribute__((reqd_work_group_size(4, 1, 1)))
void vyre_main(
    __global uint* b0,  // cnt0: read_write u32
    __global const uint* b1,  // in2: read_only u32
    __global uint* b2,  // out0: read_write u32
    __global const uint* b3,  // in3: read_only u32
    __global const uint* b4,  // in1: read_only u32
    __global uint* b5,  // cnt1: read_write u32
    __global uint* b6,  // out1: read_write u32
    __constant uint* b7,  // raw: uniform bytes
    __global const uint* b8,  // in0: read_only u32
    uint n0,  // element count of b0
    uint n1,  // element count of b1
    uint n2,  // element count of b2
    uint n3,  // element count of b3
    uint n4,  // element count of b4
    uint n5,  // element count of b5
    uint n6,  // element count of b6
    uint n7,  // element count of b7
    uint n8,  // element count of b8
    __global uint* vyre_control  // word 0: a loop iteration budget ran out
) {
  uint vyre_iterations = 0u;
  uint v0_gid = ((uint)get_global_id(0));
  uint v1_lid = ((uint)get_local_id(0));
  uint v2_v0 = n7;
  const uint t0 = (4294967263u == n8 ? 1u : 0u);
  if (t0 != 0u) {
    const uint t1 = 51u * 2u;
    uint v3_v11 = t1;
    v3_v11 = v2_v0;
  } else {
    const uint t2 = (10u == 0u ? 0u : v1_lid % max(10u, 1u));
    uint t3 = 0u;
    if (t2 < n4) t3 = b4[t2];
    const uint t4 = (t3 < 3583095106u ? 1u : 0u);
    const uint t5 = (4294967265u == n1 ? 1u : 0u);
    const uint t6 = (2147483648u < t5 ? 1u : 0u);
    const uint t7 = v0_gid * 2u;
    const uint t8 = t7 + 1u;
    const uint t9 = v0_gid << (1u & 31u);
    const uint t10 = t9 | 1u;
    const uint t11 = ((((uint)get_group_id(0)) != 0u) ? t8 : t10);
    uint t12 = 0u;
    if (t11 < n2) t12 = b2[t11];
    const uint t13 = ((t4 != 0u) ? t6 : t12);
    const uint t14 = (3u == 0u ? 0u : t13 % max(3u, 1u));
    const uint t15 = (7u == 0u ? 0u : v1_lid % max(7u, 1u));
    {
      const uint t16 = t14;
      const uint t17 = t15;
      for (uint c18 = t16; c18 < t17; ++c18) {
        if (++vyre_iterations > 67108864u) { vyre_control[0] = 1u; return; }
        const uint v4_v12 = c18;
        const uint t19 = (4u == 0u ? 0u : v0_gid % max(4u, 1u));
        uint t20 = 0u;
        if (t19 < n5) t20 = atomic_or(&b5[t19], v2_v0);
        const uint t21 = (false ? t20 : 0u);
        const uint t22 = (t21 != 0u && v4_v12 != 0u ? 1u : 0u);
        const uint t23 = t22 | 2147483648u;
        uint t24 = 0u;
        if (0u < n1) t24 = b1[0u];
        const uint t25 = vyre_reverse_bits(t24);
        const uint t26 = (t25 == 0u ? 32u : 31u - clz(t25 & (0u - t25)));
        const uint t27 = v2_v0 | n1;
        const uint t28 = (n7 != t27 ? 1u : 0u);
        const uint t29 = t28 & 3u;
        uint t30 = 0u;
        if (t29 < n5) t30 = atomic_or(&b5[t29], v1_lid);
        const uint t31 = (t30 < 0u ? 1u : 0u);
        const uint t32 = ((t31 != 0u) ? t30 : 0u);
        const uint t33 = (t26 == t32 ? 1u : 0u);
        if (t23 < n0) b0[t23] = t33;
        const uint t34 = v0_gid << (1u & 31u);
        const uint t35 = t34 | 0u;
        const uint t36 = v0_gid + 0u;
        uint t37 = 0u;
        if (t36 < n6) t37 = b6[t36];
        if (t35 < n2) b2[t35] = t37;
        uint t38 = 0u;
        if (10u < n6) t38 = b6[10u];
        const uint t39 = ((43u != 0u) ? t38 : n6);
        uint v5_v13 = t39;
        const uint t40 = (11u == 0u ? 0u : 2147483648u % max(11u, 1u));
        uint t41 = 0u;
        if (t40 < n3) t41 = b3[t40];
        if (4294967295u < n0) b0[4294967295u] = t41;
      }
    }
  }
  const uint t42 = v0_gid + 0u;
  uint t43 = 0u;
  if (t42 < n6) t43 = b6[t42];
  const uint t44 = t43 & 3u;
  const uint t45 = (11u == 0u ? 0u : 2147483647u % max(11u, 1u));
  uint t46 = 0u;
  if (t45 < n3) t46 = b3[t45];
  uint t47 = 0u;
  if (t44 < n0) t47 = atomic_add(&b0[t44], t46);
  const uint t48 = (false ? t47 : 0u);
  const uint t49 = popcount(v0_gid);
  const uint t50 = t49 & 3u;
  uint t51 = 0u;
  if (t50 < n5) t51 = atomic_or(&b5[t50], v1_lid);
  const uint t52 = t51 * 0u;
  const uint t53 = (t48 != t52 ? 1u : 0u);
  if (t53 != 0u) {
    const uint t54 = (2u != 0u && v2_v0 != 0u ? 1u : 0u);
    uint t55 = 0u;
    if (t54 < n8) t55 = b8[t54];
    v2_v0 = t55;
    uint t56 = 0u;
    if (0u < n1) t56 = b1[0u];
    v2_v0 = t56;
  }
  if (1977167731u != 0u) {
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  } else {
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  }
  const uint t57 = (2u == 0u ? 0u : n2 % max(2u, 1u));
  const uint t58 = 1u + t57;
  {
    const uint t59 = 0u;
    const uint t60 = t58;
    for (uint c61 = t59; c61 < t60; ++c61) {
      if (++vyre_iterations > 67108864u) { vyre_control[0] = 1u; return; }
      const uint v6_v14 = c61;
      barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    }
  }
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
}
