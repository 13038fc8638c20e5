#include <exactdp/mechanisms/aggregate/optimal_partition_selection.h>

#include <algorithm>
#include <stdexcept>

#include <exactdp/accounting/parameter_checks.h>
#include <exactdp/core/interval.h>
#include <exactdp/samplers/bernoulli.h>

namespace exactdp::mechanisms {
namespace {

constexpr mpfr_prec_t kPrec = exactdp::kDefaultPrecision;
constexpr unsigned long kGuardBits = 64;

// An MPFR number as m 2^e (exact).
struct Dyadic {
  mpz_class mantissa;
  long exponent = 0;
};

Dyadic dyadic_of(mpfr_srcptr x) {
  Dyadic d;
  d.exponent = mpfr_get_z_2exp(d.mantissa.get_mpz_t(), x);
  return d;
}

// floor(d x) for an integer x >= 0.
mpz_class times_down(const Dyadic& d, const mpz_class& x) {
  mpz_class out = d.mantissa * x;
  if (d.exponent >= 0) {
    mpz_mul_2exp(out.get_mpz_t(), out.get_mpz_t(), static_cast<mp_bitcnt_t>(d.exponent));
  } else {
    mpz_fdiv_q_2exp(out.get_mpz_t(), out.get_mpz_t(), static_cast<mp_bitcnt_t>(-d.exponent));
  }
  return out;
}

// ceil(x / E) for an integer x >= 0 and E = m 2^e > 0.
mpz_class divided_up(const mpz_class& x, const Dyadic& e) {
  mpz_class num = x, out;
  mpz_class den = e.mantissa;
  if (e.exponent < 0) {
    mpz_mul_2exp(num.get_mpz_t(), num.get_mpz_t(), static_cast<mp_bitcnt_t>(-e.exponent));
  } else {
    mpz_mul_2exp(den.get_mpz_t(), den.get_mpz_t(), static_cast<mp_bitcnt_t>(e.exponent));
  }
  mpz_cdiv_q(out.get_mpz_t(), num.get_mpz_t(), den.get_mpz_t());
  return out;
}

void check_parameters(const mpq_class& epsilon, const mpq_class& delta) {
  accounting::require_positive_at_most("epsilon", epsilon, mpq_class(1'000'000), "10^6");
  accounting::require_open_unit("delta", delta);
}

// x <= E y for integers y >= 0 and E = m 2^e > 0: x 2^-e <= m y when e < 0, x <= m y 2^e else.
bool at_most_times(const mpz_class& x, const Dyadic& e, const mpz_class& y) {
  if (sgn(x) <= 0) return true;
  mpz_class lhs = x, rhs = e.mantissa * y;
  if (e.exponent < 0) {
    mpz_mul_2exp(lhs.get_mpz_t(), lhs.get_mpz_t(), static_cast<mp_bitcnt_t>(-e.exponent));
  } else {
    mpz_mul_2exp(rhs.get_mpz_t(), rhs.get_mpz_t(), static_cast<mp_bitcnt_t>(e.exponent));
  }
  return lhs <= rhs;
}

// (A)-(D) for p(n-1) = a / 2^b, p(n) = c / 2^b, multiplied by 2^b, with delta 2^b replaced by
// d = floor(delta 2^b) <= delta 2^b (which only makes each condition harder to meet):
// e.g. (A) c - d <= E a implies c / 2^b - delta <= e^eps a / 2^b.
bool pair_is_private(const mpz_class& a, const mpz_class& c, const mpz_class& scale, const Dyadic& e_lower,
                     const mpz_class& d) {
  return at_most_times(c - d, e_lower, a) &&                                   // (A)
         at_most_times(a - d, e_lower, c) &&                                   // (B)
         at_most_times(scale - a - d, e_lower, mpz_class(scale - c)) &&        // (C)
         at_most_times(scale - c - d, e_lower, mpz_class(scale - a));          // (D)
}

// floor(delta 2^b).
mpz_class scaled_delta(const mpq_class& delta, const mpz_class& scale) {
  mpz_class d;
  mpz_fdiv_q(d.get_mpz_t(), mpz_class(scale * delta.get_num()).get_mpz_t(), delta.get_den_mpz_t());
  return d;
}

}  // namespace

mpq_class OptimalSelectionTable::probability(const mpz_class& units) const {
  if (sgn(units) <= 0) return 0;
  const std::size_t last = numerators.size() - 1;
  const std::size_t n = units.fits_ulong_p() ? std::min<std::size_t>(units.get_ui(), last) : last;
  mpq_class p(numerators[n]);
  mpq_div_2exp(p.get_mpq_t(), p.get_mpq_t(), bits);
  return p;
}

std::optional<std::size_t> OptimalSelectionTable::saturation() const {
  if (!saturated) return std::nullopt;
  return numerators.size() - 1;
}

OptimalSelectionTable optimal_selection_table(const mpq_class& epsilon, const mpq_class& delta,
                                              std::size_t max_entries) {
  check_parameters(epsilon, delta);
  OptimalSelectionTable t;
  t.epsilon = epsilon;
  t.delta = delta;
  mpz_class inverse;  // ceil(1 / delta)
  mpz_cdiv_q(inverse.get_mpz_t(), delta.get_den_mpz_t(), delta.get_num_mpz_t());
  t.bits = mpz_sizeinbase(inverse.get_mpz_t(), 2) + kGuardBits;
  const std::size_t entry_bytes = t.bits / 8 + 32;
  max_entries = std::max<std::size_t>(2, std::min(max_entries, kMaxOptimalSelectionBytes / entry_bytes));
  mpz_class scale;  // 2^b
  mpz_ui_pow_ui(scale.get_mpz_t(), 2, t.bits);
  const mpz_class d = scaled_delta(delta, scale);  // D
  const Dyadic e_lower = dyadic_of(exactdp::exp(exactdp::Interval(epsilon, kPrec)).lower());
  t.numerators.push_back(0);
  while (t.numerators.size() < max_entries) {
    const mpz_class& prev = t.numerators.back();
    mpz_class next = times_down(e_lower, prev) + d;                   // (A)
    const mpz_class slack = scale - d - prev;
    if (sgn(slack) > 0) next = std::min(next, mpz_class(scale - divided_up(slack, e_lower)));  // (C)
    next = std::min(next, scale);
    t.numerators.push_back(std::move(next));
    if (t.numerators.back() == scale) {
      t.saturated = true;
      break;
    }
  }
  return t;
}

std::vector<mpq_class> selection_probabilities(const OptimalSelectionTable& table) {
  std::vector<mpq_class> out;
  out.reserve(table.numerators.size());
  for (std::size_t n = 0; n < table.numerators.size(); ++n) out.push_back(table.probability(n));
  return out;
}

std::optional<std::size_t> first_uncertified_selection_step(const OptimalSelectionTable& table) {
  check_parameters(table.epsilon, table.delta);
  const std::vector<mpz_class>& p = table.numerators;
  mpz_class scale;
  mpz_ui_pow_ui(scale.get_mpz_t(), 2, table.bits);
  if (p.empty() || sgn(p[0]) != 0) return 0;
  const mpz_class d = scaled_delta(table.delta, scale);
  const Dyadic e_lower = dyadic_of(exactdp::exp(exactdp::Interval(table.epsilon, kPrec)).lower());
  for (std::size_t n = 1; n <= p.size(); ++n) {
    const mpz_class& a = p[n - 1];
    const mpz_class& c = n < p.size() ? p[n] : p[n - 1];  // n = size: the constant extension
    if (sgn(c) < 0 || c > scale || !pair_is_private(a, c, scale, e_lower, d)) return n;
  }
  return std::nullopt;
}

bool draw_optimal_selection(BitSource& bits, const OptimalSelectionTable& table, const mpz_class& units) {
  if (sgn(units) <= 0) return false;
  return sample_bernoulli(bits, BernoulliParams::make(table.probability(units)));
}

}  // namespace exactdp::mechanisms
