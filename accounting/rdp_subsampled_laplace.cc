#include <exactdp/accounting/rdp_subsampled_laplace.h>

#include <string>

#include <exactdp/accounting/internal/three_region_series.h>
#include <exactdp/accounting/rdp.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace exactdp::accounting {
namespace {

// Weight e^(-v/2) on [-eps, eps], ratio r = e^(v - v0); regions cut at v0 -+ ln 2 (exact reals,
// enclosed at each precision) and intersected with [-eps, eps].
class LaplacePairProblem final : public internal::ThreeRegionProblem {
 public:
  LaplacePairProblem(const mpq_class& eps, const mpq_class& q) : eps_(eps), q_(q) {}

  [[nodiscard]] Interval moment(internal::Region region, const Interval& /*j*/, const mpq_class& j,
                                mpfr_prec_t p) const override {
    const Interval v0 = log(Interval(mpq_class(1 - q_), p) / Interval(q_, p));
    const Interval ln2 = log2_interval(p);
    const Interval lo(mpq_class(-eps_), p), hi(eps_, p);
    Interval a(p), b(p);
    switch (region) {
      case internal::Region::kLeft:
        a = lo;
        b = min(hi, v0 - ln2);
        break;
      case internal::Region::kMiddle:
        a = max(lo, v0 - ln2);
        b = min(hi, v0 + ln2);
        break;
      case internal::Region::kRight:
        a = max(lo, v0 + ln2);
        b = hi;
        break;
    }
    // The region's length max(0, b - a) (it may be empty).
    const Interval length = max(b - a, Interval(p));
    const mpq_class h = j - mpq_class(1, 2);
    const Interval scale = exp(-(v0 * j));
    if (sgn(h) == 0) return scale * length;
    return scale * exp(a * h) * expm1(length * h) / h;
  }

  [[nodiscard]] std::string cache_key() const override { return "laplace " + eps_.get_str() + " " + q_.get_str(); }

 private:
  mpq_class eps_, q_;
};

void check_pair(const mpq_class& eps, const mpq_class& q) {
  if (sgn(eps) <= 0 || eps > subsampled_laplace_max_epsilon()) {
    throw ParameterError::out_of_range("epsilon", abbreviate(to_string(eps)),
                                       "0 < sensitivity/scale <= 1000 for the rdp route of a poisson-laplace event");
  }
  if (sgn(q) <= 0 || q >= 1) throw ParameterError::out_of_range("q", abbreviate(to_string(q)), "0 < q < 1");
}

// G(g) from the integral's series sum S(g) (header), at least 1 (Jensen).
Interval moment_from_sum(const Interval& sum, const mpq_class& eps, const mpq_class& q, const mpq_class& g) {
  const mpfr_prec_t p = sum.precision();
  const Interval e_eps = exp(Interval(eps, p));
  const Interval below = exp(log(Interval(mpq_class(1 - q), p) + Interval(q, p) / e_eps) * g);
  const Interval above = exp(log(Interval(mpq_class(1 - q), p) + Interval(q, p) * e_eps) * g);
  const Interval integral = sum * exp(Interval(mpq_class(-eps / 2), p) + log(Interval(mpq_class(1 - q), p)) * g);
  const Interval total = below * mpq_class(1, 2) + above / e_eps * mpq_class(1, 2) + integral * mpq_class(1, 4);
  return max(total, Interval(1L, p));
}

}  // namespace

const mpq_class& subsampled_laplace_max_epsilon() {
  static const mpq_class max_eps(1000);
  return max_eps;
}

Interval subsampled_laplace_moment(const mpq_class& eps, const mpq_class& q, const mpq_class& g, mpfr_prec_t precision) {
  check_pair(eps, q);
  return moment_from_sum(internal::three_region_sum(LaplacePairProblem(eps, q), g, precision), eps, q, g);
}

Interval subsampled_laplace_rdp(const mpq_class& eps, const mpq_class& q, const mpq_class& alpha,
                                mpfr_prec_t precision) {
  if (alpha <= 1 || alpha > kMaxSubsampledLaplaceOrder) {
    throw ParameterError::out_of_range("order", abbreviate(to_string(alpha)),
                                       "1 < order <= 256 for a poisson-laplace event");
  }
  check_pair(eps, q);
  const mpfr_prec_t p = precision + 16;
  const mpq_class beta = 1 - alpha;
  const LaplacePairProblem problem(eps, q);
  // The remove order first: when G(alpha) >= m^(1-alpha), m = 1 - q + q e^-eps, an upper bound
  // on G(1-alpha) (D_alpha(Q0 || M) <= D_inf(Q0 || M) = sup log(Q0 / M) <= -log m, as Q1/Q0 >=
  // e^-eps), the add order's alternating series (about 4 alpha terms at alpha extra bits: most
  // of the cost at large orders) is not needed.
  // Not tried when an upper bound on D_alpha(M || Q0) is already below -log m (tiny eps or q:
  // the bound cannot decide there): G(alpha) is convex in q, 1 at q = 0 and e^((alpha-1) U) at
  // q = 1 with U = min(eps, alpha eps^2 / 2) >= D_alpha(Q1 || Q0) (eps-DP, hence
  // eps^2/2-zCDP), so G(alpha) <= 1 + q (e^((alpha-1) U) - 1).
  const Interval m = Interval(mpq_class(1 - q), p) + exp(Interval(mpq_class(-eps), p)) * q;
  const mpq_class zcdp_bound = alpha * eps * eps / 2;
  const mpq_class u = zcdp_bound < eps ? zcdp_bound : eps;
  // Also G(alpha) <= E[e^(alpha q X)] <= e^(alpha^2 q^2 sinh(eps)^2 / 2), X = Q1/Q0 - 1 in
  // [e^-eps - 1, e^eps - 1] with mean 0 (Hoeffding's lemma): the cap for tiny q.
  // Compared as G - 1 (expm1, log1p: both sides are 1 + tiny there).
  const Interval convex_cap = expm1(Interval(mpq_class((alpha - 1) * u), 64)) * q;
  const Interval sinh_eps = (exp(Interval(eps, 64)) - exp(Interval(mpq_class(-eps), 64))) * mpq_class(1, 2);
  const Interval hoeffding_cap = expm1(square(sinh_eps * mpq_class(alpha * q)) * mpq_class(1, 2));
  const Interval remove_cap = min(convex_cap, hoeffding_cap);
  const Interval log_m = log1p(expm1(Interval(mpq_class(-eps), 64)) * q);  // log m
  const bool may_decide = !mpfr_less_p(remove_cap.upper(), expm1(log_m * beta).lower());
  Interval larger = may_decide ? moment_from_sum(internal::three_region_sum(problem, alpha, p), eps, q, alpha)
                               : Interval(1L, p);
  const Interval add_bound = exp(log(m) * beta);
  if (!may_decide || !mpfr_lessequal_p(add_bound.upper(), larger.lower())) {
    const internal::SumPair sums = internal::three_region_sums(problem, alpha, beta, p);
    larger = max(moment_from_sum(sums.first, eps, q, alpha), moment_from_sum(sums.second, eps, q, beta));
  }
  Interval value = log(larger) / mpq_class(alpha - 1);
  // 0 <= value <= D_alpha of the plain Laplace pair (quasi-convexity; the pair is symmetric).
  const Interval plain = alpha.get_den() == 1 ? laplace_rdp(eps, alpha.get_num().get_ui(), p) : Interval::entire(p);
  value = max(value, Interval(p));
  if (plain.is_finite()) value = min(value, Interval::from_ends(plain.upper(), plain.upper(), p));
  value.set_precision(precision);
  return value;
}

}  // namespace exactdp::accounting
