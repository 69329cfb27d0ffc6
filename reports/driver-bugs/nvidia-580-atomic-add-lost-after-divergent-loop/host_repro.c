// host_repro.c: stand-alone reproducer, no vyre code: on NVIDIA's Vulkan driver 580 one of two
// invocations' atomicAdd is lost after a loop that one invocation leaves early.
//
// The shader (repro.glsl, glslang's SPIR-V below; spirv-val --target-env vulkan1.1 accepts it),
// local size 2x1x1, one workgroup:
//   for (i = 0; i < opq[0]; i++) {}            // opq: a uniform buffer, opq[0] = 2047
//   done = 0;
//   for (j = 0; j < 3; j++)                     // one invocation wins the lock at once and then
//     if (done == 0 && atomicCompSwap(atm0[0], 0, 1) == 0) done = 1;   // skips the body
//   if (opq[0] != 0) atomicAdd(cnt0[0], 1);     // both invocations: cnt0[0] must end at 2
//   out2[0] = uvec4(0);                         // out2 is empty (count 0): bounds-checked, dropped
// Every access is bounds-checked against the element counts in a push constant block
// {n0 cnt0, n1 out2, n2 atm0, n3 opq}; binding 4 is a control block the loops write only when an
// iteration budget runs out (never here).
//
// Build: cc host_repro.c -lvulkan -o host_repro
// Run:   ./host_repro [DEVICE-NAME-PART]   (default: physical device 0)
// Exit:  0  every run gave cnt0 = 2 and atm0 = 1 (correct)
//        1  some run gave another result (each wrong run is printed)
//        2  a Vulkan setup call failed (the call and its VkResult are printed)
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vulkan/vulkan.h>

// The record's repro.vyre, its program lowered by `vyre-certify lower PROGRAM --backend vulkan
// --emit spirv` (6052 bytes, sha256
// 8e3dbf8806b81ddf77cc8d0f1e0299a75cce32b4074f472fc6f966296fac7d59).
static const uint32_t kSpirv[] = {
    0x07230203, 0x00010300, 0x0008000b, 0x000000e3, 0x00000000, 0x00020011, 0x00000001, 0x0006000b,
    0x00000001, 0x4c534c47, 0x6474732e, 0x3035342e, 0x00000000, 0x0003000e, 0x00000000, 0x00000001,
    0x0005000f, 0x00000005, 0x00000004, 0x6e69616d, 0x00000000, 0x00060010, 0x00000004, 0x00000011,
    0x00000002, 0x00000001, 0x00000001, 0x00030003, 0x00000002, 0x000001c2, 0x00040005, 0x00000004,
    0x6e69616d, 0x00000000, 0x00080005, 0x0000000b, 0x6d6f7461, 0x615f6369, 0x625f6464, 0x31752830,
    0x3b31753b, 0x00000000, 0x00030005, 0x00000009, 0x00000069, 0x00030005, 0x0000000a, 0x00000076,
    0x00070005, 0x00000012, 0x726f7473, 0x31625f65, 0x3b317528, 0x3b347576, 0x00000000, 0x00030005,
    0x00000010, 0x00000069, 0x00030005, 0x00000011, 0x00000076, 0x000c0005, 0x00000018, 0x6d6f7461,
    0x635f6369, 0x61706d6f, 0x655f6572, 0x61686378, 0x5f65676e, 0x75283262, 0x31753b31, 0x3b31753b,
    0x00000000, 0x00030005, 0x00000015, 0x00000069, 0x00050005, 0x00000016, 0x65707865, 0x64657463,
    0x00000000, 0x00030005, 0x00000017, 0x00000076, 0x00050005, 0x0000001c, 0x64726f77, 0x2833625f,
    0x003b3175, 0x00030005, 0x0000001b, 0x0000006b, 0x00050005, 0x0000001f, 0x64616f6c, 0x2833625f,
    0x003b3175, 0x00030005, 0x0000001e, 0x00000069, 0x00050005, 0x00000022, 0x65727956, 0x6e756f43,
    0x00007374, 0x00040006, 0x00000022, 0x00000000, 0x0000306e, 0x00040006, 0x00000022, 0x00000001,
    0x0000316e, 0x00040006, 0x00000022, 0x00000002, 0x0000326e, 0x00040006, 0x00000022, 0x00000003,
    0x0000336e, 0x00050005, 0x00000024, 0x65727976, 0x756f635f, 0x0073746e, 0x00030005, 0x00000031,
    0x00003042, 0x00040006, 0x00000031, 0x00000000, 0x00000065, 0x00030005, 0x00000033, 0x00003062,
    0x00030005, 0x00000044, 0x00003142, 0x00040006, 0x00000044, 0x00000000, 0x00000065, 0x00030005,
    0x00000046, 0x00003162, 0x00030005, 0x00000054, 0x00003242, 0x00040006, 0x00000054, 0x00000000,
    0x00000065, 0x00030005, 0x00000056, 0x00003262, 0x00030005, 0x00000060, 0x00003342, 0x00040006,
    0x00000060, 0x00000000, 0x00000077, 0x00030005, 0x00000062, 0x00003362, 0x00040005, 0x00000078,
    0x61726170, 0x0000006d, 0x00060005, 0x0000007c, 0x65727976, 0x6574695f, 0x69746172, 0x00736e6f,
    0x00030005, 0x0000007d, 0x00003074, 0x00040005, 0x0000007e, 0x61726170, 0x0000006d, 0x00030005,
    0x00000080, 0x00003274, 0x00030005, 0x00000082, 0x00003363, 0x00050005, 0x00000091, 0x65727956,
    0x746e6f43, 0x006c6f72, 0x00080006, 0x00000091, 0x00000000, 0x67647562, 0x655f7465, 0x75616878,
    0x64657473, 0x00000000, 0x00070006, 0x00000091, 0x00000001, 0x706f6f6c, 0x7475635f, 0x6f68735f,
    0x00007472, 0x00060005, 0x00000093, 0x65727976, 0x6e6f635f, 0x6c6f7274, 0x00000000, 0x00040005,
    0x00000096, 0x765f3076, 0x00000035, 0x00040005, 0x000000a0, 0x765f3176, 0x00000039, 0x00030005,
    0x000000a1, 0x00003663, 0x00040005, 0x000000b0, 0x765f3276, 0x00003031, 0x00030005, 0x000000b2,
    0x00003774, 0x00030005, 0x000000ba, 0x00003874, 0x00040005, 0x000000bb, 0x61726170, 0x0000006d,
    0x00040005, 0x000000bc, 0x61726170, 0x0000006d, 0x00040005, 0x000000bd, 0x61726170, 0x0000006d,
    0x00040005, 0x000000bf, 0x765f3376, 0x00003231, 0x00030005, 0x000000c1, 0x00003974, 0x00030005,
    0x000000d0, 0x00303174, 0x00040005, 0x000000d1, 0x61726170, 0x0000006d, 0x00030005, 0x000000d7,
    0x00313174, 0x00040005, 0x000000d8, 0x61726170, 0x0000006d, 0x00040005, 0x000000d9, 0x61726170,
    0x0000006d, 0x00040005, 0x000000db, 0x765f3476, 0x00000032, 0x00040005, 0x000000de, 0x61726170,
    0x0000006d, 0x00040005, 0x000000df, 0x61726170, 0x0000006d, 0x00050048, 0x00000022, 0x00000000,
    0x00000023, 0x00000000, 0x00050048, 0x00000022, 0x00000001, 0x00000023, 0x00000004, 0x00050048,
    0x00000022, 0x00000002, 0x00000023, 0x00000008, 0x00050048, 0x00000022, 0x00000003, 0x00000023,
    0x0000000c, 0x00030047, 0x00000022, 0x00000002, 0x00040047, 0x00000030, 0x00000006, 0x00000004,
    0x00040048, 0x00000031, 0x00000000, 0x00000017, 0x00050048, 0x00000031, 0x00000000, 0x00000023,
    0x00000000, 0x00030047, 0x00000031, 0x00000002, 0x00040047, 0x00000033, 0x00000022, 0x00000000,
    0x00040047, 0x00000033, 0x00000021, 0x00000000, 0x00040047, 0x00000043, 0x00000006, 0x00000010,
    0x00040048, 0x00000044, 0x00000000, 0x00000017, 0x00050048, 0x00000044, 0x00000000, 0x00000023,
    0x00000000, 0x00030047, 0x00000044, 0x00000002, 0x00040047, 0x00000046, 0x00000022, 0x00000000,
    0x00040047, 0x00000046, 0x00000021, 0x00000001, 0x00040047, 0x00000053, 0x00000006, 0x00000004,
    0x00040048, 0x00000054, 0x00000000, 0x00000017, 0x00050048, 0x00000054, 0x00000000, 0x00000023,
    0x00000000, 0x00030047, 0x00000054, 0x00000002, 0x00040047, 0x00000056, 0x00000022, 0x00000000,
    0x00040047, 0x00000056, 0x00000021, 0x00000002, 0x00040047, 0x0000005f, 0x00000006, 0x00000010,
    0x00050048, 0x00000060, 0x00000000, 0x00000023, 0x00000000, 0x00030047, 0x00000060, 0x00000002,
    0x00040047, 0x00000062, 0x00000022, 0x00000000, 0x00040047, 0x00000062, 0x00000021, 0x00000003,
    0x00040048, 0x00000091, 0x00000000, 0x00000017, 0x00050048, 0x00000091, 0x00000000, 0x00000023,
    0x00000000, 0x00040048, 0x00000091, 0x00000001, 0x00000017, 0x00050048, 0x00000091, 0x00000001,
    0x00000023, 0x00000004, 0x00030047, 0x00000091, 0x00000002, 0x00040047, 0x00000093, 0x00000022,
    0x00000000, 0x00040047, 0x00000093, 0x00000021, 0x00000004, 0x00040047, 0x000000e2, 0x0000000b,
    0x00000019, 0x00020013, 0x00000002, 0x00030021, 0x00000003, 0x00000002, 0x00040015, 0x00000006,
    0x00000020, 0x00000000, 0x00040020, 0x00000007, 0x00000007, 0x00000006, 0x00050021, 0x00000008,
    0x00000006, 0x00000007, 0x00000007, 0x00040017, 0x0000000d, 0x00000006, 0x00000004, 0x00040020,
    0x0000000e, 0x00000007, 0x0000000d, 0x00050021, 0x0000000f, 0x00000002, 0x00000007, 0x0000000e,
    0x00060021, 0x00000014, 0x00000006, 0x00000007, 0x00000007, 0x00000007, 0x00040021, 0x0000001a,
    0x00000006, 0x00000007, 0x0006001e, 0x00000022, 0x00000006, 0x00000006, 0x00000006, 0x00000006,
    0x00040020, 0x00000023, 0x00000009, 0x00000022, 0x0004003b, 0x00000023, 0x00000024, 0x00000009,
    0x00040015, 0x00000025, 0x00000020, 0x00000001, 0x0004002b, 0x00000025, 0x00000026, 0x00000000,
    0x00040020, 0x00000027, 0x00000009, 0x00000006, 0x00020014, 0x0000002a, 0x0004002b, 0x00000006,
    0x0000002e, 0x00000000, 0x0003001d, 0x00000030, 0x00000006, 0x0003001e, 0x00000031, 0x00000030,
    0x00040020, 0x00000032, 0x0000000c, 0x00000031, 0x0004003b, 0x00000032, 0x00000033, 0x0000000c,
    0x00040020, 0x00000035, 0x0000000c, 0x00000006, 0x0004002b, 0x00000006, 0x00000038, 0x00000001,
    0x0004002b, 0x00000025, 0x0000003d, 0x00000001, 0x0003001d, 0x00000043, 0x0000000d, 0x0003001e,
    0x00000044, 0x00000043, 0x00040020, 0x00000045, 0x0000000c, 0x00000044, 0x0004003b, 0x00000045,
    0x00000046, 0x0000000c, 0x00040020, 0x00000049, 0x0000000c, 0x0000000d, 0x0004002b, 0x00000025,
    0x0000004c, 0x00000002, 0x0003001d, 0x00000053, 0x00000006, 0x0003001e, 0x00000054, 0x00000053,
    0x00040020, 0x00000055, 0x0000000c, 0x00000054, 0x0004003b, 0x00000055, 0x00000056, 0x0000000c,
    0x0004002b, 0x00000006, 0x0000005e, 0x00000003, 0x0004001c, 0x0000005f, 0x0000000d, 0x0000005e,
    0x0003001e, 0x00000060, 0x0000005f, 0x00040020, 0x00000061, 0x00000002, 0x00000060, 0x0004003b,
    0x00000061, 0x00000062, 0x00000002, 0x0004002b, 0x00000006, 0x00000064, 0x00000002, 0x00040020,
    0x00000068, 0x00000002, 0x00000006, 0x0004002b, 0x00000025, 0x0000006e, 0x00000003, 0x0004002b,
    0x00000006, 0x0000008d, 0x04000000, 0x0004001e, 0x00000091, 0x00000006, 0x00000006, 0x00040020,
    0x00000092, 0x0000000c, 0x00000091, 0x0004003b, 0x00000092, 0x00000093, 0x0000000c, 0x0007002c,
    0x0000000d, 0x000000dd, 0x0000002e, 0x0000002e, 0x0000002e, 0x0000002e, 0x00040017, 0x000000e1,
    0x00000006, 0x00000003, 0x0006002c, 0x000000e1, 0x000000e2, 0x00000064, 0x00000038, 0x00000038,
    0x00050036, 0x00000002, 0x00000004, 0x00000000, 0x00000003, 0x000200f8, 0x00000005, 0x0004003b,
    0x00000007, 0x0000007c, 0x00000007, 0x0004003b, 0x00000007, 0x0000007d, 0x00000007, 0x0004003b,
    0x00000007, 0x0000007e, 0x00000007, 0x0004003b, 0x00000007, 0x00000080, 0x00000007, 0x0004003b,
    0x00000007, 0x00000082, 0x00000007, 0x0004003b, 0x00000007, 0x00000096, 0x00000007, 0x0004003b,
    0x00000007, 0x000000a0, 0x00000007, 0x0004003b, 0x00000007, 0x000000a1, 0x00000007, 0x0004003b,
    0x00000007, 0x000000b0, 0x00000007, 0x0004003b, 0x00000007, 0x000000b2, 0x00000007, 0x0004003b,
    0x00000007, 0x000000ba, 0x00000007, 0x0004003b, 0x00000007, 0x000000bb, 0x00000007, 0x0004003b,
    0x00000007, 0x000000bc, 0x00000007, 0x0004003b, 0x00000007, 0x000000bd, 0x00000007, 0x0004003b,
    0x00000007, 0x000000bf, 0x00000007, 0x0004003b, 0x00000007, 0x000000c1, 0x00000007, 0x0004003b,
    0x00000007, 0x000000d0, 0x00000007, 0x0004003b, 0x00000007, 0x000000d1, 0x00000007, 0x0004003b,
    0x00000007, 0x000000d7, 0x00000007, 0x0004003b, 0x00000007, 0x000000d8, 0x00000007, 0x0004003b,
    0x00000007, 0x000000d9, 0x00000007, 0x0004003b, 0x00000007, 0x000000db, 0x00000007, 0x0004003b,
    0x00000007, 0x000000de, 0x00000007, 0x0004003b, 0x0000000e, 0x000000df, 0x00000007, 0x0003003e,
    0x0000007c, 0x0000002e, 0x0003003e, 0x0000007e, 0x0000002e, 0x00050039, 0x00000006, 0x0000007f,
    0x0000001f, 0x0000007e, 0x0003003e, 0x0000007d, 0x0000007f, 0x0004003d, 0x00000006, 0x00000081,
    0x0000007d, 0x0003003e, 0x00000080, 0x00000081, 0x0003003e, 0x00000082, 0x0000002e, 0x000200f9,
    0x00000083, 0x000200f8, 0x00000083, 0x000400f6, 0x00000085, 0x00000086, 0x00000000, 0x000200f9,
    0x00000087, 0x000200f8, 0x00000087, 0x0004003d, 0x00000006, 0x00000088, 0x00000082, 0x0004003d,
    0x00000006, 0x00000089, 0x00000080, 0x000500b0, 0x0000002a, 0x0000008a, 0x00000088, 0x00000089,
    0x000400fa, 0x0000008a, 0x00000084, 0x00000085, 0x000200f8, 0x00000084, 0x0004003d, 0x00000006,
    0x0000008b, 0x0000007c, 0x00050080, 0x00000006, 0x0000008c, 0x0000008b, 0x0000003d, 0x0003003e,
    0x0000007c, 0x0000008c, 0x000500ac, 0x0000002a, 0x0000008e, 0x0000008c, 0x0000008d, 0x000300f7,
    0x00000090, 0x00000000, 0x000400fa, 0x0000008e, 0x0000008f, 0x00000090, 0x000200f8, 0x0000008f,
    0x00050041, 0x00000035, 0x00000094, 0x00000093, 0x00000026, 0x0003003e, 0x00000094, 0x00000038,
    0x000100fd, 0x000200f8, 0x00000090, 0x0004003d, 0x00000006, 0x00000097, 0x00000082, 0x0003003e,
    0x00000096, 0x00000097, 0x000200f9, 0x00000086, 0x000200f8, 0x00000086, 0x0004003d, 0x00000006,
    0x00000098, 0x00000082, 0x00050080, 0x00000006, 0x00000099, 0x00000098, 0x0000003d, 0x0003003e,
    0x00000082, 0x00000099, 0x000200f9, 0x00000083, 0x000200f8, 0x00000085, 0x0004003d, 0x00000006,
    0x0000009a, 0x00000082, 0x0004003d, 0x00000006, 0x0000009b, 0x00000080, 0x000500b0, 0x0000002a,
    0x0000009c, 0x0000009a, 0x0000009b, 0x000300f7, 0x0000009e, 0x00000000, 0x000400fa, 0x0000009c,
    0x0000009d, 0x0000009e, 0x000200f8, 0x0000009d, 0x00050041, 0x00000035, 0x0000009f, 0x00000093,
    0x0000003d, 0x0003003e, 0x0000009f, 0x00000038, 0x000200f9, 0x0000009e, 0x000200f8, 0x0000009e,
    0x0003003e, 0x000000a0, 0x0000002e, 0x0003003e, 0x000000a1, 0x0000002e, 0x000200f9, 0x000000a2,
    0x000200f8, 0x000000a2, 0x000400f6, 0x000000a4, 0x000000a5, 0x00000000, 0x000200f9, 0x000000a6,
    0x000200f8, 0x000000a6, 0x0004003d, 0x00000006, 0x000000a7, 0x000000a1, 0x000500b0, 0x0000002a,
    0x000000a8, 0x000000a7, 0x0000005e, 0x000400fa, 0x000000a8, 0x000000a3, 0x000000a4, 0x000200f8,
    0x000000a3, 0x0004003d, 0x00000006, 0x000000a9, 0x0000007c, 0x00050080, 0x00000006, 0x000000aa,
    0x000000a9, 0x0000003d, 0x0003003e, 0x0000007c, 0x000000aa, 0x000500ac, 0x0000002a, 0x000000ab,
    0x000000aa, 0x0000008d, 0x000300f7, 0x000000ad, 0x00000000, 0x000400fa, 0x000000ab, 0x000000ac,
    0x000000ad, 0x000200f8, 0x000000ac, 0x00050041, 0x00000035, 0x000000ae, 0x00000093, 0x00000026,
    0x0003003e, 0x000000ae, 0x00000038, 0x000100fd, 0x000200f8, 0x000000ad, 0x0004003d, 0x00000006,
    0x000000b1, 0x000000a1, 0x0003003e, 0x000000b0, 0x000000b1, 0x0004003d, 0x00000006, 0x000000b3,
    0x000000a0, 0x000500aa, 0x0000002a, 0x000000b4, 0x000000b3, 0x0000002e, 0x000600a9, 0x00000006,
    0x000000b5, 0x000000b4, 0x00000038, 0x0000002e, 0x0003003e, 0x000000b2, 0x000000b5, 0x0004003d,
    0x00000006, 0x000000b6, 0x000000b2, 0x000500ab, 0x0000002a, 0x000000b7, 0x000000b6, 0x0000002e,
    0x000300f7, 0x000000b9, 0x00000000, 0x000400fa, 0x000000b7, 0x000000b8, 0x000000b9, 0x000200f8,
    0x000000b8, 0x0003003e, 0x000000bb, 0x0000002e, 0x0003003e, 0x000000bc, 0x0000002e, 0x0003003e,
    0x000000bd, 0x00000038, 0x00070039, 0x00000006, 0x000000be, 0x00000018, 0x000000bb, 0x000000bc,
    0x000000bd, 0x0003003e, 0x000000ba, 0x000000be, 0x0004003d, 0x00000006, 0x000000c0, 0x000000ba,
    0x0003003e, 0x000000bf, 0x000000c0, 0x0004003d, 0x00000006, 0x000000c2, 0x000000bf, 0x000500aa,
    0x0000002a, 0x000000c3, 0x000000c2, 0x0000002e, 0x000600a9, 0x00000006, 0x000000c4, 0x000000c3,
    0x00000038, 0x0000002e, 0x0003003e, 0x000000c1, 0x000000c4, 0x0004003d, 0x00000006, 0x000000c5,
    0x000000c1, 0x000500ab, 0x0000002a, 0x000000c6, 0x000000c5, 0x0000002e, 0x000300f7, 0x000000c8,
    0x00000000, 0x000400fa, 0x000000c6, 0x000000c7, 0x000000c8, 0x000200f8, 0x000000c7, 0x0003003e,
    0x000000a0, 0x00000038, 0x000200f9, 0x000000c8, 0x000200f8, 0x000000c8, 0x000200f9, 0x000000b9,
    0x000200f8, 0x000000b9, 0x000200f9, 0x000000a5, 0x000200f8, 0x000000a5, 0x0004003d, 0x00000006,
    0x000000c9, 0x000000a1, 0x00050080, 0x00000006, 0x000000ca, 0x000000c9, 0x0000003d, 0x0003003e,
    0x000000a1, 0x000000ca, 0x000200f9, 0x000000a2, 0x000200f8, 0x000000a4, 0x0004003d, 0x00000006,
    0x000000cb, 0x000000a1, 0x000500b0, 0x0000002a, 0x000000cc, 0x000000cb, 0x0000005e, 0x000300f7,
    0x000000ce, 0x00000000, 0x000400fa, 0x000000cc, 0x000000cd, 0x000000ce, 0x000200f8, 0x000000cd,
    0x00050041, 0x00000035, 0x000000cf, 0x00000093, 0x0000003d, 0x0003003e, 0x000000cf, 0x00000038,
    0x000200f9, 0x000000ce, 0x000200f8, 0x000000ce, 0x0003003e, 0x000000d1, 0x0000002e, 0x00050039,
    0x00000006, 0x000000d2, 0x0000001f, 0x000000d1, 0x0003003e, 0x000000d0, 0x000000d2, 0x0004003d,
    0x00000006, 0x000000d3, 0x000000d0, 0x000500ab, 0x0000002a, 0x000000d4, 0x000000d3, 0x0000002e,
    0x000300f7, 0x000000d6, 0x00000000, 0x000400fa, 0x000000d4, 0x000000d5, 0x000000d6, 0x000200f8,
    0x000000d5, 0x0003003e, 0x000000d8, 0x0000002e, 0x0003003e, 0x000000d9, 0x00000038, 0x00060039,
    0x00000006, 0x000000da, 0x0000000b, 0x000000d8, 0x000000d9, 0x0003003e, 0x000000d7, 0x000000da,
    0x0004003d, 0x00000006, 0x000000dc, 0x000000d7, 0x0003003e, 0x000000db, 0x000000dc, 0x000200f9,
    0x000000d6, 0x000200f8, 0x000000d6, 0x0003003e, 0x000000de, 0x0000002e, 0x0003003e, 0x000000df,
    0x000000dd, 0x00060039, 0x00000002, 0x000000e0, 0x00000012, 0x000000de, 0x000000df, 0x000100fd,
    0x00010038, 0x00050036, 0x00000006, 0x0000000b, 0x00000000, 0x00000008, 0x00030037, 0x00000007,
    0x00000009, 0x00030037, 0x00000007, 0x0000000a, 0x000200f8, 0x0000000c, 0x0004003d, 0x00000006,
    0x00000021, 0x00000009, 0x00050041, 0x00000027, 0x00000028, 0x00000024, 0x00000026, 0x0004003d,
    0x00000006, 0x00000029, 0x00000028, 0x000500ae, 0x0000002a, 0x0000002b, 0x00000021, 0x00000029,
    0x000300f7, 0x0000002d, 0x00000000, 0x000400fa, 0x0000002b, 0x0000002c, 0x0000002d, 0x000200f8,
    0x0000002c, 0x000200fe, 0x0000002e, 0x000200f8, 0x0000002d, 0x0004003d, 0x00000006, 0x00000034,
    0x00000009, 0x00060041, 0x00000035, 0x00000036, 0x00000033, 0x00000026, 0x00000034, 0x0004003d,
    0x00000006, 0x00000037, 0x0000000a, 0x000700ea, 0x00000006, 0x00000039, 0x00000036, 0x00000038,
    0x0000002e, 0x00000037, 0x000200fe, 0x00000039, 0x00010038, 0x00050036, 0x00000002, 0x00000012,
    0x00000000, 0x0000000f, 0x00030037, 0x00000007, 0x00000010, 0x00030037, 0x0000000e, 0x00000011,
    0x000200f8, 0x00000013, 0x0004003d, 0x00000006, 0x0000003c, 0x00000010, 0x00050041, 0x00000027,
    0x0000003e, 0x00000024, 0x0000003d, 0x0004003d, 0x00000006, 0x0000003f, 0x0000003e, 0x000500b0,
    0x0000002a, 0x00000040, 0x0000003c, 0x0000003f, 0x000300f7, 0x00000042, 0x00000000, 0x000400fa,
    0x00000040, 0x00000041, 0x00000042, 0x000200f8, 0x00000041, 0x0004003d, 0x00000006, 0x00000047,
    0x00000010, 0x0004003d, 0x0000000d, 0x00000048, 0x00000011, 0x00060041, 0x00000049, 0x0000004a,
    0x00000046, 0x00000026, 0x00000047, 0x0003003e, 0x0000004a, 0x00000048, 0x000200f9, 0x00000042,
    0x000200f8, 0x00000042, 0x000100fd, 0x00010038, 0x00050036, 0x00000006, 0x00000018, 0x00000000,
    0x00000014, 0x00030037, 0x00000007, 0x00000015, 0x00030037, 0x00000007, 0x00000016, 0x00030037,
    0x00000007, 0x00000017, 0x000200f8, 0x00000019, 0x0004003d, 0x00000006, 0x0000004b, 0x00000015,
    0x00050041, 0x00000027, 0x0000004d, 0x00000024, 0x0000004c, 0x0004003d, 0x00000006, 0x0000004e,
    0x0000004d, 0x000500ae, 0x0000002a, 0x0000004f, 0x0000004b, 0x0000004e, 0x000300f7, 0x00000051,
    0x00000000, 0x000400fa, 0x0000004f, 0x00000050, 0x00000051, 0x000200f8, 0x00000050, 0x000200fe,
    0x0000002e, 0x000200f8, 0x00000051, 0x0004003d, 0x00000006, 0x00000057, 0x00000015, 0x00060041,
    0x00000035, 0x00000058, 0x00000056, 0x00000026, 0x00000057, 0x0004003d, 0x00000006, 0x00000059,
    0x00000016, 0x0004003d, 0x00000006, 0x0000005a, 0x00000017, 0x000900e6, 0x00000006, 0x0000005b,
    0x00000058, 0x00000038, 0x0000002e, 0x0000002e, 0x0000005a, 0x00000059, 0x000200fe, 0x0000005b,
    0x00010038, 0x00050036, 0x00000006, 0x0000001c, 0x00000000, 0x0000001a, 0x00030037, 0x00000007,
    0x0000001b, 0x000200f8, 0x0000001d, 0x0004003d, 0x00000006, 0x00000063, 0x0000001b, 0x000500c2,
    0x00000006, 0x00000065, 0x00000063, 0x00000064, 0x0004003d, 0x00000006, 0x00000066, 0x0000001b,
    0x000500c7, 0x00000006, 0x00000067, 0x00000066, 0x0000005e, 0x00070041, 0x00000068, 0x00000069,
    0x00000062, 0x00000026, 0x00000065, 0x00000067, 0x0004003d, 0x00000006, 0x0000006a, 0x00000069,
    0x000200fe, 0x0000006a, 0x00010038, 0x00050036, 0x00000006, 0x0000001f, 0x00000000, 0x0000001a,
    0x00030037, 0x00000007, 0x0000001e, 0x000200f8, 0x00000020, 0x0004003b, 0x00000007, 0x00000078,
    0x00000007, 0x0004003d, 0x00000006, 0x0000006d, 0x0000001e, 0x00050041, 0x00000027, 0x0000006f,
    0x00000024, 0x0000006e, 0x0004003d, 0x00000006, 0x00000070, 0x0000006f, 0x000500ae, 0x0000002a,
    0x00000071, 0x0000006d, 0x00000070, 0x000300f7, 0x00000073, 0x00000000, 0x000400fa, 0x00000071,
    0x00000072, 0x00000073, 0x000200f8, 0x00000072, 0x000200fe, 0x0000002e, 0x000200f8, 0x00000073,
    0x0004003d, 0x00000006, 0x00000075, 0x0000001e, 0x00050084, 0x00000006, 0x00000076, 0x00000075,
    0x00000038, 0x00050080, 0x00000006, 0x00000077, 0x00000076, 0x0000002e, 0x0003003e, 0x00000078,
    0x00000077, 0x00050039, 0x00000006, 0x00000079, 0x0000001c, 0x00000078, 0x000200fe, 0x00000079,
    0x00010038,
};

enum { kRuns = 30, kBuffers = 5, kUniform = 3 };
// Bytes of each binding: cnt0 (1 word), out2 (empty: 16 bytes bound, count 0), atm0 (1 word), opq
// (12 words, std140 uvec4[3]), the control block (2 words).
static const VkDeviceSize kBytes[kBuffers] = {4, 16, 4, 48, 8};
static const uint32_t kOpq[12] = {2047,    0xFFFFFFE0, 0x1000000, 0xB65347D5, 0xFFFFFFFE, 31,
                                  0x40000, 33,         0x20000,   0xE4617392, 0x983EE69B, 16};

static void Check(VkResult r, const char* call) {
  if (r == VK_SUCCESS) return;
  printf("%.*s failed: VkResult %d\n", (int)strcspn(call, "("), call, (int)r);
  exit(2);
}
#define VK_CHECK(call) Check((call), #call)

static uint32_t FindMemoryType(VkPhysicalDevice pd, uint32_t type_bits) {
  const VkMemoryPropertyFlags f =
      VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  VkPhysicalDeviceMemoryProperties mp;
  vkGetPhysicalDeviceMemoryProperties(pd, &mp);
  for (uint32_t i = 0; i < mp.memoryTypeCount; i++)
    if ((type_bits & (1u << i)) && (mp.memoryTypes[i].propertyFlags & f) == f) return i;
  printf("no host-visible, host-coherent memory type for the buffers\n");
  exit(2);
}

int main(int argc, char** argv) {
  const char* name_part = argc > 1 ? argv[1] : NULL;
  VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                           .pApplicationName = "host_repro",
                           .apiVersion = VK_API_VERSION_1_1};
  VkInstanceCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                              .pApplicationInfo = &app};
  VkInstance inst;
  VK_CHECK(vkCreateInstance(&ici, NULL, &inst));
  VkPhysicalDevice pds[16];
  uint32_t npd = 16;
  VkResult r = vkEnumeratePhysicalDevices(inst, &npd, pds);
  if (r != VK_INCOMPLETE) VK_CHECK(r);
  VkPhysicalDevice pd = VK_NULL_HANDLE;
  VkPhysicalDeviceProperties props;
  for (uint32_t i = 0; i < npd && pd == VK_NULL_HANDLE; i++) {
    vkGetPhysicalDeviceProperties(pds[i], &props);
    if (!name_part || strstr(props.deviceName, name_part)) pd = pds[i];
  }
  if (pd == VK_NULL_HANDLE) {
    printf("no Vulkan physical device (with that name part)\n");
    return 2;
  }
  printf("device: %s (vendor 0x%04x, driverVersion 0x%08x)\n", props.deviceName, props.vendorID,
         props.driverVersion);

  VkQueueFamilyProperties qfs[32];
  uint32_t nqf = 32, qf = UINT32_MAX;
  vkGetPhysicalDeviceQueueFamilyProperties(pd, &nqf, qfs);
  for (uint32_t i = 0; i < nqf && qf == UINT32_MAX; i++)
    if (qfs[i].queueFlags & VK_QUEUE_COMPUTE_BIT) qf = i;
  if (qf == UINT32_MAX) {
    printf("no queue family with compute\n");
    return 2;
  }
  float prio = 1.0f;
  VkDeviceQueueCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                 .queueFamilyIndex = qf,
                                 .queueCount = 1,
                                 .pQueuePriorities = &prio};
  VkDeviceCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                            .queueCreateInfoCount = 1,
                            .pQueueCreateInfos = &qci};
  VkDevice dev;
  VK_CHECK(vkCreateDevice(pd, &dci, NULL, &dev));
  VkQueue queue;
  vkGetDeviceQueue(dev, qf, 0, &queue);

  VkShaderModuleCreateInfo smci = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
                                   .codeSize = sizeof kSpirv,
                                   .pCode = kSpirv};
  VkShaderModule sm;
  VK_CHECK(vkCreateShaderModule(dev, &smci, NULL, &sm));
  VkDescriptorSetLayoutBinding b[kBuffers];
  for (uint32_t i = 0; i < kBuffers; i++)
    b[i] = (VkDescriptorSetLayoutBinding){
        i, i == kUniform ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
        VK_SHADER_STAGE_COMPUTE_BIT, NULL};
  VkDescriptorSetLayoutCreateInfo dslci = {
      .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
      .bindingCount = kBuffers,
      .pBindings = b};
  VkDescriptorSetLayout dsl;
  VK_CHECK(vkCreateDescriptorSetLayout(dev, &dslci, NULL, &dsl));
  VkPushConstantRange pcr = {VK_SHADER_STAGE_COMPUTE_BIT, 0, 4 * sizeof(uint32_t)};
  VkPipelineLayoutCreateInfo plci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                     .setLayoutCount = 1,
                                     .pSetLayouts = &dsl,
                                     .pushConstantRangeCount = 1,
                                     .pPushConstantRanges = &pcr};
  VkPipelineLayout pl;
  VK_CHECK(vkCreatePipelineLayout(dev, &plci, NULL, &pl));
  VkComputePipelineCreateInfo cpci = {
      .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
      .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                .module = sm,
                .pName = "main"},
      .layout = pl};
  VkPipeline pipe;
  VK_CHECK(vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &cpci, NULL, &pipe));

  VkDescriptorPoolSize ps[2] = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, kBuffers - 1},
                                {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1}};
  VkDescriptorPoolCreateInfo dpci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                     .maxSets = 1,
                                     .poolSizeCount = 2,
                                     .pPoolSizes = ps};
  VkDescriptorPool dp;
  VK_CHECK(vkCreateDescriptorPool(dev, &dpci, NULL, &dp));
  VkDescriptorSetAllocateInfo dsai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                      .descriptorPool = dp,
                                      .descriptorSetCount = 1,
                                      .pSetLayouts = &dsl};
  VkDescriptorSet ds;
  VK_CHECK(vkAllocateDescriptorSets(dev, &dsai, &ds));
  VkBuffer bufs[kBuffers];
  VkDeviceMemory mems[kBuffers];
  uint32_t* maps[kBuffers];
  VkDescriptorBufferInfo dbi[kBuffers];
  VkWriteDescriptorSet w[kBuffers];
  for (uint32_t i = 0; i < kBuffers; i++) {
    VkBufferCreateInfo bci = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                              .size = kBytes[i],
                              .usage = i == kUniform ? VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT
                                                     : VK_BUFFER_USAGE_STORAGE_BUFFER_BIT};
    VK_CHECK(vkCreateBuffer(dev, &bci, NULL, &bufs[i]));
    VkMemoryRequirements mr;
    vkGetBufferMemoryRequirements(dev, bufs[i], &mr);
    VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                                .allocationSize = mr.size,
                                .memoryTypeIndex = FindMemoryType(pd, mr.memoryTypeBits)};
    VK_CHECK(vkAllocateMemory(dev, &mai, NULL, &mems[i]));
    VK_CHECK(vkBindBufferMemory(dev, bufs[i], mems[i], 0));
    VK_CHECK(vkMapMemory(dev, mems[i], 0, VK_WHOLE_SIZE, 0, (void**)&maps[i]));
    dbi[i] = (VkDescriptorBufferInfo){bufs[i], 0, kBytes[i]};
    w[i] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                  .dstSet = ds,
                                  .dstBinding = i,
                                  .descriptorCount = 1,
                                  .descriptorType = b[i].descriptorType,
                                  .pBufferInfo = &dbi[i]};
  }
  vkUpdateDescriptorSets(dev, kBuffers, w, 0, NULL);
  memcpy(maps[kUniform], kOpq, sizeof kOpq);

  VkCommandPoolCreateInfo cpoci = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                   .queueFamilyIndex = qf};
  VkCommandPool cpool;
  VK_CHECK(vkCreateCommandPool(dev, &cpoci, NULL, &cpool));
  VkCommandBufferAllocateInfo cbai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                      .commandPool = cpool,
                                      .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                      .commandBufferCount = 1};
  VkCommandBuffer cb;
  VK_CHECK(vkAllocateCommandBuffers(dev, &cbai, &cb));
  VK_CHECK(vkBeginCommandBuffer(
      cb, &(VkCommandBufferBeginInfo){.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO}));
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
  vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pl, 0, 1, &ds, 0, NULL);
  const uint32_t counts[4] = {1, 0, 1, 12};  // cnt0, out2 (empty), atm0, opq
  vkCmdPushConstants(cb, pl, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof counts, counts);
  vkCmdDispatch(cb, 1, 1, 1);
  VkMemoryBarrier mb = {VK_STRUCTURE_TYPE_MEMORY_BARRIER, NULL, VK_ACCESS_SHADER_WRITE_BIT,
                        VK_ACCESS_HOST_READ_BIT};
  vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1,
                       &mb, 0, NULL, 0, NULL);
  VK_CHECK(vkEndCommandBuffer(cb));
  VkFence fence;
  VK_CHECK(vkCreateFence(dev, &(VkFenceCreateInfo){.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO},
                         NULL, &fence));

  // The same command buffer submitted kRuns times, each run from fresh buffers.
  int wrong = 0;
  for (int run = 0; run < kRuns; run++) {
    for (uint32_t i = 0; i < kBuffers; i++)
      if (i != kUniform) memset(maps[i], 0, kBytes[i]);
    VkSubmitInfo si = {
        .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cb};
    VK_CHECK(vkQueueSubmit(queue, 1, &si, fence));
    r = vkWaitForFences(dev, 1, &fence, VK_TRUE, 10ull * 1000 * 1000 * 1000);
    if (r == VK_TIMEOUT) {
      printf("run %d: the dispatch did not finish within 10 s\n", run);
      return 1;  // no teardown: work may still be in flight
    }
    VK_CHECK(r);
    VK_CHECK(vkResetFences(dev, 1, &fence));
    const uint32_t cnt0 = maps[0][0], atm0 = maps[2][0];
    if (cnt0 != 2 || atm0 != 1) {
      printf("run %d: cnt0 = %u, atm0 = %u (expected cnt0 = 2, atm0 = 1)\n", run, cnt0, atm0);
      wrong++;
    }
  }
  vkDestroyFence(dev, fence, NULL);
  vkDestroyCommandPool(dev, cpool, NULL);
  vkDestroyDescriptorPool(dev, dp, NULL);
  for (uint32_t i = 0; i < kBuffers; i++) {
    vkDestroyBuffer(dev, bufs[i], NULL);
    vkFreeMemory(dev, mems[i], NULL);
  }
  vkDestroyPipeline(dev, pipe, NULL);
  vkDestroyPipelineLayout(dev, pl, NULL);
  vkDestroyDescriptorSetLayout(dev, dsl, NULL);
  vkDestroyShaderModule(dev, sm, NULL);
  vkDestroyDevice(dev, NULL);
  vkDestroyInstance(inst, NULL);
  if (wrong) {
    printf("wrong: %d of %d runs\n", wrong, kRuns);
    return 1;
  }
  printf("correct: %d of %d runs gave cnt0 = 2, atm0 = 1\n", kRuns, kRuns);
  return 0;
}
