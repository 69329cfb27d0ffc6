// The order a certification's lanes take its cases in; the report lists
// them in catalogue order whatever it is.
#pragma once

#include <cstddef>
#include <vector>

#include "certify/suite/suite_case.h"

namespace vyre::certify {

/// Indices into `cases`, in the order the lanes take them: the driver bugs
/// the suite found (L5/found) first, then the rest, each group in catalogue
/// order. Those cases are the likeliest to crash or hang a driver (NVIDIA
/// 580's compiler dies on one in every Vulkan run), and what follows a crash
/// (retries, a fresh backend process) then runs beside the rest of the run
/// instead of after it; the user also sees a known bug first.
std::vector<size_t> run_order(const std::vector<const SuiteCase*>& cases);

}  // namespace vyre::certify
