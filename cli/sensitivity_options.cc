#include "cli/sensitivity_options.h"

#include "samplers/errors.h"
#include "samplers/rational.h"

namespace exactdp::cli {

mpq_class positive_option(const ParsedArgs& parsed, const std::string& option) {
  const mpq_class v = parsed.require_rational(option);
  if (sgn(v) <= 0) {
    const std::string name = parameter_name(option);
    throw ParameterError::out_of_range(name, abbreviate(to_string(v)), name + " > 0");
  }
  return v;
}

void require_positive_sensitivity(const mpq_class& sensitivity) {
  if (sgn(sensitivity) <= 0) {
    throw ParameterError::out_of_range("sensitivity", abbreviate(to_string(sensitivity)),
                                       "sensitivity > 0");
  }
}

void require_integer_sensitivity(const mpz_class& sensitivity) {
  if (sgn(sensitivity) <= 0) {
    throw ParameterError::out_of_range("sensitivity", abbreviate(to_string(sensitivity)),
                                       "an integer sensitivity >= 1");
  }
}

mpq_class real_sensitivity_option(const ParsedArgs& parsed) {
  const mpq_class v = parsed.rational("--sensitivity").value_or(mpq_class(1));
  require_positive_sensitivity(v);
  return v;
}

mpz_class integer_sensitivity_option(const ParsedArgs& parsed) {
  const mpz_class v = parsed.integer("--sensitivity").value_or(mpz_class(1));
  require_integer_sensitivity(v);
  return v;
}

}  // namespace exactdp::cli
