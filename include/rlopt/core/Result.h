#ifndef RLOPT_CORE_RESULT_H
#define RLOPT_CORE_RESULT_H

#include <cassert>
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace rlopt {

/// A user-facing error: one line that names what is wrong and where.
struct Error {
  std::string message;
};

inline Error makeError(std::string message) {
  return Error{std::move(message)};
}

/// A value or an Error. Errors are values on every path a user's input can
/// reach; exceptions never cross module boundaries.
template <typename T> class Result {
public:
  Result(T value) : storage(std::move(value)) {}
  Result(Error error) : storage(std::move(error)) {}

  bool ok() const { return storage.index() == 0; }
  explicit operator bool() const { return ok(); }

  T &value() {
    assert(ok());
    return std::get<0>(storage);
  }
  const T &value() const {
    assert(ok());
    return std::get<0>(storage);
  }
  T &operator*() { return value(); }
  const T &operator*() const { return value(); }
  T *operator->() { return &value(); }
  const T *operator->() const { return &value(); }

  const Error &error() const {
    assert(!ok());
    return std::get<1>(storage);
  }
  T takeValue() { return std::move(std::get<0>(storage)); }

private:
  std::variant<T, Error> storage;
};

/// Success or an Error, for operations without a value.
class Status {
public:
  Status() = default;
  Status(Error error) : err(std::move(error)) {}
  static Status success() { return Status(); }

  bool ok() const { return !err.has_value(); }
  explicit operator bool() const { return ok(); }
  const Error &error() const { return *err; }

private:
  std::optional<Error> err;
};

} // namespace rlopt

#endif
