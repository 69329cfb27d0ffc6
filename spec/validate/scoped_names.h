// Lexical scopes of local names (Let bindings and loop variables). Since no
// name may shadow a live one (V008), each name has at most one live binding,
// so one map plus a list of names per open scope is enough.
#pragma once

#include <string_view>
#include <unordered_map>
#include <vector>

namespace vyre {

/// Live local names, each bound to a T; names are views into the program,
/// which outlives the walk.
template <typename T>
class ScopedNames {
 public:
  /// Opens a child scope (Block, If arm, loop body).
  void open() { scopes_.emplace_back(); }
  /// Closes the innermost scope, ending its names.
  void close() {
    for (std::string_view name : scopes_.back()) live_.erase(name);
    scopes_.pop_back();
  }
  /// Binds `name` in the innermost scope; false, binding nothing, when the
  /// name is already live here or in an outer scope.
  bool declare(std::string_view name, T value) {
    if (!live_.try_emplace(name, std::move(value)).second) return false;
    scopes_.back().push_back(name);
    return true;
  }
  /// The live binding of `name`, or nullptr.
  const T* find(std::string_view name) const {
    const auto it = live_.find(name);
    return it == live_.end() ? nullptr : &it->second;
  }
  /// The live binding of `name`, to update in place, or nullptr.
  T* find(std::string_view name) {
    const auto it = live_.find(name);
    return it == live_.end() ? nullptr : &it->second;
  }

 private:
  std::unordered_map<std::string_view, T> live_;
  std::vector<std::vector<std::string_view>> scopes_ =
      std::vector<std::vector<std::string_view>>(1);
};

}  // namespace vyre
