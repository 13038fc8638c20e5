#include <exactdp/accounting/pld/pld_replace_instance.h>

#include <mpfr.h>

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>

#include <exactdp/core/interval.h>
#include <exactdp/accounting/normal.h>
#include <exactdp/accounting/pld/normal_cdf_table.h>
#include <exactdp/accounting/pld/pld_grid.h>
#include <exactdp/accounting/pld/pld_noise_atoms.h>
#include <exactdp/core/errors.h>

namespace exactdp::accounting::pld {
namespace {

constexpr mpfr_prec_t kP = kDefaultPrecision;
constexpr long kMaxAtoms = 2'000'000;

Interval iv(const mpq_class& v) { return Interval(v, kP); }

// The map key of an atom put in grid cell i: its nominal loss, the cell's midpoint (pld_atoms.h).
Interval cell_key(long i, unsigned long n) { return iv(mpq_class(2 * i + 1, 2 * static_cast<long>(n))); }

// Enclosures of P(X <= x) and Q(X <= x) at one cut of the x-axis.
struct Cut {
  Interval p, q;
};

// Continuous noise: atoms between cuts at x_i ~ X(l_i) for the grid losses strictly inside
// (l(first), l(last)), plus the first and last cut given. `inverse(i, x)` sets x to an
// approximation of X(i/n) (any value: the cut only has to be a fixed point); `cut_at(x)`
// encloses both cdfs at the exact point x. Cuts that do not increase strictly are skipped.
template <class Inverse, class CutAt>
void add_cells(AtomPair& out, unsigned long n, long i_lo, long i_hi, const Cut& first, mpfr_srcptr first_x,
               const Cut& last, mpfr_srcptr last_x, Inverse inverse, CutAt cut_at) {
  if (i_hi - i_lo > kMaxAtoms) {
    throw LimitError("pld-step", "pld-step: the event's replace-one loss range needs more than 2*10^6 cells at this "
                                 "step; use a coarser --pld-step");
  }
  Real prev_x(kP), x(kP);
  mpfr_set(prev_x.get(), first_x, MPFR_RNDN);
  Cut prev = first;
  long key = i_lo;
  for (long i = i_lo + 1; i < i_hi; ++i) {
    inverse(i, x.get());
    if (mpfr_cmp(x.get(), prev_x.get()) <= 0 || mpfr_cmp(x.get(), last_x) >= 0) continue;
    Cut cut = cut_at(x.get());
    out.atoms.push_back(Atom{cut.p - prev.p, cut.q - prev.q, cell_key(key, n)});
    prev = std::move(cut);
    mpfr_set(prev_x.get(), x.get(), MPFR_RNDN);
    key = i;
  }
  out.atoms.push_back(Atom{last.p - prev.p, last.q - prev.q, cell_key(key, n)});
}

// ---- Gaussian, in units of sigma: P = a N(0,1) + q N(mu,1), Q = a N(0,1) + q N(-mu,1), a = 1 - q.

// Phi(x + shift mu), shift in {-1, 0, 1}, enclosed at an exact point x from one cdf table over
// [-x0 - 2 mu - 1, x0 + 2 mu + 1].
class ShiftedNormalCdf {
 public:
  ShiftedNormalCdf(const mpq_class& x0, const mpq_class& mu) : table_(-x0 - 2 * mu - 1, x0 + 2 * mu + 1), mu_(iv(mu)) {}

  Interval operator()(mpfr_srcptr x, int shift) {
    if (shift == 0) {
      table_.enclose(x, x, lo_.get(), hi_.get());
    } else {
      mpfr_srcptr m_lo = shift > 0 ? mu_.lower() : mu_.upper();
      mpfr_srcptr m_hi = shift > 0 ? mu_.upper() : mu_.lower();
      if (shift > 0) {
        mpfr_add(s_lo_.get(), x, m_lo, MPFR_RNDD);
        mpfr_add(s_hi_.get(), x, m_hi, MPFR_RNDU);
      } else {
        mpfr_sub(s_lo_.get(), x, m_lo, MPFR_RNDD);
        mpfr_sub(s_hi_.get(), x, m_hi, MPFR_RNDU);
      }
      table_.enclose(s_lo_.get(), s_hi_.get(), lo_.get(), hi_.get());
    }
    return Interval::from_ends(lo_.get(), hi_.get(), kP);
  }

 private:
  NormalCdfTable table_;
  Interval mu_;
  Real lo_{kP}, hi_{kP}, s_lo_{kP}, s_hi_{kP};
};

// X(l) for l >= 0: u = e^(mu x) solves c u^2 + a (1 - e^l) u - c e^l = 0, c = q e^(-mu^2/2):
// u = (a (e^l - 1) + sqrt(a^2 (e^l - 1)^2 + 4 c^2 e^l)) / (2c) (no cancellation for l >= 0);
// X is odd. Round to nearest: only an approximation is needed (add_cells).
class GaussianLossInverse {
 public:
  GaussianLossInverse(const mpq_class& mu, const mpq_class& q, unsigned long n) : n_(n) {
    const mpq_class a = 1 - q;
    mpfr_set_q(av_.get(), a.get_mpq_t(), MPFR_RNDN);
    mpfr_set_q(qv_.get(), q.get_mpq_t(), MPFR_RNDN);
    mpfr_set_q(muv_.get(), mu.get_mpq_t(), MPFR_RNDN);
    mpfr_sqr(c_.get(), muv_.get(), MPFR_RNDN);
    mpfr_div_2ui(c_.get(), c_.get(), 1, MPFR_RNDN);
    mpfr_neg(c_.get(), c_.get(), MPFR_RNDN);
    mpfr_exp(c_.get(), c_.get(), MPFR_RNDN);
    mpfr_mul(c_.get(), c_.get(), qv_.get(), MPFR_RNDN);
  }

  // x ~ X(i / n).
  void operator()(long i, mpfr_ptr x) {
    mpfr_set_si(e_.get(), i < 0 ? -i : i, MPFR_RNDN);
    mpfr_div_ui(e_.get(), e_.get(), n_, MPFR_RNDN);
    mpfr_exp(e_.get(), e_.get(), MPFR_RNDN);                  // e^|l|
    mpfr_sub_ui(t_.get(), e_.get(), 1, MPFR_RNDN);
    mpfr_mul(t_.get(), t_.get(), av_.get(), MPFR_RNDN);       // a (e^l - 1)
    mpfr_sqr(r_.get(), t_.get(), MPFR_RNDN);
    mpfr_mul(x, c_.get(), c_.get(), MPFR_RNDN);
    mpfr_mul(x, x, e_.get(), MPFR_RNDN);
    mpfr_mul_2ui(x, x, 2, MPFR_RNDN);
    mpfr_add(r_.get(), r_.get(), x, MPFR_RNDN);
    mpfr_sqrt(r_.get(), r_.get(), MPFR_RNDN);
    mpfr_add(r_.get(), r_.get(), t_.get(), MPFR_RNDN);
    mpfr_div(r_.get(), r_.get(), c_.get(), MPFR_RNDN);
    mpfr_div_2ui(r_.get(), r_.get(), 1, MPFR_RNDN);          // u
    mpfr_log(x, r_.get(), MPFR_RNDN);
    mpfr_div(x, x, muv_.get(), MPFR_RNDN);
    if (i < 0) mpfr_neg(x, x, MPFR_RNDN);
  }

 private:
  unsigned long n_;
  Real e_{kP}, t_{kP}, r_{kP}, c_{kP}, av_{kP}, qv_{kP}, muv_{kP};
};

AtomPair gaussian_instance(const mpq_class& mu, const mpq_class& q, unsigned long n, unsigned tail_bits) {
  const mpq_class a = 1 - q;
  const auto loss = [&](const Interval& x) {  // certified
    const Interval m2 = iv(mu * mu / 2);
    return log(exp(x * mu - m2) * q + a) - log(exp(-(x * mu) - m2) * q + a);
  };
  Interval tail(kP);
  const mpq_class x0 = gaussian_truncation(tail_bits, tail);
  const Interval edge = iv(x0 + mu);
  Real first_x(kP), last_x(kP);
  mpfr_neg(first_x.get(), edge.upper(), MPFR_RNDD);  // <= -(x0 + mu)
  mpfr_set(last_x.get(), edge.upper(), MPFR_RNDU);   // >= x0 + mu
  const Interval l_last = loss(Interval::point(last_x.get(), kP));
  const Interval l_first = loss(Interval::point(first_x.get(), kP));
  const long i_lo = grid_index(l_first.lower(), n, MPFR_RNDD), i_hi = grid_index(l_last.upper(), n, MPFR_RNDU);

  ShiftedNormalCdf phi(x0, mu);
  const auto cut_at = [&](mpfr_srcptr x) {
    const Interval f0 = phi(x, 0) * a;
    return Cut{f0 + phi(x, -1) * q, f0 + phi(x, +1) * q};
  };
  GaussianLossInverse inverse(mu, q, n);
  AtomPair out;
  add_cells(out, n, i_lo, i_hi, cut_at(first_x.get()), first_x.get(), cut_at(last_x.get()), last_x.get(),
            [&](long i, mpfr_ptr x) { inverse(i, x); }, cut_at);
  // Tails beyond the first / last cut: each law's components have at most Phi(-x0) there; the
  // losses beyond the last cut are >= l_last (the loss is increasing).
  out.p_low = out.q_low = out.p_high = tail;
  out.high_loss_from = Interval::point(l_last.lower(), kP);
  return out;
}

// ---- Laplace, in units of the scale: Lap(0), Lap(eps), Lap(-eps), eps = Delta / b.
AtomPair laplace_instance(const mpq_class& eps, const mpq_class& q, unsigned long n) {
  const mpq_class a = 1 - q;
  const Interval half = iv(mpq_class(1, 2));
  const Interval e1 = exp(-iv(eps)), e2 = exp(-iv(2 * eps));
  // The loss on [0, eps] is log(a + q e^(2x - eps)) - log(a + q e^(-eps)); odd; constant beyond.
  const Interval base = e1 * q + a;
  const Interval l_top = log(exp(iv(eps)) * q + a) - log(base);
  const long i_lo = grid_index((-l_top).lower(), n, MPFR_RNDD), i_hi = grid_index(l_top.upper(), n, MPFR_RNDU);
  const auto cdf = [&](const Interval& x, const mpq_class& centre) {  // Lap(centre, 1) cdf at the exact x
    if (mpfr_cmp_q(x.upper(), centre.get_mpq_t()) <= 0) return exp(x - centre) * half;
    return Interval(1L, kP) - exp(centre - x) * half;
  };
  const auto cut_at = [&](mpfr_srcptr x) {
    const Interval p = Interval::point(x, kP);
    const Interval f0 = cdf(p, 0) * a;
    return Cut{f0 + cdf(p, eps) * q, f0 + cdf(p, -eps) * q};
  };
  // The blocks x <= -eps and x >= eps, in closed form: P(x <= -eps) = (a e^-eps + q e^-2eps)/2,
  // Q(x <= -eps) = (a e^-eps + q)/2; mirrored for x >= eps.
  const Interval side_small = (e1 * a + e2 * q) * half, side_large = (e1 * a + Interval(q, kP)) * half;
  const Cut first{side_small, side_large};
  const Cut last{Interval(1L, kP) - side_large, Interval(1L, kP) - side_small};
  Real first_x(kP), last_x(kP);
  mpfr_set_q(first_x.get(), mpq_class(-eps).get_mpq_t(), MPFR_RNDU);  // interior cuts stay inside
  mpfr_set_q(last_x.get(), eps.get_mpq_t(), MPFR_RNDD);
  Real e(kP), bv(kP), av(kP), qv(kP), epsv(kP);
  mpfr_set(bv.get(), base.upper(), MPFR_RNDN);
  mpfr_set_q(av.get(), a.get_mpq_t(), MPFR_RNDN);
  mpfr_set_q(qv.get(), q.get_mpq_t(), MPFR_RNDN);
  mpfr_set_q(epsv.get(), eps.get_mpq_t(), MPFR_RNDN);
  const auto inverse = [&](long i, mpfr_ptr x) {  // x = (log((e^|l| base - a) / q) + eps) / 2, odd
    mpfr_set_si(e.get(), i < 0 ? -i : i, MPFR_RNDN);
    mpfr_div_ui(e.get(), e.get(), n, MPFR_RNDN);
    mpfr_exp(e.get(), e.get(), MPFR_RNDN);
    mpfr_mul(e.get(), e.get(), bv.get(), MPFR_RNDN);
    mpfr_sub(e.get(), e.get(), av.get(), MPFR_RNDN);
    mpfr_div(e.get(), e.get(), qv.get(), MPFR_RNDN);
    mpfr_log(x, e.get(), MPFR_RNDN);
    mpfr_add(x, x, epsv.get(), MPFR_RNDN);
    mpfr_div_2ui(x, x, 1, MPFR_RNDN);
    if (i < 0) mpfr_neg(x, x, MPFR_RNDN);
  };
  AtomPair out;
  out.atoms.push_back(Atom{first.p, first.q, cell_key(i_lo, n)});
  add_cells(out, n, i_lo, i_hi, first, first_x.get(), last, last_x.get(), inverse, cut_at);
  out.atoms.push_back(Atom{Interval(1L, kP) - last.p, Interval(1L, kP) - last.q, cell_key(i_hi - 1, n)});
  return out;  // no tails
}

// ---- discrete laws: one atom per integer x with weights w(x), w(x - d), w(x + d) over Z.
Atom discrete_atom(const Interval& w0, const Interval& w_minus, const Interval& w_plus, const Interval& z,
                   const mpq_class& q) {
  const Interval base = w0 * (1 - q);
  const Interval p = (base + w_minus * q) / z, qm = (base + w_plus * q) / z;
  return Atom{p, qm, log(p) - log(qm)};
}

AtomPair discrete_gaussian_instance(const mpq_class& sigma2, long d, const mpq_class& q, unsigned tail_bits) {
  const DiscreteGaussianWeights weights(sigma2, tail_bits);
  const auto w = [&](long x) { return weights.w(x); };
  const long x_max = weights.x_max();
  const long reach = x_max + d;  // atoms for |x| <= reach
  if (2 * reach + 1 > kMaxAtoms) {
    throw LimitError("sigma2", "sigma2: the discrete Gaussian's support needs more than 2*10^6 atoms for the pld "
                               "route; use a smaller sigma2");
  }
  Interval core(0L, kP);
  for (long x = -(reach + d); x <= reach + d; ++x) core = core + w(x);
  const Interval z = hull(core, core + weights.tail_after(reach + d) * mpq_class(2));
  AtomPair out;
  out.atoms.reserve(static_cast<std::size_t>(2 * reach + 1));
  for (long x = -reach; x <= reach; ++x) out.atoms.push_back(discrete_atom(w(x), w(x - d), w(x + d), z, q));
  // Beyond +-reach every component's tail is at most tail_after(x_max) / Z (Z >= w(0) = 1).
  out.p_low = out.q_low = out.p_high = weights.tail_after(x_max) / z;
  out.high_loss_from = Interval::point(out.atoms.back().loss.lower(), kP);
  return out;
}

AtomPair discrete_laplace_instance(const mpq_class& t, long d, const mpq_class& q) {
  if (d > kMaxAtoms) {
    throw LimitError("sensitivity", "sensitivity: at most 2*10^6 for a discrete-laplace event on the pld route");
  }
  const Interval e1 = exp(-iv(1 / t));
  const Interval z = (e1 + mpq_class(1)) / (Interval(1L, kP) - e1);
  const auto w = [&](long x) { return exp(-iv(mpq_class(x < 0 ? -x : x) / t)); };
  // sum_{y <= -m} w(y) = e^(-m/t) / (1 - e^(-1/t)) for m >= 0.
  const auto below = [&](long m) { return w(m) / (Interval(1L, kP) - e1); };
  AtomPair out;
  out.atoms.push_back(discrete_atom(below(d), below(2 * d), below(0), z, q));  // x <= -d
  for (long x = -d + 1; x < d; ++x) out.atoms.push_back(discrete_atom(w(x), w(x - d), w(x + d), z, q));
  out.atoms.push_back(discrete_atom(below(d), below(0), below(2 * d), z, q));  // x >= d
  return out;  // no tails
}

// The instance's atoms (one per loss cell or integer outcome, and the tails) for `event`.
AtomPair replace_instance_atoms(const RdpEvent& event, unsigned long n, unsigned tail_bits) {
  if (!event.is_subsampled()) {
    throw ParameterError("route", "route: the replace-one instance is for Poisson-subsampled events");
  }
  const mpq_class& q = event.subsampled_q();
  if (event.subsampled_gaussian()) return gaussian_instance(event.subsampled_mu(), q, n, tail_bits);
  const LawPrivacy& base = event.subsampled_base().maps();
  if (const auto l = base.laplace_noise()) return laplace_instance(l->sensitivity / l->scale, q, n);
  const std::optional<DiscreteGaussianNoise> g = base.discrete_gaussian_noise();
  const std::optional<DiscreteLaplaceNoise> dl = base.discrete_laplace_noise();
  if (!g && !dl) {
    throw ParameterError("route", "route: the pld route does not apply to " + event.describe() + " under replace-one");
  }
  const mpz_class& delta = g ? g->sensitivity : dl->sensitivity;  // an integer (factory-checked)
  if (delta > kMaxAtoms) {
    throw LimitError("sensitivity", "sensitivity: at most 2*10^6 for a discrete event on the pld route");
  }
  const long d = mpz_get_si(delta.get_mpz_t());
  return g ? discrete_gaussian_instance(g->sigma2, d, q, tail_bits) : discrete_laplace_instance(dl->scale, d, q);
}

}  // namespace

TestChains discretize_replace_instance(const RdpEvent& event, const DiscretizationOptions& options) {
  return discretize_atoms_test(replace_instance_atoms(event, options.steps_per_unit, options.tail_bits), options);
}

WideTestPair discretize_replace_instance_wide(const RdpEvent& event, unsigned long steps_per_unit, unsigned scale_bits,
                                              unsigned tail_bits) {
  if (scale_bits < 8 || scale_bits > 1024 || tail_bits < 8 || tail_bits > 1000) {
    throw std::logic_error("pld::discretize_replace_instance_wide: scale_bits or tail_bits out of range");
  }
  return discretize_atoms_wide_test(replace_instance_atoms(event, steps_per_unit, tail_bits), steps_per_unit,
                                    scale_bits);
}

}  // namespace exactdp::accounting::pld
