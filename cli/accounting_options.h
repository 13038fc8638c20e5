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

#include <exactdp/accounting/composition_limits.h>
#include <exactdp/accounting/ziv.h>
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

// How a positive --tolerance below 2^-10000 is refused, which the commands word differently:
//   kOutOfRange   "2^-10000 <= tolerance < 1", like 0 or 1 (calibrate, profile);
//   kBelowMinimum "tolerance >= 2^-10000", by ZivOptions::validate (convert, compose).
enum class TinyTolerance { kOutOfRange, kBelowMinimum };

// The cost limit of --tolerance: the Ziv loops' work grows about as the cube of the bits asked
// for (`convert gdp --mu 1`: 0.4 s at 10^-200, 3.3 s at 10^-500, 21 s at 10^-1000), so every
// command refuses R below 2^-kMaxToleranceBits (about 10^-602) with LimitError naming
// "tolerance", and `compose pure-dp --method all` (six methods, 5.9 s at 10^-200, 24 s at
// 10^-300) below 2^-kMaxAllMethodsToleranceBits (about 10^-180). --digits alone costs little
// (10,000 digits print in milliseconds): its ranges stay as they are.
inline constexpr unsigned long kMaxToleranceBits = 2000;
inline constexpr unsigned long kMaxAllMethodsToleranceBits = 600;
// `compose --event`: accounting/composition_limits.h (2^-700, about 10^-210).
inline constexpr unsigned long kMaxEventToleranceBits = accounting::kMaxEventToleranceBits;

// ZivOptions with --tolerance R as its relative width (default 2^-100); R must satisfy
// 2^-10000 <= R < 1, else ParameterError naming "tolerance"; R below 2^-max_bits is refused
// with LimitError naming "tolerance" (the cost limit above).
[[nodiscard]] accounting::ZivOptions ziv_options_from_tolerance(const ParsedArgs& parsed,
                                                                TinyTolerance tiny,
                                                                unsigned long max_bits = kMaxToleranceBits);

// The tolerance as printed: "2^-k" for a power of two below 1, else the exact rational.
[[nodiscard]] std::string tolerance_text(const mpq_class& tolerance);

}  // namespace exactdp::cli
