#include <exactdp/operations/tolerance.h>

#include <string>

#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace exactdp::operations {

accounting::ZivOptions checked_ziv_options(const std::optional<mpq_class>& tolerance, TinyTolerance tiny,
                                           unsigned long max_bits) {
  accounting::ZivOptions options;
  if (tolerance) {
    const mpq_class& t = *tolerance;
    const bool tiny_out_of_range = tiny == TinyTolerance::kOutOfRange && t < accounting::minimum_tolerance();
    if (sgn(t) <= 0 || tiny_out_of_range || t >= 1) {
      throw ParameterError::out_of_range("tolerance", abbreviate(to_string(t)), "2^-10000 <= tolerance < 1");
    }
    options.tolerance = t;
  }
  options.validate();  // kBelowMinimum: refuses 0 < tolerance < 2^-10000
  accounting::check_tolerance_bits(options, max_bits);
  return options;
}

}  // namespace exactdp::operations
