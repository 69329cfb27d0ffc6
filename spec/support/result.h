// Errors are values: Result<T> holds a T or an Error, and no exception crosses
// a library boundary (style.md, point 6).
#pragma once

#include <string>
#include <utility>
#include <variant>

#include "spec/support/source_loc.h"

namespace vyre {

/// A user-facing failure with an actionable message.
struct Error {
  std::string message;
  /// Where in a text input the problem is, when it came from one.
  SourceLoc loc = {};
};

/// A value or the error that prevented it (an Error unless a layer needs
/// more, e.g. the backend's Status beside the message).
template <typename T, typename E = Error>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}
  Result(E error) : v_(std::move(error)) {}

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

  const E& error() const { return std::get<1>(v_); }

 private:
  std::variant<T, E> v_;
};

/// Success with no value.
struct Ok {};

}  // namespace vyre
