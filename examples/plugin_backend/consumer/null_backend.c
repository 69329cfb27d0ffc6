/* The smallest complete plugin, in C: a backend that supports nothing (every
 * compile answers VYRE_STATUS_NOT_SUPPORTED), so a certification of it runs
 * and reports every level uncertified. Start a real backend from here. */
#include <stdio.h>
#include <stdlib.h>

#include "backends/plugin_abi.h"

struct vyre_plugin_instance {
  int unused;
};

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
  snprintf(out->device_name, sizeof out->device_name, "nothing");
  snprintf(out->driver, sizeof out->driver, "null backend 1.0");
  snprintf(out->api, sizeof out->api, "none");
  out->preferred_workgroup_size = 64;
  return VYRE_STATUS_OK;
}

static vyre_status compile(vyre_plugin_instance* instance, const char* program_text,
                           size_t program_text_size, vyre_plugin_program** out_program,
                           char* message, size_t message_capacity) {
  (void)instance;
  (void)program_text;
  (void)program_text_size;
  (void)out_program;
  snprintf(message, message_capacity, "the null backend runs no programs");
  return VYRE_STATUS_NOT_SUPPORTED;
}

static vyre_status dispatch(vyre_plugin_instance* instance, vyre_plugin_program* program,
                            const vyre_buffer* inputs, uint32_t input_count, const uint32_t grid[3],
                            vyre_dispatch_result* out_result, char* message,
                            size_t message_capacity) {
  (void)instance;
  (void)program;
  (void)inputs;
  (void)input_count;
  (void)grid;
  (void)out_result;
  snprintf(message, message_capacity, "the null backend compiles nothing to dispatch");
  return VYRE_STATUS_ERROR;
}

static void free_outputs(vyre_plugin_instance* instance, vyre_dispatch_result* result) {
  (void)instance;
  (void)result;
}

static void release(vyre_plugin_instance* instance, vyre_plugin_program* program) {
  (void)instance;
  (void)program;
}

static void destroy(vyre_plugin_instance* instance) {
  free(instance);
}

static const vyre_plugin_v1 kTable = {
    VYRE_PLUGIN_ABI_VERSION,
    "null",
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
