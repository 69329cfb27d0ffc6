#version 450
layout(local_size_x = 9, local_size_y = 1, local_size_z = 1) in;

layout(set = 0, binding = 0, std430) readonly buffer B0
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

uint load_b0(uint i)
{
    if (i >= vyre_counts.n0)
    {
        return 0u;
    }
    return b0.e[i];
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
    uint param = 0u;
    uint t0 = load_b0(param);
    uint t1 = 1u >> (t0 & 31u);
    uint t3 = t1;
    uint c4 = 0u;
    for (; c4 < t3; c4++)
    {
        uint _77 = vyre_iterations;
        uint _78 = _77 + uint(1);
        vyre_iterations = _78;
        if (_78 > 67108864u)
        {
            vyre_control.budget_exhausted = 1u;
            return;
        }
        uint v0_i = c4;
        memoryBarrierBuffer();
        barrier();
        memoryBarrierBuffer();
    }
    if (c4 < t3)
    {
        vyre_control.loop_cut_short = 1u;
    }
    uint param_1 = gl_GlobalInvocationID.x;
    uint param_2 = 1u;
    store_b1(param_1, param_2);
}

