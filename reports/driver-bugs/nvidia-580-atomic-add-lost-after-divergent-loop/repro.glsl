#version 450
layout(local_size_x = 2, local_size_y = 1, local_size_z = 1) in;

layout(set = 0, binding = 0, std430) coherent buffer B0
{
    uint e[];
} b0;

layout(set = 0, binding = 1, std430) coherent buffer B1
{
    uvec4 e[];
} b1;

layout(set = 0, binding = 2, std430) coherent buffer B2
{
    uint e[];
} b2;

layout(set = 0, binding = 3, std140) uniform B3
{
    uvec4 w[3];
} b3;

layout(set = 0, binding = 4, std430) coherent buffer VyreControl
{
    uint budget_exhausted;
    uint loop_cut_short;
} vyre_control;

layout(push_constant, std430) uniform VyreCounts
{
    uint n0;
    uint n1;
    uint n2;
    uint n3;
} vyre_counts;

uint word_b3(uint k)
{
    return b3.w[k >> 2u][k & 3u];
}

uint load_b3(uint i)
{
    if (i >= vyre_counts.n3)
    {
        return 0u;
    }
    uint param = (i * 1u) + 0u;
    return word_b3(param);
}

uint atomic_compare_exchange_b2(uint i, uint expected, uint v)
{
    if (i >= vyre_counts.n2)
    {
        return 0u;
    }
    uint _91 = atomicCompSwap(b2.e[i], expected, v);
    return _91;
}

uint atomic_add_b0(uint i, uint v)
{
    if (i >= vyre_counts.n0)
    {
        return 0u;
    }
    uint _57 = atomicAdd(b0.e[i], v);
    return _57;
}

void store_b1(uint i, uvec4 v)
{
    if (i < vyre_counts.n1)
    {
        b1.e[i] = v;
    }
}

void main()
{
    uint vyre_iterations = 0u;
    uint param = 0u;
    uint t0 = load_b3(param);
    uint t2 = t0;
    uint c3 = 0u;
    for (; c3 < t2; c3++)
    {
        uint _139 = vyre_iterations;
        uint _140 = _139 + uint(1);
        vyre_iterations = _140;
        if (_140 > 67108864u)
        {
            vyre_control.budget_exhausted = 1u;
            return;
        }
        uint v0_v5 = c3;
    }
    if (c3 < t2)
    {
        vyre_control.loop_cut_short = 1u;
    }
    uint v1_v9 = 0u;
    uint c6 = 0u;
    for (; c6 < 3u; c6++)
    {
        uint _169 = vyre_iterations;
        uint _170 = _169 + uint(1);
        vyre_iterations = _170;
        if (_170 > 67108864u)
        {
            vyre_control.budget_exhausted = 1u;
            return;
        }
        uint v2_v10 = c6;
        uint t7 = uint(v1_v9 == 0u);
        if (t7 != 0u)
        {
            uint param_1 = 0u;
            uint param_2 = 0u;
            uint param_3 = 1u;
            uint _190 = atomic_compare_exchange_b2(param_1, param_2, param_3);
            uint t8 = _190;
            uint v3_v12 = t8;
            uint t9 = uint(v3_v12 == 0u);
            if (t9 != 0u)
            {
                v1_v9 = 1u;
            }
        }
    }
    if (c6 < 3u)
    {
        vyre_control.loop_cut_short = 1u;
    }
    uint param_4 = 0u;
    uint t10 = load_b3(param_4);
    if (t10 != 0u)
    {
        uint param_5 = 0u;
        uint param_6 = 1u;
        uint _218 = atomic_add_b0(param_5, param_6);
        uint t11 = _218;
        uint v4_v2 = t11;
    }
    uint param_7 = 0u;
    uvec4 param_8 = uvec4(0u);
    store_b1(param_7, param_8);
}

