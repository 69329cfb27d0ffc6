// GLSL 450 as a dialect of the shared C-like lowering (backends/clike).
#pragma once

#include "backends/clike/dialect.h"

namespace vyre::vulkan {

/// How the lowering spells GLSL 450 compute shaders.
const clike::Dialect& glsl_dialect();

}  // namespace vyre::vulkan
