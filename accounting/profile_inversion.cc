#include <exactdp/accounting/profile_inversion.h>

#include <exactdp/accounting/parameter_checks.h>

namespace exactdp::accounting {
namespace {

// The smallest power of two hi in [1, 2^20] with f(hi) <= delta proven, and the largest
// preceding point lo (0 or hi / 2) — nullopt when none is found.
std::optional<std::pair<mpq_class, mpq_class>> bracket(
    const std::function<Interval(const mpq_class&, mpfr_prec_t)>& f, const mpq_class& delta, mpfr_prec_t p) {
  mpq_class lo(0), hi(1);
  while (hi <= mpq_class(1 << 20)) {
    if (upper_at_most(f(hi, p), delta)) return std::make_pair(lo, hi);
    lo = hi;
    hi *= 2;
  }
  return std::nullopt;
}

}  // namespace

std::optional<Certified> profile_epsilon(const std::function<Interval(const mpq_class&, mpfr_prec_t)>& f,
                                         const mpq_class& delta, const ZivOptions& options) {
  require_open_unit("delta", delta);
  const mpfr_prec_t p = starting_precision(options);
  if (upper_at_most(f(mpq_class(0), p), delta)) return Certified{Interval(0L, p), true, p};
  auto found = bracket(f, delta, p);
  if (!found) return std::nullopt;
  auto [lo, hi] = *found;
  if (sgn(lo) > 0 && !lower_above(f(lo, p), delta)) lo = 0;  // keep only a proven lower end
  bool met = false;
  const long max_steps = tolerance_bits(options.tolerance) + 100;  // the bracket halves each step
  for (long step = 0; step < max_steps; ++step) {
    if ((hi - lo) <= hi * options.tolerance) {
      met = true;
      break;
    }
    const mpq_class mid = (lo + hi) / 2;
    const Interval at = f(mid, p);
    if (upper_at_most(at, delta)) {
      hi = mid;
    } else if (lower_above(at, delta)) {
      lo = mid;
    } else {
      break;  // undecided at this precision: the bracket stays certified
    }
  }
  Interval value(lo, p);
  const Interval upper(hi, p);
  mpfr_set(value.upper(), upper.upper(), MPFR_RNDU);
  return Certified{value, met, p};
}

}  // namespace exactdp::accounting
