#include <exactdp/accounting/zcdp.h>

#include <functional>

#include <exactdp/accounting/parameter_checks.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace exactdp::accounting {
namespace {

const mpq_class kMaxRho(1'000'000'000);
constexpr mpfr_prec_t kSearchPrecision = 64;
constexpr int kGoldenSteps = 170;
constexpr long kMinLog2AlphaMinus1 = -300;
constexpr long kMaxLog2AlphaMinus1 = 2000;

void validate_epsilon(const mpq_class& epsilon) {
  require_nonnegative_at_most("epsilon", epsilon, kMaxRho, "10^9");
}

void validate_delta_open(const mpq_class& delta) { require_open_unit("delta", delta); }

// alpha = 1 + 2^x as an exact rational (x an MPFR number; 2^x rounded down is some number > 0,
// and whatever it is, the alpha built from it is exactly the rational we then use).
mpq_class alpha_of(mpfr_srcptr x) {
  Real z(kSearchPrecision);
  mpfr_exp2(z.get(), x, MPFR_RNDD);  // direction irrelevant: any alpha > 1 is valid
  return to_mpq(z.get()) + 1;
}

// Golden-section search for the x in [kMin, kMax] minimising objective(alpha_of(x)), where
// objective returns a certified interval and we compare upper ends (the value we would use).
// The search is a heuristic: its output is only ever used as "some alpha > 1".
mpq_class search_alpha(const std::function<Interval(const mpq_class&)>& objective) {
  // Points are kept as MPFR numbers at kSearchPrecision; the rounding direction of the
  // bracket arithmetic does not matter for validity (see the header), we use RNDD throughout.
  Real a(kSearchPrecision), b(kSearchPrecision), c(kSearchPrecision), d(kSearchPrecision);
  Real inv_phi(kSearchPrecision), tmp(kSearchPrecision);
  mpfr_set_si(a.get(), kMinLog2AlphaMinus1, MPFR_RNDD);
  mpfr_set_si(b.get(), kMaxLog2AlphaMinus1, MPFR_RNDD);
  // 1/phi = (sqrt(5) - 1) / 2
  mpfr_sqrt_ui(inv_phi.get(), 5, MPFR_RNDD);
  mpfr_sub_ui(inv_phi.get(), inv_phi.get(), 1, MPFR_RNDD);
  mpfr_div_2ui(inv_phi.get(), inv_phi.get(), 1, MPFR_RNDD);
  auto place = [&](Real& out, const Real& from, const Real& to) {  // from + (to-from)/phi
    mpfr_sub(tmp.get(), to.get(), from.get(), MPFR_RNDD);
    mpfr_mul(tmp.get(), tmp.get(), inv_phi.get(), MPFR_RNDD);
    mpfr_add(out.get(), from.get(), tmp.get(), MPFR_RNDD);
  };
  place(d, a, b);  // d = a + (b-a)/phi
  place(c, b, a);  // c = b - (b-a)/phi
  auto value = [&](const Real& x) {
    Real v(kSearchPrecision);
    const Interval f = objective(alpha_of(x.get()));
    mpfr_set(v.get(), f.upper(), MPFR_RNDU);
    return v;
  };
  Real fc = value(c), fd = value(d);
  for (int step = 0; step < kGoldenSteps; ++step) {
    if (mpfr_cmp(fc.get(), fd.get()) <= 0) {  // minimum in [a, d]
      b = d;
      d = c;
      fd = fc;
      place(c, b, a);
      fc = value(c);
    } else {  // minimum in [c, b]
      a = c;
      c = d;
      fc = fd;
      place(d, a, b);
      fd = value(d);
    }
  }
  return mpfr_cmp(fc.get(), fd.get()) <= 0 ? alpha_of(c.get()) : alpha_of(d.get());
}

}  // namespace

void validate_rho(const mpq_class& rho) {
  require_nonnegative_at_most("rho", rho, kMaxRho, "10^9");
}

mpq_class zcdp_rho_gaussian(const mpq_class& sigma, const mpq_class& sensitivity) {
  require_positive("sigma", sigma);
  require_positive("sensitivity", sensitivity);
  return sensitivity * sensitivity / (2 * sigma * sigma);
}

mpq_class zcdp_rho_discrete_gaussian(const mpq_class& sigma2, const mpz_class& sensitivity) {
  require_positive("sigma2", sigma2);
  require_integer_sensitivity(sensitivity);
  return mpq_class(sensitivity * sensitivity) / (2 * sigma2);
}

mpq_class zcdp_rho_pure_dp(const mpq_class& epsilon) {
  require_nonnegative("epsilon", epsilon);
  return epsilon * epsilon / 2;
}

mpq_class zcdp_compose(std::span<const mpq_class> rhos) {
  mpq_class sum(0);
  for (const auto& rho : rhos) {
    require_nonnegative("rho", rho);
    sum += rho;
  }
  return sum;
}

namespace {
// log of the Corollary 13 delta: (alpha - 1)(alpha rho - epsilon) + (alpha - 1) log(1 - 1/alpha)
// - log alpha. Used by the search (no overflow) and by cks20_delta_at_alpha.
Interval cks20_log_delta_at_alpha(const mpq_class& rho, const mpq_class& epsilon,
                                  const mpq_class& alpha, mpfr_prec_t precision) {
  if (alpha <= 1) throw ParameterError::out_of_range("alpha", to_string(alpha), "alpha > 1");
  const Interval a(alpha, precision);
  const Interval a1(mpq_class(alpha - 1), precision);  // exact rational, one rounding per end
  // (alpha - 1)(alpha rho - epsilon): alpha rho - epsilon is an exact rational
  const Interval first = a1 * Interval(mpq_class(alpha * rho - epsilon), precision);
  // (alpha - 1) log(1 - 1/alpha) = (alpha - 1) log1p(-1/alpha)
  const Interval inv_alpha(mpq_class(1 / alpha), precision);
  const Interval second = a1 * log1p(-inv_alpha);
  return first + second - log(a);
}
}  // namespace

Interval cks20_delta_at_alpha(const mpq_class& rho, const mpq_class& epsilon,
                              const mpq_class& alpha, mpfr_prec_t precision) {
  return exp(cks20_log_delta_at_alpha(rho, epsilon, alpha, precision));
}

Interval cks20_epsilon_at_alpha(const mpq_class& rho, const mpq_class& delta,
                                const mpq_class& alpha, mpfr_prec_t precision) {
  if (alpha <= 1) throw ParameterError::out_of_range("alpha", to_string(alpha), "alpha > 1");
  const Interval a(alpha, precision);
  const mpq_class alpha_minus_1 = alpha - 1;
  const Interval a1(alpha_minus_1, precision);
  const Interval log_inv_delta = -log(Interval(delta, precision));
  const Interval inv_alpha(mpq_class(1 / alpha), precision);
  const Interval numerator = log_inv_delta + a1 * log1p(-inv_alpha) - log(a);
  return Interval(mpq_class(alpha * rho), precision) + numerator / alpha_minus_1;
}

ZcdpConversion zcdp_delta(const mpq_class& rho, const mpq_class& epsilon,
                          const ZivOptions& options) {
  validate_rho(rho);
  validate_epsilon(epsilon);
  options.validate();
  if (rho == 0) return {Certified{Interval(0L, kDefaultPrecision), true, kDefaultPrecision}, 2};
  const mpq_class alpha = search_alpha([&](const mpq_class& a) {
    return cks20_log_delta_at_alpha(rho, epsilon, a, kSearchPrecision);
  });
  Certified c = evaluate_to_tolerance(
      [&](mpfr_prec_t p) {
        return min(cks20_delta_at_alpha(rho, epsilon, alpha, p), Interval(1L, p));
      },
      options);
  return {std::move(c), alpha};
}

ZcdpConversion zcdp_epsilon(const mpq_class& rho, const mpq_class& delta,
                            const ZivOptions& options) {
  validate_rho(rho);
  validate_delta_open(delta);
  options.validate();
  if (rho == 0) return {Certified{Interval(0L, kDefaultPrecision), true, kDefaultPrecision}, 2};
  const mpq_class alpha = search_alpha([&](const mpq_class& a) {
    return cks20_epsilon_at_alpha(rho, delta, a, kSearchPrecision);
  });
  Certified c = evaluate_to_tolerance(
      [&](mpfr_prec_t p) {
        return max(cks20_epsilon_at_alpha(rho, delta, alpha, p), Interval(0L, p));
      },
      options);
  return {std::move(c), alpha};
}

}  // namespace exactdp::accounting
