// calibrate_dp_sgd.h — the operation `calibrate dp-sgd`: the certified noise multiplier of
// DP-SGD (Poisson rate q, `steps` steps, add/remove-one) by the pld route (default) or the rdp
// route (accounting/dp_sgd_calibration.h; docs/DESIGN.md, "Operations"). The command line
// (cli/cmd_calibrate_dp_sgd.cc) and Python (python/src/calibrate_dp_sgd.cc) build a
// CalibrateDpSgdRequest and print or convert the report; the steps limit, the route, the cost
// limits (the library's) and every printed field are here.
//
// Example:
//   CalibrateDpSgdRequest r{.q = mpq_class(1, 100), .steps = checked_dp_sgd_steps("1000"),
//                           .epsilon = 1, .delta = mpq_class(1, 100000)};
//   const CalibrateDpSgdReport c = calibrate_dp_sgd(r);   // c.sigma_to_use
#pragma once

#include <gmpxx.h>
#include <mpfr.h>

#include <string>

#include <exactdp/accounting/dp_sgd_calibration.h>
#include <exactdp/operations/spelling.h>

namespace exactdp::operations {

inline constexpr unsigned long kMaxDpSgdSteps = 1'000'000'000;

struct CalibrateDpSgdRequest {
  mpq_class q{};
  unsigned long steps = 1;  // checked_dp_sgd_steps
  mpq_class epsilon{};
  mpq_class delta{};
  std::string route = "pld";  // pld or rdp
  int digits = 20;            // significant digits the face prints (sets sigma_to_use and the precision)
  Spelling spelling = kCommandLineSpelling;
};

struct CalibrateDpSgdReport {
  accounting::DpSgdAnswer answer;
  mpfr_prec_t precision = 64;  // of the printed sigma bracket
  std::string sigma_to_use{};  // the sigma to use, as printed
  std::string neighbouring{};  // "add/remove-one"
};

// The number of steps from its integer text, 1 <= steps <= 10^9, else ParameterError naming steps.
[[nodiscard]] unsigned long checked_dp_sgd_steps(const std::string& text);

// Checks the route and the parameters (ParameterError / LimitError naming the parameter), then
// searches.
[[nodiscard]] CalibrateDpSgdReport calibrate_dp_sgd(const CalibrateDpSgdRequest& request);

}  // namespace exactdp::operations
