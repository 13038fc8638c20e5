// accounting_options.h — the options the accounting commands (calibrate, profile, convert,
// compose, measure-gdp) and audit share: --json, --digits D and --tolerance R, read one way everywhere.
//
// Example:
//   const ParsedArgs parsed(args, with_accounting_options({{"--epsilon", true}}));
//   if (print_help_if_asked(parsed, kHelp, io.out)) return 0;
//   const int digits = digits_option(parsed, 1000);                       // default 20
//   const accounting::ZivOptions options =
//       ziv_options_from_tolerance(parsed, TinyTolerance::kOutOfRange);   // default 2^-100
#pragma once

#include <gmpxx.h>

#include <string>
#include <vector>

#include <exactdp/accounting/ziv.h>
#include <exactdp/operations/tolerance.h>
#include "cli/args.h"

namespace exactdp::cli {

// The command's own specs followed by --json, --digits D, --help and -h: the options of every
// command that prints a report (accounting commands and audit).
[[nodiscard]] std::vector<OptionSpec> with_report_options(std::vector<OptionSpec> specs);
// with_report_options plus --tolerance R.
[[nodiscard]] std::vector<OptionSpec> with_accounting_options(std::vector<OptionSpec> specs);

// --digits D: significant digits printed, 1 <= D <= maximum (ParameterError naming "digits"
// otherwise); 20 when the option is absent.
[[nodiscard]] int digits_option(const ParsedArgs& parsed, unsigned long long maximum);

// The tolerance's range and cost limits live in operations/tolerance.h, where the operations
// (compose, convert) check them for the command line and Python alike: 2^-2000 (about 10^-602)
// for every command, 2^-600 (about 10^-180) for `compose pure-dp --method gdp|all`, 2^-700 for
// `compose --event`. --digits alone costs little (10,000 digits print in milliseconds): its
// ranges stay as they are.
using operations::TinyTolerance;
inline constexpr unsigned long kMaxToleranceBits = operations::kMaxToleranceBits;
inline constexpr unsigned long kMaxAllMethodsToleranceBits = operations::kMaxAllMethodsToleranceBits;
inline constexpr unsigned long kMaxEventToleranceBits = operations::kMaxEventToleranceBits;

// ZivOptions with --tolerance R as its relative width (default 2^-100); R must satisfy
// 2^-10000 <= R < 1, else ParameterError naming "tolerance"; R below 2^-max_bits is refused
// with LimitError naming "tolerance" (operations::checked_ziv_options).
[[nodiscard]] accounting::ZivOptions ziv_options_from_tolerance(const ParsedArgs& parsed,
                                                                TinyTolerance tiny,
                                                                unsigned long max_bits = kMaxToleranceBits);

// The tolerance as printed: "2^-k" for a power of two below 1, else the exact rational.
[[nodiscard]] std::string tolerance_text(const mpq_class& tolerance);

}  // namespace exactdp::cli
