#include <exactdp/accounting/ziv.h>

#include <string>

#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace exactdp::accounting {
// An upper bound on ceil(-log2(tolerance)) (at most 1 above it), 0 for tolerance >= 1.
long tolerance_bits(const mpq_class& tolerance) {
  if (tolerance >= 1) return 0;
  // -log2(num/den) = log2(den) - log2(num); sizeinbase(.,2) = floor(log2) + 1.
  const long den_bits = static_cast<long>(mpz_sizeinbase(tolerance.get_den_mpz_t(), 2));
  const long num_bits = static_cast<long>(mpz_sizeinbase(tolerance.get_num_mpz_t(), 2));
  return den_bits - num_bits + 1;
}

mpq_class default_tolerance() { return power_of_two(-100); }
mpq_class minimum_tolerance() { return power_of_two(-10000); }

void ZivOptions::validate() const {
  if (tolerance < minimum_tolerance()) {
    throw ParameterError::out_of_range("tolerance", abbreviate(to_string(tolerance)),
                                       "tolerance >= 2^-10000");
  }
  if (initial_precision < 32 || initial_precision > kMaxPrecision) {
    throw ParameterError::out_of_range("precision", std::to_string(initial_precision),
                                       "32 <= initial precision <= " +
                                           std::to_string(kMaxPrecision) + " bits");
  }
  if (max_precision < initial_precision || max_precision > kMaxPrecision) {
    throw ParameterError::out_of_range("precision", std::to_string(max_precision),
                                       "initial precision <= max precision <= " +
                                           std::to_string(kMaxPrecision) + " bits");
  }
}

mpfr_prec_t starting_precision(const ZivOptions& options) {
  long p = tolerance_bits(options.tolerance) + 24;
  if (p < options.initial_precision) p = options.initial_precision;
  if (p > options.max_precision) p = options.max_precision;
  return static_cast<mpfr_prec_t>(p);
}

Certified evaluate_to_tolerance(const std::function<Interval(mpfr_prec_t)>& f,
                                const ZivOptions& options) {
  options.validate();
  mpfr_prec_t p = starting_precision(options);
  Certified out{f(p), false, p};
  long previous_width = kInfiniteWidthLog2;
  for (;;) {
    if (!out.value.is_valid()) throw std::logic_error("evaluate_to_tolerance: invalid interval");
    if (out.value.is_point() || relative_width_at_most(out.value, options.tolerance)) {
      out.tolerance_met = true;
      return out;
    }
    // Stalled: an upper end in the bottom half of MPFR's exponent range (below 2^(emin/2),
    // about 2^(-2^61)) comes from an underflowed or clamped bound that precision does not
    // improve (profile gaussian at eps = 10^99999 went through 10 doublings to 65536 bits, 50 ms
    // a point, for the same bound).
    if (mpfr_zero_p(out.value.upper()) == 0 && mpfr_regular_p(out.value.upper()) != 0 &&
        mpfr_get_exp(out.value.upper()) < mpfr_get_emin() / 2) {
      return out;
    }
    const long width = relative_width_log2(out.value);
    // Stalled: a finite relative width that did not shrink over the last doubling comes from an
    // error term that precision does not reduce. (An infinite one, e.g. from cancellation, may
    // still resolve at a higher precision, so we keep going.)
    if (width != kInfiniteWidthLog2 && previous_width != kInfiniteWidthLog2 &&
        width >= previous_width) {
      return out;
    }
    if (p >= options.max_precision) return out;
    previous_width = width;
    p = (2 * p > options.max_precision) ? options.max_precision : 2 * p;
    Interval next = f(p);
    out.value = intersect(next, out.value);  // both certified, so nested answers
    out.precision = p;
  }
}

}  // namespace exactdp::accounting
