#include <exactdp/accounting/pld/pld_replace_pair.h>

#include <mpfr.h>

#include <string>

#include <exactdp/core/interval.h>
#include <exactdp/accounting/pld/normal_cdf_table.h>
#include <exactdp/accounting/pld/pld_composition.h>
#include <exactdp/accounting/pld/pld_grid.h>
#include <exactdp/core/errors.h>

namespace exactdp::accounting::pld {
namespace {

constexpr mpfr_prec_t kP = kDefaultPrecision;

Interval iv(const mpq_class& v) { return Interval(v, kP); }

// The pair in units of sigma: P = a N(0,1) + q N(mu,1), Q = a N(0,1) + q N(-mu,1), a = 1 - q.
class AntipodalPair {
 public:
  AntipodalPair(const mpq_class& mu, const mpq_class& q)
      : mu_(mu), q_(q), c_(exp(-iv(mu * mu / 2)) * q), a_(1 - q) {}

  // L(x) = log(a + q e^(mu x - mu^2/2)) - log(a + q e^(-mu x - mu^2/2)), enclosed.
  [[nodiscard]] Interval loss(const Interval& x) const {
    const Interval m2 = iv(mu_ * mu_ / 2);
    return log(exp(x * mu_ - m2) * q_ + a_) - log(exp(-(x * mu_) - m2) * q_ + a_);
  }

  // X(i / n), the x with L(x) = i / n, enclosed: for l >= 0 with E = e^l, u = e^(mu X) is the
  // positive root of c u^2 - a (E - 1) u - c E = 0 (multiply L(x) = l out),
  //     u = (a (E - 1) + sqrt(a^2 (E - 1)^2 + 4 c^2 E)) / (2 c),
  // a sum of non-negative terms (no cancellation); X(-l) = -X(l) (L is odd).
  [[nodiscard]] Interval inverse(long i, unsigned long n) const {
    const long k = i < 0 ? -i : i;
    const Interval e = exp(iv(mpq_class(k, static_cast<long>(n))));
    const Interval t = (e - mpq_class(1)) * a_;
    const Interval u = (t + sqrt(square(t) + square(c_) * e * mpq_class(4))) / (c_ * mpq_class(2));
    const Interval x = log(u) / mu_;
    return i < 0 ? -x : x;
  }

  [[nodiscard]] const mpq_class& mu() const { return mu_; }
  [[nodiscard]] const mpq_class& q() const { return q_; }

 private:
  mpq_class mu_, q_;
  Interval c_;
  mpq_class a_;
};

// The cdfs of P and Q at an x-interval [x.lower, x.upper]: lo <= cdf(t) <= hi for every t in it.
struct BoundaryCdf {
  Interval p{kP}, q{kP};
};

class PairCdf {
 public:
  PairCdf(const AntipodalPair& pair, const mpq_class& x0)
      : table_(-x0 - 2 * pair.mu() - 1, x0 + 2 * pair.mu() + 1), mu_(iv(pair.mu())), q_(pair.q()), a_(1 - pair.q()) {}

  BoundaryCdf at(const Interval& x) {
    const Interval f0 = phi(x.lower(), x.upper());
    const Interval minus = x - mu_, plus = x + mu_;  // N(mu)'s cdf at x is Phi(x - mu)
    const Interval f_minus = phi(minus.lower(), minus.upper()), f_plus = phi(plus.lower(), plus.upper());
    return BoundaryCdf{f0 * a_ + f_minus * q_, f0 * a_ + f_plus * q_};
  }

 private:
  Interval phi(mpfr_srcptr lo, mpfr_srcptr hi) {
    table_.enclose(lo, hi, lo_.get(), hi_.get());
    return Interval::from_ends(lo_.get(), hi_.get(), kP);
  }
  NormalCdfTable table_;
  Interval mu_;
  mpq_class q_, a_;
  Real lo_{kP}, hi_{kP};
};

// Splits a cell's P-mass p (Q-mass q, losses in [l_i, l_{i+1}]) onto its two grid losses so that
// both masses are kept (pld_events.cc), adding the upper ends at indices j and j + 1.
void connect_dots(DiscretePld& chain, std::size_t j, const Interval& p_raw, const Interval& q_raw, const Interval& ea,
                  const Interval& eb) {
  const Interval zero(0L, kP);
  const Interval p = max(p_raw, zero), q = max(q_raw, zero);
  Interval split = (p * ea - q) / (ea - eb);  // the mass at l_{i+1}
  split = min(max(split, zero), p);
  const Interval rest = max(p - split, zero);  // at l_i
  add_mass(chain.masses, j + 1, to_fixed(split.upper(), chain.scale_bits, true));
  add_mass(chain.masses, j, to_fixed(rest.upper(), chain.scale_bits, true));
}

}  // namespace

bool covers_replace_pair(const RdpEvent& event) {
  return event.is_subsampled() && event.subsampled_base().kind() == PrivacyEvent::Kind::kGaussian;
}

DiscretePld discretize_replace_pair(const RdpEvent& event, const DiscretizationOptions& o) {
  check_discretization_options(o);
  if (!covers_replace_pair(event)) {
    throw ParameterError("route", "route: the replace-one dominating pair is proven for the Poisson-subsampled "
                                  "Gaussian only, not " + event.describe());
  }
  const AntipodalPair pair(event.subsampled_mu(), event.subsampled_q());
  const unsigned long n = o.steps_per_unit;
  Interval tail(kP);
  const mpq_class x0 = gaussian_truncation(o.tail_bits, tail);
  const Interval first_x = iv(-x0 - pair.mu()), last_x = iv(x0 + pair.mu());  // exact rationals, enclosed
  const Interval l_last = pair.loss(last_x);
  const long i_hi = grid_index(l_last.upper(), n, MPFR_RNDU);
  const long i_lo = -i_hi;  // L is odd: L(first_x) = -L(last_x) >= -l_last.upper
  if (static_cast<unsigned long>(i_hi - i_lo) > o.max_grid_points) {
    throw LimitError("pld-step", "pld-step: the event's replace-one loss range needs more than " +
                                     std::to_string(o.max_grid_points) + " grid points at this step");
  }
  DiscretePld chain = empty_chain(Side::kUpper, n, o.scale_bits, i_lo, static_cast<std::size_t>(i_hi - i_lo + 1));
  PairCdf cdf(pair, x0);
  // Cell i (losses in [l_i, l_{i+1}]) lies between the boundaries X(l_i) and X(l_{i+1}); the
  // first and last cells end at first_x / last_x (losses there within [l_{i_lo}, l_{i_hi}]).
  BoundaryCdf prev = cdf.at(first_x);
  const Interval step = exp(-iv(mpq_class(1, static_cast<long>(n))));  // e^(-1/n)
  Interval ea = exp(-iv(mpq_class(i_lo, static_cast<long>(n))));        // e^(-l_i)
  for (long i = i_lo; i < i_hi; ++i) {
    if ((i - i_lo) % 4096 == 0) ea = exp(-iv(mpq_class(i, static_cast<long>(n))));  // keep the width small
    const Interval eb = ea * step;
    // A boundary X(l_{i_lo+1}) below first_x (or X(l_{i_hi-1}) above last_x) leaves the first
    // (last) cell empty, its mass interval clamped at 0, and its neighbour counts some tail
    // outcomes twice: every outcome in [first_x, last_x] is still in a cell of its loss.
    const BoundaryCdf next = cdf.at(i + 1 == i_hi ? last_x : pair.inverse(i + 1, n));
    // Cell masses, outward: [cdf(b).lo - cdf(a).hi, cdf(b).hi - cdf(a).lo].
    connect_dots(chain, static_cast<std::size_t>(i - i_lo), next.p - prev.p, next.q - prev.q, ea, eb);
    prev = next;
    ea = eb;
  }
  // Tails beyond first_x / last_x: at most Phi(-x0) of each law per side (pld_replace_instance.h).
  chain.infinity_mass = to_fixed(tail.upper(), o.scale_bits, true);
  add_mass(chain.masses, 0, to_fixed(tail.upper(), o.scale_bits, true));
  trim_zero_ends(chain);
  return chain;
}

}  // namespace exactdp::accounting::pld
