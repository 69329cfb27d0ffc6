#version 450
layout(local_size_x = 3, local_size_y = 1, local_size_z = 1) in;

layout(set = 0, binding = 0, std430) coherent buffer B0
{
    uint e[];
} b0;

layout(set = 0, binding = 1, std430) coherent buffer B1
{
    uint e[];
} b1;

layout(set = 0, binding = 2, std430) coherent buffer VyreControl
{
    uint budget_exhausted;
    uint loop_cut_short;
} vyre_control;

layout(push_constant, std430) uniform VyreCounts
{
    uint n0;
    uint n1;
} vyre_counts;

uint atomic_compare_exchange_b0(uint i, uint expected, uint v)
{
    if (i >= vyre_counts.n0)
    {
        return 0u;
    }
    uint _48 = atomicCompSwap(b0.e[i], expected, v);
    return _48;
}

uint load_b1(uint i)
{
    if (i >= vyre_counts.n1)
    {
        return 0u;
    }
    return b1.e[i];
}

void store_b1(uint i, uint v)
{
    if (i < vyre_counts.n1)
    {
        b1.e[i] = v;
    }
}

void main()
{
    uint vyre_iterations = 0u;
    uint v0_lid = gl_LocalInvocationID.x;
    uint t1 = gl_WorkGroupID.x;
    uint c2 = 0u;
    for (; c2 < t1; c2++)
    {
        uint _98 = vyre_iterations;
        uint _99 = _98 + uint(1);
        vyre_iterations = _99;
        if (_99 > 67108864u)
        {
            vyre_control.budget_exhausted = 1u;
            return;
        }
        uint v1_v6 = c2;
    }
    if (c2 < t1)
    {
        vyre_control.loop_cut_short = 1u;
    }
    uint v2_done = 0u;
    uint c5 = 0u;
    for (; c5 < 2u; c5++)
    {
        uint _129 = vyre_iterations;
        uint _130 = _129 + uint(1);
        vyre_iterations = _130;
        if (_130 > 67108864u)
        {
            vyre_control.budget_exhausted = 1u;
            return;
        }
        uint v3_v15 = c5;
        uint t6 = uint(v2_done == 0u);
        if (t6 != 0u)
        {
            uint param = 0u;
            uint param_1 = 8u;
            uint param_2 = 0u;
            uint _151 = atomic_compare_exchange_b0(param, param_1, param_2);
            uint t7 = _151;
            uint v4_won = t7;
            if (v4_won != 0u)
            {
                v2_done = 1u;
            }
        }
    }
    if (c5 < 2u)
    {
        vyre_control.loop_cut_short = 1u;
    }
    uint param_3 = 0u;
    uint t8 = load_b1(param_3);
    uint v5_v21 = t8;
    memoryBarrierBuffer();
    barrier();
    memoryBarrierBuffer();
    uint t9 = 1u + v5_v21;
    uint param_4 = v0_lid;
    uint param_5 = t9;
    store_b1(param_4, param_5);
}

