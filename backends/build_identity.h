// Which build of this program is running, for caches whose entries our own
// code computed (a lowering's SPIR-V): an entry made by another build may
// differ, so it must never be found by this one.
#pragma once

#include <string>

namespace vyre {

/// The running executable's GNU build ID (the linker's hash of its
/// contents, `readelf -n`) in lowercase hex; empty when it carries none.
std::string executable_build_id();

}  // namespace vyre
