// Opening a driver's loader library (libvulkan, libOpenCL, NVRTC) at run
// time, so that the binary starts on a machine without it and says what it
// tried when it is missing.
#pragma once

#include <dlfcn.h>

#include <span>
#include <string>

#include "spec/support/result.h"

namespace vyre {

/// The first of `names` that dlopen (RTLD_NOW | RTLD_LOCAL) opens; an Error
/// holding every name's dlerror(), joined by "; ", when none does. The
/// handle is never closed: the library's functions serve the whole process.
inline Result<void*> open_first_library(std::span<const char* const> names) {
  std::string tried;
  for (const char* name : names) {
    if (void* library = dlopen(name, RTLD_NOW | RTLD_LOCAL)) return library;
    const char* why = dlerror();
    tried += std::string(tried.empty() ? "" : "; ") + (why != nullptr ? why : name);
  }
  return Error{tried};
}

}  // namespace vyre
