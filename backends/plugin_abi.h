/* The vyre plugin C ABI, version 1: how a shared library built outside this
 * repo provides a vyre::Backend (backends/backend.h) to
 * `vyre-certify --backend ./libmybackend.so`. Pure C so that any compiler and
 * language can implement it; backends/PLUGINS.md is the walkthrough.
 *
 * Lifecycle. The host (vyre-certify) does, in order:
 *   1. dlopen the library and call vyre_plugin_entry(); the table it returns
 *      must have abi_version == VYRE_PLUGIN_ABI_VERSION, or the host stops.
 *   2. create() one instance, then probe() it once.
 *   3. Any number of compile(), dispatch() + free_outputs(), release().
 *   4. destroy() the instance, after every program handle was released.
 *
 * Ownership.
 *   - Whatever the host passes (program text, input buffers, grid, message
 *     buffers, result structs) is host-owned and valid only during the call;
 *     copy what you keep.
 *   - The table and the strings it points to are plugin-owned and must stay
 *     valid while the library is loaded.
 *   - A program handle from compile() is plugin-owned; the host passes it to
 *     release() exactly once and never uses it after.
 *   - Output buffers filled in by dispatch() are plugin-owned; after EVERY
 *     dispatch() call, whatever its status, the host passes the same result
 *     struct to free_outputs() exactly once (it starts zeroed, so a plugin that
 *     filled nothing in has nothing to free).
 *   - Messages: the host hands in a zeroed buffer of message_capacity bytes;
 *     write a NUL-terminated UTF-8 explanation (snprintf) when the status is
 *     not VYRE_STATUS_OK. The host truncates anything unterminated.
 *
 * Threads. The host never calls into one instance from two threads at once,
 * though successive calls may come from different threads. Calls on
 * different instances may overlap, so keep global state thread-safe.
 *
 * Trust. The host checks everything a plugin returns (status codes, buffer
 * names and sizes, null pointers) and by default runs the plugin in a child
 * process (backends/isolation), so a crash or hang fails one call, not the run.
 * C++ plugins must not let exceptions escape these functions.
 */
#ifndef VYRE_PLUGIN_ABI_H
#define VYRE_PLUGIN_ABI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version this header describes; bumped on any incompatible change. */
#define VYRE_PLUGIN_ABI_VERSION 1u
/* The one symbol a plugin exports. */
#define VYRE_PLUGIN_ENTRY_SYMBOL "vyre_plugin_entry"
/* Bytes of each string array in vyre_capabilities, NUL included. */
#define VYRE_PLUGIN_TEXT_CAPACITY 256

#if defined(__GNUC__) || defined(__clang__)
#define VYRE_PLUGIN_EXPORT __attribute__((visibility("default")))
#else
#define VYRE_PLUGIN_EXPORT
#endif

/* Outcome of a call; the values and their order mirror vyre::Status. */
typedef int32_t vyre_status;
#define VYRE_STATUS_OK 0            /* Success. */
#define VYRE_STATUS_NOT_SUPPORTED 1 /* The program needs more than the device offers. */
#define VYRE_STATUS_COMPILE_ERROR 2 /* Lowering or the driver rejected the program. */
#define VYRE_STATUS_DEVICE_LOST 3   /* The device was lost; recreate it on the next call. */
#define VYRE_STATUS_TIMEOUT 4       /* The dispatch did not finish in time. */
#define VYRE_STATUS_BAD_OUTPUT 5    /* The device produced malformed output. */
#define VYRE_STATUS_ERROR 6         /* Any other failure; explain it in the message. */

/* What the device offers; fields mirror vyre::Capabilities, except
 * max_dispatch_invocations, which version 1 cannot carry (a plugin reports no
 * such limit; backends/PLUGINS.md says why). The host zeroes it before
 * probe(); strings are NUL-terminated within their arrays. */
typedef struct vyre_capabilities {
  char device_name[VYRE_PLUGIN_TEXT_CAPACITY];
  char driver[VYRE_PLUGIN_TEXT_CAPACITY]; /* Driver name and version. */
  char api[VYRE_PLUGIN_TEXT_CAPACITY];    /* e.g. "Vulkan 1.3.230". */
  uint32_t max_workgroup_invocations;
  uint32_t max_workgroup_size[3];
  uint32_t max_workgroup_count[3];
  uint64_t max_storage_buffer_bytes;
  uint64_t max_uniform_buffer_bytes;
  uint64_t max_workgroup_memory_bytes;
  uint32_t preferred_workgroup_size; /* Invocations; 64 if unknown. */
} vyre_capabilities;

/* One named buffer of raw little-endian bytes (layout: spec/SEMANTICS.md S1).
 * data may be NULL only when size is 0. */
typedef struct vyre_buffer {
  const char* name; /* NUL-terminated buffer name from the program. */
  const uint8_t* data;
  uint64_t size; /* In bytes. */
} vyre_buffer;

/* What dispatch() fills in; zeroed by the host before the call. */
typedef struct vyre_dispatch_result {
  /* One entry per read_write buffer of the program, each exactly as long as
   * its input, in any order (set when the status is VYRE_STATUS_OK). */
  const vyre_buffer* outputs;
  uint32_t output_count;
  /* Wall times of the phases in milliseconds (0 when not measured). */
  double setup_ms;
  double upload_ms;
  double execute_ms;
  double readback_ms;
  /* The plugin's own bookkeeping for free_outputs(); the host never reads it. */
  void* plugin_data;
} vyre_dispatch_result;

/* A plugin's instance and compiled program; defined only inside the plugin. */
typedef struct vyre_plugin_instance vyre_plugin_instance;
typedef struct vyre_plugin_program vyre_plugin_program;

/* The function table of ABI version 1. Every pointer must be set. */
typedef struct vyre_plugin_v1 {
  /* VYRE_PLUGIN_ABI_VERSION; the first member in every version of the ABI. */
  uint32_t abi_version;
  /* Backend name shown in reports: 1-64 printable ASCII characters. */
  const char* name;
  /* Makes an instance (opens the device); on success sets *out_instance. */
  vyre_status (*create)(vyre_plugin_instance** out_instance, char* message,
                        size_t message_capacity);
  /* Fills *out with the device's capabilities; called once per instance. */
  vyre_status (*probe)(vyre_plugin_instance* instance, vyre_capabilities* out, char* message,
                       size_t message_capacity);
  /* Translates one validated program given in the vyre text format
   * (spec/text/GRAMMAR.md; program_text[program_text_size] is NUL). Pure: no
   * device work needed. On VYRE_STATUS_OK sets *out_program to a non-NULL
   * handle; on any other status leaves it NULL. */
  vyre_status (*compile)(vyre_plugin_instance* instance, const char* program_text,
                         size_t program_text_size, vyre_plugin_program** out_program, char* message,
                         size_t message_capacity);
  /* Runs a compiled program once on grid[0] x grid[1] x grid[2] workgroups.
   * inputs holds every non-workgroup buffer of the program (read_write ones
   * with their initial contents), sorted by name. */
  vyre_status (*dispatch)(vyre_plugin_instance* instance, vyre_plugin_program* program,
                          const vyre_buffer* inputs, uint32_t input_count, const uint32_t grid[3],
                          vyre_dispatch_result* out_result, char* message, size_t message_capacity);
  /* Frees what one dispatch() put into *result. */
  void (*free_outputs)(vyre_plugin_instance* instance, vyre_dispatch_result* result);
  /* Frees a program handle from compile(). */
  void (*release)(vyre_plugin_instance* instance, vyre_plugin_program* program);
  /* Frees the instance. */
  void (*destroy)(vyre_plugin_instance* instance);
} vyre_plugin_v1;

/* The type of the entry point, for dlsym. */
typedef const vyre_plugin_v1* (*vyre_plugin_entry_fn)(void);

/* The entry point every plugin defines: returns its static function table.
 * Cheap and side-effect free; called once per load. */
VYRE_PLUGIN_EXPORT const vyre_plugin_v1* vyre_plugin_entry(void);

#ifdef __cplusplus
}
#endif

#endif /* VYRE_PLUGIN_ABI_H */
