#include "cli/accounting_options.h"

#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

#include <string>

namespace exactdp::cli {

std::vector<OptionSpec> with_report_options(std::vector<OptionSpec> specs) {
  specs.push_back({"--json", false});
  specs.push_back({"--digits", true});
  for (const auto& s : help_option_specs()) specs.push_back(s);
  return specs;
}

std::vector<OptionSpec> with_accounting_options(std::vector<OptionSpec> specs) {
  specs.push_back({"--tolerance", true});
  return with_report_options(std::move(specs));
}

int digits_option(const ParsedArgs& parsed, unsigned long long maximum) {
  const auto d = parsed.count("--digits", 1, maximum);
  return d ? static_cast<int>(*d) : 20;
}

accounting::ZivOptions ziv_options_from_tolerance(const ParsedArgs& parsed, TinyTolerance tiny,
                                                  unsigned long max_bits) {
  return operations::checked_ziv_options(parsed.rational("--tolerance"), tiny, max_bits);
}

std::string tolerance_text(const mpq_class& tolerance) {
  if (tolerance.get_num() == 1 && mpz_popcount(tolerance.get_den_mpz_t()) == 1) {
    return "2^-" + std::to_string(mpz_sizeinbase(tolerance.get_den_mpz_t(), 2) - 1);
  }
  return to_string(tolerance);
}

}  // namespace exactdp::cli
