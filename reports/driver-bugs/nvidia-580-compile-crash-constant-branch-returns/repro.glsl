#version 450
layout(local_size_x = 1, local_size_y = 1, local_size_z = 1) in;

layout(set = 0, binding = 0, std430) coherent buffer B0
{
    uint e[];
} b0;

layout(set = 0, binding = 1, std430) readonly buffer B1
{
    uint e[];
} b1;

layout(set = 0, binding = 2, std430) readonly buffer B2
{
    uint e[];
} b2;

layout(push_constant, std430) uniform VyreCounts
{
    uint n0;
    uint n1;
    uint n2;
} vyre_counts;

uint load_b1(uint i)
{
    if (i >= vyre_counts.n1)
    {
        return 0u;
    }
    return b1.e[i];
}

void store_b0(uint i, uint v)
{
    if (i < vyre_counts.n0)
    {
        b0.e[i] = v;
    }
}

uint load_b2(uint i)
{
    if (i >= vyre_counts.n2)
    {
        return 0u;
    }
    return b2.e[i];
}

void main()
{
    uint v0_gid = 0u;
    uint v1_tp = 0u;
    uint param = 0u;
    uint t0 = load_b1(param);
    if (t0 != 0u)
    {
        uint param_1 = 0u;
        uint param_2 = 0u;
        store_b0(param_1, param_2);
    }
    else
    {
        uint t1 = v0_gid * 0u;
        uint t2 = t1 + 0u;
        uint _97;
        if (true)
        {
            _97 = 0u;
        }
        else
        {
            _97 = t2 % 1u;
        }
        uint t3 = _97;
        uint param_3 = t3;
        uint t4 = load_b1(param_3);
        if (t4 != 0u)
        {
            return;
        }
    }
    uint t5 = 0u + v1_tp;
    uint _118;
    if (true)
    {
        _118 = 0u;
    }
    else
    {
        _118 = t5 % 1u;
    }
    uint t6 = _118;
    uint param_4 = t6;
    uint t7 = load_b1(param_4);
    uint param_5 = 0u;
    uint t8 = load_b2(param_5);
    uint t9 = uint(t7 >= t8);
    if (t9 != 0u)
    {
        return;
    }
    uint t10 = v0_gid * 0u;
    uint t11 = t10 + 0u;
    uint _150;
    if (false)
    {
        _150 = 0u;
    }
    else
    {
        _150 = t11 % 229u;
    }
    uint t12 = _150;
    if (t12 != 0u)
    {
        return;
    }
}

