// Errors that point into a TOML file (rules or graph): `KIND FILE:L:C:
// problem. Fix: fix.`, the same form for every key of every file, and the
// u32 reader both files need.
#pragma once

#include <toml++/toml.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "spec/support/result.h"

namespace vyre::dataflow {

/// Builds errors for one TOML text.
class TomlErrors {
 public:
  /// `kind` names the file's role ("dataflow rules"), `origin` the file.
  TomlErrors(std::string_view kind, std::string_view origin) : kind_(kind), origin_(origin) {}

  /// A problem at `where`, with how to fix it.
  Error at(const toml::source_region& where, const std::string& problem,
           const std::string& fix) const;
  /// A problem of the whole file (a missing key): anchored at 1:1, so every
  /// error has the same file:line:col form.
  Error whole(const std::string& problem, const std::string& fix) const;
  /// `node` as a u32; an error naming `what` (the key as written) otherwise.
  Result<uint32_t> u32(const toml::node& node, const std::string& what) const;

 private:
  Error located(SourceLoc loc, const std::string& problem, const std::string& fix) const;

  std::string kind_;
  std::string origin_;
};

}  // namespace vyre::dataflow
