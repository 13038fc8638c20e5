#include <exactdp/accounting/pld/pld_noise_atoms.h>

#include <stdexcept>
#include <string>

#include <exactdp/core/errors.h>

namespace exactdp::accounting::pld {
namespace {

constexpr mpfr_prec_t kP = kDefaultPrecision;
constexpr long kMaxAtoms = 2'000'000;

Interval iv(const mpq_class& v) { return Interval(v, kP); }

// The pair's P, Q and loss for an outcome set with base masses q0, q1 and ratio r (all sets'
// outcomes have that r, or r's enclosure covers them).
Atom make_atom(const Interval& q0, const Interval& q1, const Interval& r, const mpq_class& q, PairOrder order) {
  const Interval mix = q0 * (1 - q) + q1 * q;
  const Interval loss = log(r * q + (1 - q));
  if (order == PairOrder::kRemove) return Atom{mix, q0, loss};
  return Atom{q0, mix, -loss};
}

}  // namespace

DiscreteGaussianWeights::DiscreteGaussianWeights(const mpq_class& sigma2, unsigned tail_bits) : sigma2_(sigma2) {
  const Interval sigma = sqrt(iv(sigma2));
  if (mpfr_cmp_ui(sigma.upper(), kMaxAtoms) > 0) {
    throw LimitError("sigma2", "sigma2: at most 4*10^12 for a discrete-gaussian event on the pld route (its support "
                               "would need more than 2*10^6 atoms); use the rdp route");
  }
  const long step = std::max(1L, static_cast<long>(mpfr_get_si(sigma.upper(), MPFR_RNDU) / 4));
  const mpq_class target = mpq_class(1) / (mpz_class(1) << tail_bits);
  x_max_ = step;
  while (!upper_at_most(tail_after(x_max_), target)) x_max_ += step;
}

Interval DiscreteGaussianWeights::w(long x) const { return exp(-iv(mpq_class(x) * x / (2 * sigma2_))); }

Interval DiscreteGaussianWeights::tail_after(long m) const {
  return w(m + 1) / (Interval(1L, kP) - exp(-iv(mpq_class(m + 1) / sigma2_)));
}

namespace {

AtomPair discrete_gaussian_atoms(const DiscreteGaussianNoise& noise, const mpq_class& q, PairOrder order,
                                 unsigned tail_bits) {
  const mpq_class& sigma2 = noise.sigma2;
  const mpz_class& delta = noise.sensitivity;  // an integer (factory-checked)
  if (delta > kMaxAtoms) {
    throw LimitError("sensitivity", "sensitivity: at most 2*10^6 for a discrete-gaussian event on the pld route");
  }
  const long d = mpz_get_si(delta.get_mpz_t());
  const DiscreteGaussianWeights weights(sigma2, tail_bits);
  const auto w = [&](long x) { return weights.w(x); };
  // X: every law's tail beyond the atoms is <= tail_after(X) / Z, and Z >= w(0) = 1.
  const long x_max = weights.x_max();
  if (2 * x_max + d + 1 > kMaxAtoms) {
    throw LimitError("sigma2", "sigma2: the discrete Gaussian's support needs more than 2*10^6 atoms for the pld "
                               "route; use the rdp route");
  }
  Interval core(0L, kP);
  for (long x = -(x_max + d); x <= x_max + d; ++x) core = core + w(x);
  const Interval z = hull(core, core + weights.tail_after(x_max + d) * mpq_class(2));
  const Interval bound = weights.tail_after(x_max) / z;
  AtomPair out;
  out.atoms.reserve(static_cast<std::size_t>(2 * x_max + d + 1));
  for (long x = -x_max; x <= x_max + d; ++x) {
    const Interval wx = w(x);
    const Interval r = exp(iv(mpq_class(mpz_class(2) * x * delta - delta * delta) / (2 * sigma2)));
    out.atoms.push_back(make_atom(wx / z, wx * r / z, r, q, order));
  }
  // Loss increasing in x for kRemove (low tail x < -X), decreasing for kAdd.
  out.p_low = out.q_low = out.p_high = bound;
  const Atom& edge = order == PairOrder::kRemove ? out.atoms.back() : out.atoms.front();
  out.high_loss_from = Interval::point(edge.loss.lower(), kP);
  return out;
}

AtomPair discrete_laplace_atoms(const DiscreteLaplaceNoise& noise, const mpq_class& q, PairOrder order) {
  const mpq_class& t = noise.scale;
  const mpz_class& delta = noise.sensitivity;
  if (delta > kMaxAtoms) {
    throw LimitError("sensitivity", "sensitivity: at most 2*10^6 for a discrete-laplace event on the pld route");
  }
  const long d = mpz_get_si(delta.get_mpz_t());
  const Interval e1 = exp(-iv(1 / t));           // e^(-1/t)
  const Interval z = (e1 + mpq_class(1)) / (Interval(1L, kP) - e1);
  const Interval ed = exp(-iv(mpq_class(d) / t));  // e^(-Delta/t)
  const Interval half = Interval(1L, kP) / (e1 + mpq_class(1));  // Q0(x <= 0) = 1 / (1 + e^(-1/t))
  AtomPair out;
  // x <= 0: Q0 = half, Q1 = e^(-Delta/t) half, r = e^(-Delta/t).
  out.atoms.push_back(make_atom(half, ed * half, ed, q, order));
  for (long x = 1; x < d; ++x) {
    const Interval q0 = exp(-iv(mpq_class(x) / t)) / z, q1 = exp(-iv(mpq_class(d - x) / t)) / z;
    out.atoms.push_back(make_atom(q0, q1, exp(iv(mpq_class(2 * x - d) / t)), q, order));
  }
  // x >= Delta: Q0 = e^(-Delta/t) half, Q1 = half, r = e^(Delta/t).
  out.atoms.push_back(make_atom(ed * half, half, exp(iv(mpq_class(d) / t)), q, order));
  return out;  // no tails
}

AtomPair laplace_atoms(const LaplaceNoise& noise, const mpq_class& q, PairOrder order, unsigned long n) {
  const mpq_class eps = noise.sensitivity / noise.scale;
  const Interval e_eps = exp(-iv(eps));
  AtomPair out;
  out.atoms.push_back(make_atom(iv(mpq_class(1, 2)), e_eps * mpq_class(1, 2), e_eps, q, order));  // x <= 0
  out.atoms.push_back(make_atom(e_eps * mpq_class(1, 2), iv(mpq_class(1, 2)), exp(iv(eps)), q, order));  // x >= eps
  // Middle 0 < x < eps: the kRemove loss L(x) = log(1 - q + q e^(2x - eps)) is increasing.
  const Interval l0 = log(e_eps * q + (1 - q)), l1 = log(exp(iv(eps)) * q + (1 - q));
  mpfr_t y;
  mpfr_init2(y, kP + 64);
  mpfr_mul_ui(y, l0.lower(), n, MPFR_RNDD);
  const long j0 = mpfr_get_si(y, MPFR_RNDD);
  mpfr_mul_ui(y, l1.upper(), n, MPFR_RNDU);
  const long j1 = mpfr_get_si(y, MPFR_RNDU);
  mpfr_clear(y);
  if (j1 - j0 > kMaxAtoms) {
    throw LimitError("pld-step", "pld-step: the Laplace event's loss range needs more than 2*10^6 cells at this step");
  }
  const auto x_of = [&](const Interval& l) {  // X(l), clamped to [0, eps]
    return clamp((log((exp(l) - (1 - q)) / q) + eps) / mpq_class(2), mpq_class(0), eps);
  };
  for (long j = j0; j < j1; ++j) {
    const Interval lo = max(iv(mpq_class(j, n)), l0), hi = min(iv(mpq_class(j + 1, n)), l1);
    if (mpfr_cmp(lo.lower(), hi.upper()) > 0) continue;  // empty cell
    const Interval a = x_of(lo), b = x_of(hi);
    const Interval q0 = max((exp(-a) - exp(-b)) * mpq_class(1, 2), Interval(0L, kP));
    const Interval q1 = max((exp(b - eps) - exp(a - eps)) * mpq_class(1, 2), Interval(0L, kP));
    const Interval mix = q0 * (1 - q) + q1 * q;
    const Interval cell = hull(iv(mpq_class(j, n)), iv(mpq_class(j + 1, n)));  // the losses inside
    out.atoms.push_back(order == PairOrder::kRemove ? Atom{mix, q0, cell} : Atom{q0, mix, -cell});
  }
  return out;  // no tails
}

}  // namespace

namespace {
// A registry law's pair (law_privacy.h): its atoms cover all mass, so there are no tails.
AtomPair law_atoms(const LawPrivacy& base, const mpq_class& q, PairOrder order) {
  AtomPair out;
  for (const LawAtom& a : base.base_atoms(kP)) out.atoms.push_back(make_atom(a.q0, a.q1, a.ratio, q, order));
  return out;
}
}  // namespace

AtomPair noise_atoms(const PrivacyEvent& base, const mpq_class& q, PairOrder order, unsigned long steps_per_unit,
                     unsigned tail_bits) {
  const LawPrivacy& maps = base.maps();
  if (const auto g = maps.discrete_gaussian_noise()) return discrete_gaussian_atoms(*g, q, order, tail_bits);
  if (const auto l = maps.discrete_laplace_noise()) return discrete_laplace_atoms(*l, q, order);
  if (const auto l = maps.laplace_noise()) return laplace_atoms(*l, q, order, steps_per_unit);
  return law_atoms(maps, q, order);  // the law's own atoms (std::logic_error where it has none)
}

}  // namespace exactdp::accounting::pld
