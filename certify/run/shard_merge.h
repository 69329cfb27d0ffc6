// `vyre-certify merge`: the reports of the N shards of one run (`--shard
// I/N`) joined into the report the unsharded run would have given, judged
// again and sealed as usual.
#pragma once

#include <string>
#include <vector>

#include "certify/report/report.h"
#include "certify/report/report_read.h"
#include "spec/support/result.h"

namespace vyre::certify {

/// Joins `shards` (any order) into one report: cases in `catalog_order` (the
/// ids of this build's catalog for the shards' seed and level), phases and
/// wall time summed, the earliest start, L5's coverage joined, levels and
/// verdict judged again, `shards` holding each shard's digest in shard order.
/// An Error names the mismatch and the file: a report without `shard`, a
/// different shard count, a shard index given twice or missing, another
/// seed, runs, level, filter, backend, device, suite version or selection,
/// a case in two shards, cases that are not the selection the shards name,
/// or a case missing from `catalog_order`.
Result<Report> merge_shard_reports(const std::vector<SealedReport>& shards,
                                   const std::vector<std::string>& catalog_order);

}  // namespace vyre::certify
