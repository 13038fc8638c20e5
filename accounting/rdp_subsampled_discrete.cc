#include <exactdp/accounting/rdp_subsampled_discrete.h>

#include <mpfr.h>

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <vector>

#include <exactdp/accounting/rdp.h>
#include <exactdp/core/errors.h>

namespace exactdp::accounting {
namespace {

constexpr long kMaxDiscreteLaplaceSensitivity = 1000;
const mpq_class kMaxSigma2(2500);
constexpr long kMaxGaussianSensitivity = 1000;

// The base event's discrete noise (its maps' discrete_laplace_noise() or discrete_gaussian_noise()):
// the scale or sigma2, and the sensitivity.
struct BaseNoise {
  bool laplace = false;
  mpq_class noise;
  mpq_class sens;
  [[nodiscard]] const mpq_class& noise_parameter() const { return noise; }
  [[nodiscard]] const mpq_class& sensitivity() const { return sens; }
};

std::optional<BaseNoise> base_noise(const PrivacyEvent& base) {
  if (const auto l = base.maps().discrete_laplace_noise()) return BaseNoise{true, l->scale, mpq_class(l->sensitivity)};
  if (const auto g = base.maps().discrete_gaussian_noise()) return BaseNoise{false, g->sigma2, mpq_class(g->sensitivity)};
  return std::nullopt;
}

// The atoms of Q0 for the add-order sum: masses and y = 1 - q + q r, enclosed.
struct Atoms {
  std::vector<Interval> mass, log_y;
  Interval tail_low{0L, kDefaultPrecision};   // Q0-mass of outcomes below the atoms (y < 1)
  Interval tail_high{0L, kDefaultPrecision};  // Q0-mass above (y >= 1)
};

// 1/(alpha-1) log(sum), clamped at 0 below (every divergence is >= 0; the sum is >= 1 by
// Jensen, so only rounding can take its enclosure below).
Interval divergence(const Interval& sum, const mpq_class& alpha, mpfr_prec_t p) {
  Interval v = log(sum) / mpq_class(alpha - 1);
  return max(v, Interval(0L, p));
}

// E_Q0[y^power] over the atoms (+ the tails' largest share when `with_tails`).
Interval expectation(const Atoms& a, const Interval& power, mpfr_prec_t p, const Interval& low_cap) {
  Interval sum(0L, p);
  for (std::size_t i = 0; i < a.mass.size(); ++i) sum = sum + a.mass[i] * exp(a.log_y[i] * power);
  // tails: y^power <= low_cap below, <= 1 above (power <= 0 there; for the remove order the
  // discrete Laplace has no tails)
  const Interval extra = a.tail_low * low_cap + a.tail_high;
  return hull(sum, sum + extra);
}

Atoms discrete_laplace_atoms(const BaseNoise& base, const mpq_class& q, mpfr_prec_t p) {
  const mpq_class& t = base.noise_parameter();
  const long d = mpz_get_si(base.sensitivity().get_num_mpz_t());
  const Interval e1 = exp(-Interval(1 / t, p));
  const Interval z = (e1 + mpq_class(1)) / (Interval(1L, p) - e1);
  const Interval half = Interval(1L, p) / (e1 + mpq_class(1));
  const Interval ed = exp(-Interval(mpq_class(d) / t, p));
  Atoms a;
  const auto add = [&](const Interval& mass, const Interval& r) {
    a.mass.push_back(mass);
    a.log_y.push_back(log(r * q + (1 - q)));
  };
  add(half, ed);  // x <= 0
  for (long x = 1; x < d; ++x) add(exp(-Interval(mpq_class(x) / t, p)) / z, exp(Interval(mpq_class(2 * x - d) / t, p)));
  add(ed * half, exp(Interval(mpq_class(d) / t, p)));  // x >= Delta
  return a;
}

// The discrete Gaussian's weights w(x) = e^(-x^2/(2 sigma2)) and log y(x) on [-X, X + Delta],
// cached per thread for the last parameters (the accountant asks for ~120 orders in a row) and
// widened when an order needs a larger X.
struct GaussianCache {
  mpq_class s2, q;
  mpz_class delta;
  mpfr_prec_t p = 0;
  long x_max = -1;
  Interval z{0L, kDefaultPrecision};
  std::vector<Interval> w, log_y;  // index x + x_max
};

Interval dg_weight(const mpq_class& s2, long x, mpfr_prec_t p) { return exp(-Interval(mpq_class(x) * x / (2 * s2), p)); }
Interval dg_tail_after(const mpq_class& s2, long m, mpfr_prec_t p) {  // sum_{x > m} w(x), geometric bound
  return dg_weight(s2, m + 1, p) / (Interval(1L, p) - exp(-Interval(mpq_class(m + 1) / s2, p)));
}

const GaussianCache& dg_cache(const BaseNoise& base, const mpq_class& q, long x_needed, mpfr_prec_t p) {
  thread_local GaussianCache c;
  const mpq_class& s2 = base.noise_parameter();
  const mpz_class delta = base.sensitivity().get_num();
  if (c.p == p && c.s2 == s2 && c.q == q && c.delta == delta && c.x_max >= x_needed) return c;
  const long d = mpz_get_si(delta.get_mpz_t());
  c = GaussianCache{s2, q, delta, p, std::max(x_needed, c.x_max), Interval(0L, p), {}, {}};
  Interval core(0L, p);
  for (long x = -(c.x_max + d); x <= c.x_max + d; ++x) core = core + dg_weight(s2, x, p);
  c.z = hull(core, core + dg_tail_after(s2, c.x_max + d, p) * mpq_class(2));
  for (long x = -c.x_max; x <= c.x_max + d; ++x) {
    const Interval r = exp(Interval(mpq_class(mpz_class(2) * x * delta - delta * delta) / (2 * s2), p));
    c.w.push_back(dg_weight(s2, x, p));
    c.log_y.push_back(log(r * q + (1 - q)));
  }
  return c;
}

// E_Q0[y^(1-alpha)] for the discrete Gaussian, with the tails' largest share.
Interval dg_add_expectation(const BaseNoise& base, const mpq_class& q, mpfr_prec_t p, const Interval& power,
                            const Interval& low_cap) {
  const mpq_class& s2 = base.noise_parameter();
  const long d = mpz_get_si(base.sensitivity().get_num_mpz_t());
  // X: 2 tail(X) (1-q)^(1-alpha) <= 2^-p (the sum is >= 1 and Z >= w(0) = 1).
  mpq_class target(1);
  target /= mpz_class(1) << static_cast<unsigned long>(p);
  const Interval sd = sqrt(Interval(s2, p));
  const long step = std::max(1L, mpfr_get_si(sd.upper(), MPFR_RNDU));
  long x = step;
  while (!upper_at_most(dg_tail_after(s2, x, p) * low_cap * mpq_class(2), target)) x += step;
  const GaussianCache& c = dg_cache(base, q, x, p);
  Interval sum(0L, p);
  for (long v = -x; v <= x + d; ++v) {
    const auto i = static_cast<std::size_t>(v + c.x_max);
    sum = sum + c.w[i] * exp(c.log_y[i] * power);
  }
  sum = sum / c.z;
  const Interval tail = dg_tail_after(s2, x, p) / c.z;  // each side
  return hull(sum, sum + tail * low_cap + tail);
}

// E_Q0[y^alpha] for the discrete Gaussian at a fractional order alpha > 1 (at integer orders the
// binomial expansion is exact): the sum over [-X, X + Delta] plus the tails' largest share.
// Below -X: y < 1, so y^alpha <= 1 (tail mass). Above X + Delta: r >= 1, y <= r, and
// w(x) r(x)^alpha = e^((alpha^2 - alpha) Delta^2/(2 sigma2)) e^(-(x - alpha Delta)^2/(2 sigma2)),
// whose sum over x >= X + Delta + 1 is at most that factor times e^(-u0^2/(2 sigma2)) /
// (1 - e^(-u0/sigma2)), u0 = X + Delta + 1 - alpha Delta > 0 ((u0+k)^2 >= u0^2 + 2 k u0).
Interval dg_remove_expectation(const BaseNoise& base, const mpq_class& q, mpfr_prec_t p, const mpq_class& alpha) {
  const mpq_class& s2 = base.noise_parameter();
  const mpq_class delta = base.sensitivity();
  const long d = mpz_get_si(delta.get_num_mpz_t());
  const Interval growth = exp(Interval(mpq_class((alpha * alpha - alpha) * delta * delta / (2 * s2)), p));
  const auto upper_tail = [&](long x) {  // sum_{v > x + d} w(v) r(v)^alpha
    const mpq_class u0 = mpq_class(x + d + 1) - alpha * delta;
    return growth * exp(-Interval(mpq_class(u0 * u0 / (2 * s2)), p)) /
           (Interval(1L, p) - exp(-Interval(mpq_class(u0 / s2), p)));
  };
  mpq_class target(1);
  target /= mpz_class(1) << static_cast<unsigned long>(p);
  const Interval sd = sqrt(Interval(s2, p));
  const long step = std::max(1L, mpfr_get_si(sd.upper(), MPFR_RNDU));
  long x = step;
  while (mpq_class(x + d + 1) <= alpha * delta ||
         !upper_at_most(dg_tail_after(s2, x, p) + upper_tail(x), target)) {
    x += step;
  }
  const GaussianCache& c = dg_cache(base, q, x, p);
  const Interval power(alpha, p);
  Interval sum(0L, p);
  for (long v = -x; v <= x + d; ++v) {
    const auto i = static_cast<std::size_t>(v + c.x_max);
    sum = sum + c.w[i] * exp(c.log_y[i] * power);
  }
  const Interval extra = (dg_tail_after(s2, x, p) + upper_tail(x)) / c.z;
  sum = sum / c.z;
  return hull(sum, sum + extra);
}

}  // namespace

bool poisson_discrete_rdp_supports(const PrivacyEvent& base) {
  const std::optional<BaseNoise> n = base_noise(base);
  if (!n) return false;
  if (n->laplace) return n->sens <= kMaxDiscreteLaplaceSensitivity;
  return n->noise <= kMaxSigma2 && n->sens <= kMaxGaussianSensitivity;
}

Interval poisson_discrete_rdp(const PrivacyEvent& base, const mpq_class& q, unsigned long alpha,
                              mpfr_prec_t precision) {
  return poisson_discrete_rdp(base, q, mpq_class(mpz_class(alpha)), precision);
}

Interval poisson_discrete_rdp(const PrivacyEvent& event, const mpq_class& q, const mpq_class& alpha,
                              mpfr_prec_t precision) {
  if (!poisson_discrete_rdp_supports(event)) {
    throw ParameterError("route", "route: the rdp route covers the Poisson-subsampled discrete Gaussian up to "
                                  "sigma2 = 2500 and sensitivity 1000, and the discrete Laplace up to sensitivity "
                                  "1000, not " + event.describe() + ": use --route pld");
  }
  if (q == 1) throw std::logic_error("poisson_discrete_rdp: q = 1 is the plain event");
  const BaseNoise base = *base_noise(event);
  const mpfr_prec_t p = precision + 32;
  const Interval add_power(mpq_class(1 - alpha), p);  // 1 - alpha
  const Interval low_cap = exp(log(Interval(1 - q, p)) * add_power);   // (1-q)^(1-alpha) >= y^(1-alpha), y >= 1-q
  Interval remove(0L, p), add(0L, p);
  if (base.laplace) {
    const Atoms a = discrete_laplace_atoms(base, q, p);
    remove = divergence(expectation(a, Interval(alpha, p), p, low_cap), alpha, p);
    add = divergence(expectation(a, add_power, p, low_cap), alpha, p);
  } else {
    const mpq_class c = base.sensitivity() * base.sensitivity() / base.noise_parameter();
    remove = alpha.get_den() == 1 ? poisson_binomial_rdp(c, q, alpha.get_num().get_ui(), p)
                                  : divergence(dg_remove_expectation(base, q, p, alpha), alpha, p);
    add = divergence(dg_add_expectation(base, q, p, add_power, low_cap), alpha, p);
  }
  Interval value = max(remove, add);
  value.set_precision(precision);
  return value;
}

}  // namespace exactdp::accounting
