/* A shared library without vyre_plugin_entry, for the loader's "missing
 * symbol" test. Compiled as C99 with every warning, it also proves that
 * backends/plugin_abi.h is plain C. */
#include "backends/plugin_abi.h"

VYRE_PLUGIN_EXPORT size_t vyre_plugin_entry_misspelled(void) {
  return sizeof(vyre_plugin_v1) + sizeof(vyre_capabilities) + sizeof(vyre_dispatch_result);
}
