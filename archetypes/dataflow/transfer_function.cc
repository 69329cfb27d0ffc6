#include "archetypes/dataflow/transfer_function.h"

#include "spec/ir/builder.h"

namespace vyre::dataflow {
namespace {

using namespace vyre::build;

uint32_t param_or(const TransferParams& params, std::string_view name, uint32_t fallback) {
  auto it = params.find(name);
  return it == params.end() ? fallback : it->second;
}

TransferFunction allow_all(const TransferParams&) {
  return {"allow_all", [](const TransferArgs&) { return u32(1); },
          [](uint32_t, uint32_t, uint32_t, uint32_t) -> uint32_t { return 1; }};
}

TransferFunction block_mask(const TransferParams& params) {
  const uint32_t mask = param_or(params, "mask", kSanitizerMetadataBit);
  return {"block_mask",
          [mask](const TransferArgs& a) { return eq(bit_and(a.metadata, u32(mask)), u32(0)); },
          [mask](uint32_t, uint32_t, uint32_t, uint32_t metadata) -> uint32_t {
            return (metadata & mask) == 0 ? 1 : 0;
          }};
}

TransferFunction forward_only(const TransferParams&) {
  return {"forward_only", [](const TransferArgs& a) { return gt(a.target, a.current); },
          [](uint32_t, uint32_t current, uint32_t target, uint32_t) -> uint32_t {
            return target > current ? 1 : 0;
          }};
}

const std::vector<BuiltinTransfer>& table() {
  static const std::vector<BuiltinTransfer> rows = {
      {"allow_all",
       "every edge carries the fact (sanitizers are ignored)",
       {},
       allow_all,
       [](const TransferParams&) { return false; }},
      {"block_mask",
       "an edge carries the fact iff (node_metadata[target] & mask) == 0; sanitizers set bit 0",
       {{"mask", kSanitizerMetadataBit}},
       block_mask,
       [](const TransferParams& p) {
         return (param_or(p, "mask", kSanitizerMetadataBit) & kSanitizerMetadataBit) != 0;
       }},
      {"forward_only",
       "an edge carries the fact iff target > current (program order)",
       {},
       forward_only,
       [](const TransferParams&) { return false; }},
  };
  return rows;
}

const BuiltinTransfer* find(std::string_view name) {
  for (const BuiltinTransfer& row : table()) {
    if (row.name == name) return &row;
  }
  return nullptr;
}

}  // namespace

std::span<const BuiltinTransfer> builtin_transfers() {
  return table();
}

Result<TransferFunction> make_transfer(std::string_view name, const TransferParams& params) {
  const BuiltinTransfer* row = find(name);
  if (!row) {
    std::string known;
    for (const BuiltinTransfer& r : table())
      known += (known.empty() ? "" : ", ") + std::string(r.name);
    return Error{"unknown transfer function '" + std::string(name) + "'. Fix: use one of " + known +
                 "."};
  }
  for (const auto& [key, value] : params) {
    bool found = false;
    for (const auto& [p, fallback] : row->params) found = found || p == key;
    if (found) continue;
    std::string takes;
    for (const auto& [p, fallback] : row->params)
      takes += (takes.empty() ? "" : ", ") + std::string(p);
    return Error{"transfer function '" + std::string(name) + "' has no parameter '" + key +
                 "'. Fix: " +
                 (takes.empty() ? std::string("it takes no parameters; remove it")
                                : "use one of: " + takes) +
                 "."};
  }
  return row->make(params);
}

bool blocks_sanitizers(std::string_view name, const TransferParams& params) {
  const BuiltinTransfer* row = find(name);
  return row && row->blocks_sanitizers(params);
}

}  // namespace vyre::dataflow
