// laws.h — the law registry through the C++ facade: which laws there are, their parameters and
// capabilities, and each law's certified privacy profile delta(epsilon) and calibration map.
// The same registry the command line (`exactdp laws`), Python and the C interface read.
// Installed; part of the source-compatibility promise (docs/ABI.md).
//
// Errors: ParameterError naming "law" for an unknown law or one without the capability asked
// for, or naming the parameter with its allowed range; LimitError over a resource limit.
#pragma once

#include <gmpxx.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <exactdp/core/interval.h>
#include <exactdp/sampler.h>

namespace exactdp {

struct LawParameterInfo {
  std::string name;                          // "sigma2"
  bool integer = false;                      // an integer (else any rational)
  std::optional<std::string> default_value;  // nullopt: required
  std::string range;                         // "sigma2 > 0"
  std::string help;                          // one line
};

struct LawInfo {
  std::string name;     // "discrete-gaussian"
  std::string summary;  // one line
  std::vector<LawParameterInfo> parameters;
  bool samples = false;         // Sampler::make
  bool hardened = false;        // Sampler::make with options.hardened
  bool profile = false;         // law_delta
  bool calibrates = false;      // law_calibrate
};

// Every law of the registry, in its order.
[[nodiscard]] std::vector<LawInfo> law_list();
[[nodiscard]] LawInfo law_info(std::string_view law);

// The law's certified delta(epsilon) (epsilon >= 0) at its noise and privacy parameters (e.g.
// {{"sigma2", "14"}, {"sensitivity", "1"}}): an interval of MPFR numbers that contains it.
// tau_upper, when given (a hardened sampler's tau_upper()), adds the hardened charge
// (1 + e^epsilon) tau_upper (docs/HARDENED.md).
[[nodiscard]] Interval law_delta(std::string_view law, const LawArguments& arguments, const mpq_class& epsilon,
                                 const std::optional<mpq_class>& tau_upper = std::nullopt);

// A certified calibration: the law with {parameter = value} (and the given privacy parameters)
// is (epsilon, delta_at.upper())-DP, and delta_at.upper() <= the target delta.
struct LawCalibration {
  std::string parameter;  // the noise parameter's name: "sigma", "sigma2", "scale"
  mpq_class value;        // exact; use it as is (a larger value is at least as private)
  Interval delta_at{kDefaultPrecision};  // certified delta(epsilon) at value
};
// The law's calibration map at (epsilon, delta) and its privacy parameters (e.g. sensitivity).
[[nodiscard]] LawCalibration law_calibrate(std::string_view law, const LawArguments& arguments,
                                           const mpq_class& epsilon, const mpq_class& delta);

}  // namespace exactdp
