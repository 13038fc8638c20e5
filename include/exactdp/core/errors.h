// errors.h — the exceptions exactdp throws for bad input.
//
// Every public parameter is validated once, when its parameter object is built and before any
// randomness is drawn. A bad value throws ParameterError (derived from std::invalid_argument),
// whose message names the parameter, the value given and the allowed range, e.g.
//   "sigma2 = -1 is out of range: allowed sigma2 > 0".
// A value over a documented resource limit (SECURITY.md, "Limits") throws LimitError, a
// ParameterError whose message names the limit. Nothing falls back to a default silently.
#pragma once

#include <stdexcept>
#include <string>

namespace exactdp {

class ParameterError : public std::invalid_argument {
 public:
  // parameter: the name the user knows (e.g. "sigma2"); detail: the whole sentence after it.
  ParameterError(std::string parameter, const std::string& message)
      : std::invalid_argument(message), parameter_(std::move(parameter)) {}

  // "NAME = VALUE is out of range: allowed ALLOWED"
  static ParameterError out_of_range(const std::string& parameter, const std::string& value,
                                     const std::string& allowed) {
    return ParameterError(parameter, parameter + " = " + value +
                                         " is out of range: allowed " + allowed);
  }

  [[nodiscard]] const std::string& parameter() const noexcept { return parameter_; }

 private:
  std::string parameter_;
};

class LimitError : public ParameterError {
 public:
  using ParameterError::ParameterError;
};

}  // namespace exactdp
