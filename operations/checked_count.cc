#include <exactdp/operations/checked_count.h>

#include <gmpxx.h>

#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace exactdp::operations {

unsigned long long checked_count(const std::string& name, const std::string& text, unsigned long long minimum,
                                 unsigned long long maximum) {
  const mpz_class n = parse_integer(name, text);
  const mpz_class lo(std::to_string(minimum)), hi(std::to_string(maximum));
  if (n < lo || n > hi) {
    throw ParameterError::out_of_range(name, abbreviate(text),
                                       std::to_string(minimum) + " <= " + name + " <= " + std::to_string(maximum));
  }
  return std::stoull(n.get_str());
}

std::optional<mpq_class> optional_rational(std::string_view name, const std::optional<std::string>& text) {
  if (!text) return std::nullopt;
  return parse_rational(name, *text);
}

}  // namespace exactdp::operations
