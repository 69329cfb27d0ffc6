/* A small complete plugin, in C: a backend that runs one program shape, the
 * elementwise BinOp over u32 pairs that the suite's `L1/spec/binop/...` cases
 * use (out[i] = OP(pairs[2i], pairs[2i+1]) for i < buflen(out)), and answers
 * VYRE_STATUS_NOT_SUPPORTED to every other program. Certified at L1 on those
 * cases (the --filter in CMakeLists.txt), it passes; a real backend would
 * lower every program instead of recognising one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/plugin_abi.h"

/* The BinOps, u32 x u32 -> u32, as the pinned spec section 3 defines them. */
typedef enum binop {
  OP_ADD,
  OP_SUB,
  OP_MUL,
  OP_DIV,
  OP_MOD,
  OP_BIT_AND,
  OP_BIT_OR,
  OP_BIT_XOR,
  OP_SHL,
  OP_SHR,
  OP_EQ,
  OP_NE,
  OP_LT,
  OP_GT,
  OP_LE,
  OP_GE,
  OP_AND,
  OP_OR
} binop;

static const struct {
  const char* name;
  binop op;
} kOps[] = {
    {"add", OP_ADD}, {"sub", OP_SUB},         {"mul", OP_MUL},       {"div", OP_DIV},
    {"mod", OP_MOD}, {"bit_and", OP_BIT_AND}, {"bit_or", OP_BIT_OR}, {"bit_xor", OP_BIT_XOR},
    {"shl", OP_SHL}, {"shr", OP_SHR},         {"eq", OP_EQ},         {"ne", OP_NE},
    {"lt", OP_LT},   {"gt", OP_GT},           {"le", OP_LE},         {"ge", OP_GE},
    {"and", OP_AND}, {"or", OP_OR},
};

static uint32_t apply(binop op, uint32_t a, uint32_t b) {
  switch (op) {
    case OP_ADD:
      return a + b; /* wrapping mod 2^32 */
    case OP_SUB:
      return a - b;
    case OP_MUL:
      return a * b; /* low 32 bits */
    case OP_DIV:
      return b == 0 ? 0 : a / b; /* x / 0 = 0, not an error */
    case OP_MOD:
      return b == 0 ? 0 : a % b;
    case OP_BIT_AND:
      return a & b;
    case OP_BIT_OR:
      return a | b;
    case OP_BIT_XOR:
      return a ^ b;
    case OP_SHL:
      return a << (b & 31); /* so 1 << 32 = 1 */
    case OP_SHR:
      return a >> (b & 31); /* logical */
    case OP_EQ:
      return a == b;
    case OP_NE:
      return a != b;
    case OP_LT:
      return a < b; /* unsigned compares */
    case OP_GT:
      return a > b;
    case OP_LE:
      return a <= b;
    case OP_GE:
      return a >= b;
    case OP_AND:
      return a != 0 && b != 0; /* logical on truthiness */
    case OP_OR:
      return a != 0 || b != 0;
  }
  return 0;
}

/* The one program this backend runs, as the host prints it (vyre text,
 * spec/text/GRAMMAR.md): the workgroup size and the op name vary. */
static const char kProgramFormat[] =
    "program {\n"
    "  workgroup_size(%u, %u, %u)\n"
    "  buffer pairs: u32 read_only @0\n"
    "  buffer out: u32 read_write @1\n"
    "  if lt(invocation_id.x, buflen(out)) {\n"
    "    out[invocation_id.x] = %s(pairs[mul(invocation_id.x, 2)], "
    "pairs[add(mul(invocation_id.x, 2), 1)])\n"
    "  }\n"
    "}\n";

struct vyre_plugin_instance {
  int unused;
};

struct vyre_plugin_program {
  binop op;
  uint32_t workgroup_x;
};

/* What one dispatch hands back, freed in free_outputs(). */
typedef struct output_hold {
  vyre_buffer view;
  uint8_t* bytes;
} output_hold;

static vyre_status create(vyre_plugin_instance** out_instance, char* message,
                          size_t message_capacity) {
  *out_instance = calloc(1, sizeof(vyre_plugin_instance));
  if (*out_instance == NULL) {
    snprintf(message, message_capacity, "out of memory");
    return VYRE_STATUS_ERROR;
  }
  return VYRE_STATUS_OK;
}

static vyre_status probe(vyre_plugin_instance* instance, vyre_capabilities* out, char* message,
                         size_t message_capacity) {
  (void)instance;
  (void)message;
  (void)message_capacity;
  snprintf(out->device_name, sizeof out->device_name, "host CPU, one program shape");
  snprintf(out->driver, sizeof out->driver, "binop backend 1.0");
  snprintf(out->api, sizeof out->api, "C");
  out->max_workgroup_invocations = 1024;
  out->max_workgroup_size[0] = out->max_workgroup_size[1] = out->max_workgroup_size[2] = 1024;
  out->max_workgroup_count[0] = out->max_workgroup_count[1] = out->max_workgroup_count[2] = 65535;
  out->max_storage_buffer_bytes = (uint64_t)1 << 30;
  out->max_uniform_buffer_bytes = 65536;
  out->max_workgroup_memory_bytes = 0;
  out->preferred_workgroup_size = 64;
  return VYRE_STATUS_OK;
}

static vyre_status compile(vyre_plugin_instance* instance, const char* program_text,
                           size_t program_text_size, vyre_plugin_program** out_program,
                           char* message, size_t message_capacity) {
  unsigned x = 0, y = 0, z = 0;
  char name[16] = {0};
  const char* assignment = strstr(program_text, "out[invocation_id.x] = ");
  (void)instance;
  if (sscanf(program_text, "program {\n  workgroup_size(%u, %u, %u)", &x, &y, &z) == 3 &&
      assignment != NULL && sscanf(assignment, "out[invocation_id.x] = %15[a-z_](", name) == 1) {
    size_t i;
    for (i = 0; i < sizeof kOps / sizeof kOps[0]; ++i) {
      char expected[1024];
      if (strcmp(kOps[i].name, name) != 0) continue;
      /* The whole text must be the shape, not merely contain it. */
      snprintf(expected, sizeof expected, kProgramFormat, x, y, z, name);
      if (strlen(expected) != program_text_size || strcmp(expected, program_text) != 0) break;
      *out_program = calloc(1, sizeof(vyre_plugin_program));
      if (*out_program == NULL) {
        snprintf(message, message_capacity, "out of memory");
        return VYRE_STATUS_ERROR;
      }
      (*out_program)->op = kOps[i].op;
      (*out_program)->workgroup_x = x;
      return VYRE_STATUS_OK;
    }
  }
  snprintf(message, message_capacity,
           "the binop backend runs only out[i] = OP(pairs[2i], pairs[2i+1])");
  return VYRE_STATUS_NOT_SUPPORTED;
}

/* The buffer named `name` among the inputs (sorted by name), or NULL. */
static const vyre_buffer* find_buffer(const vyre_buffer* inputs, uint32_t count, const char* name) {
  uint32_t i;
  for (i = 0; i < count; ++i) {
    if (strcmp(inputs[i].name, name) == 0) return &inputs[i];
  }
  return NULL;
}

static uint32_t load_u32(const uint8_t* bytes) {
  return (uint32_t)bytes[0] | (uint32_t)bytes[1] << 8 | (uint32_t)bytes[2] << 16 |
         (uint32_t)bytes[3] << 24;
}

static void store_u32(uint8_t* bytes, uint32_t value) {
  bytes[0] = (uint8_t)value;
  bytes[1] = (uint8_t)(value >> 8);
  bytes[2] = (uint8_t)(value >> 16);
  bytes[3] = (uint8_t)(value >> 24);
}

static vyre_status dispatch(vyre_plugin_instance* instance, vyre_plugin_program* program,
                            const vyre_buffer* inputs, uint32_t input_count, const uint32_t grid[3],
                            vyre_dispatch_result* out_result, char* message,
                            size_t message_capacity) {
  const vyre_buffer* pairs = find_buffer(inputs, input_count, "pairs");
  const vyre_buffer* out = find_buffer(inputs, input_count, "out");
  output_hold* hold;
  uint64_t i, words, pair_words, invocations;
  (void)instance;
  if (pairs == NULL || out == NULL) {
    snprintf(message, message_capacity, "the host sent no `pairs` or no `out` buffer");
    return VYRE_STATUS_ERROR;
  }
  hold = calloc(1, sizeof(output_hold));
  if (hold == NULL || (hold->bytes = malloc(out->size + 1)) == NULL) {
    free(hold);
    snprintf(message, message_capacity, "out of memory");
    return VYRE_STATUS_ERROR;
  }
  if (out->size > 0) memcpy(hold->bytes, out->data, out->size);
  words = out->size / 4;
  pair_words = pairs->size / 4;
  /* invocation_id.x runs over grid[0] workgroups of workgroup_x; the y and z
   * axes repeat the same writes. The guard stops at buflen(out). */
  invocations = (uint64_t)grid[0] * program->workgroup_x;
  for (i = 0; i < words && i < invocations; ++i) {
    /* Out-of-bounds loads read 0 (pinned spec section 5). */
    uint32_t a = 2 * i < pair_words ? load_u32(pairs->data + 8 * i) : 0;
    uint32_t b = 2 * i + 1 < pair_words ? load_u32(pairs->data + 8 * i + 4) : 0;
    store_u32(hold->bytes + 4 * i, apply(program->op, a, b));
  }
  hold->view.name = "out";
  hold->view.data = hold->bytes;
  hold->view.size = out->size;
  out_result->outputs = &hold->view;
  out_result->output_count = 1;
  out_result->plugin_data = hold;
  return VYRE_STATUS_OK;
}

static void free_outputs(vyre_plugin_instance* instance, vyre_dispatch_result* result) {
  output_hold* hold = result->plugin_data;
  (void)instance;
  if (hold != NULL) free(hold->bytes);
  free(hold);
}

static void release(vyre_plugin_instance* instance, vyre_plugin_program* program) {
  (void)instance;
  free(program);
}

static void destroy(vyre_plugin_instance* instance) {
  free(instance);
}

static const vyre_plugin_v1 kTable = {
    VYRE_PLUGIN_ABI_VERSION,
    "binop",
    create,
    probe,
    compile,
    dispatch,
    free_outputs,
    release,
    destroy,
};

VYRE_PLUGIN_EXPORT const vyre_plugin_v1* vyre_plugin_entry(void) {
  return &kTable;
}
