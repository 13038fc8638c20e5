#include <exactdp/accounting/parameter_checks.h>

#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace exactdp::accounting {
namespace {

[[noreturn]] void out_of_range(const char* name, const mpq_class& value, const std::string& allowed) {
  throw ParameterError::out_of_range(name, abbreviate(to_string(value)), allowed);
}

}  // namespace

void require_nonnegative(const char* name, const mpq_class& value) {
  if (sgn(value) < 0) out_of_range(name, value, std::string(name) + " >= 0");
}

void require_positive(const char* name, const mpq_class& value) {
  if (sgn(value) <= 0) out_of_range(name, value, std::string(name) + " > 0");
}

void require_open_unit(const char* name, const mpq_class& value) {
  if (sgn(value) <= 0 || value >= 1) out_of_range(name, value, std::string("0 < ") + name + " < 1");
}

void require_positive_at_most(const char* name, const mpq_class& value, const mpq_class& maximum,
                              const std::string& maximum_text) {
  if (sgn(value) <= 0 || value > maximum) {
    out_of_range(name, value, std::string("0 < ") + name + " <= " + maximum_text);
  }
}

void require_nonnegative_at_most(const char* name, const mpq_class& value,
                                 const mpq_class& maximum, const std::string& maximum_text) {
  if (sgn(value) < 0 || value > maximum) {
    out_of_range(name, value, std::string("0 <= ") + name + " <= " + maximum_text);
  }
}

void require_integer_sensitivity(const mpz_class& sensitivity) {
  if (sgn(sensitivity) <= 0) {
    throw ParameterError::out_of_range("sensitivity", abbreviate(to_string(sensitivity)),
                                       "an integer sensitivity >= 1");
  }
}

}  // namespace exactdp::accounting
