#include <exactdp/accounting/pld/pld_replace_pair.h>

#include <mpfr.h>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include <exactdp/accounting/pld/normal_cdf_table.h>
#include <exactdp/accounting/pld/pld_composition.h>
#include <exactdp/accounting/pld/pld_grid.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/interval.h>

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
// both masses are kept (pld_events.cc): add(j + 1, upper end of the mass at l_{i+1}) and
// add(j, upper end of the rest, at l_i).
template <class Add>
void connect_dots(std::size_t j, const Interval& p_raw, const Interval& q_raw, const Interval& ea, const Interval& eb,
                  Add& add) {
  const Interval zero(0L, kP);
  const Interval p = max(p_raw, zero), q = max(q_raw, zero);
  Interval split = (p * ea - q) / (ea - eb);  // the mass at l_{i+1}
  split = min(max(split, zero), p);
  const Interval rest = max(p - split, zero);  // at l_i
  add(j + 1, split.upper());
  add(j, rest.upper());
}

// The grid of the pair's chain: indices i_lo .. i_hi (i_lo = -i_hi), the truncation point x0 and
// the tail Phi(-x0) of each law per side.
struct ReplaceGrid {
  mpq_class x0;
  Interval tail{kP};
  long i_lo = 0, i_hi = 0;
};

ReplaceGrid replace_grid(const AntipodalPair& pair, unsigned long n, unsigned tail_bits, unsigned long max_points) {
  ReplaceGrid g;
  g.x0 = gaussian_truncation(tail_bits, g.tail);
  const Interval l_last = pair.loss(iv(g.x0 + pair.mu()));
  g.i_hi = grid_index(l_last.upper(), n, MPFR_RNDU);
  g.i_lo = -g.i_hi;  // L is odd: L(-(x0 + mu)) = -L(x0 + mu) >= -l_last.upper
  if (static_cast<unsigned long>(g.i_hi - g.i_lo) > max_points) {
    throw LimitError("pld-step", "pld-step: the event's replace-one loss range needs more than " +
                                     std::to_string(max_points) + " grid points at this step");
  }
  return g;
}

// The connect-the-dots masses of every cell in [-(x0 + mu), x0 + mu]: add(j, v) with v an upper
// end of a mass at grid index i_lo + j (calls for one j add up). The tails are the caller's.
template <class Add>
void add_cell_masses(const AntipodalPair& pair, const ReplaceGrid& g, unsigned long n, Add add) {
  const Interval first_x = iv(-g.x0 - pair.mu()), last_x = iv(g.x0 + pair.mu());  // exact rationals, enclosed
  PairCdf cdf(pair, g.x0);
  // Cell i (losses in [l_i, l_{i+1}]) lies between the boundaries X(l_i) and X(l_{i+1}); the
  // first and last cells end at first_x / last_x (losses there within [l_{i_lo}, l_{i_hi}]).
  BoundaryCdf prev = cdf.at(first_x);
  const Interval step = exp(-iv(mpq_class(1, static_cast<long>(n))));  // e^(-1/n)
  Interval ea = exp(-iv(mpq_class(g.i_lo, static_cast<long>(n))));      // e^(-l_i)
  for (long i = g.i_lo; i < g.i_hi; ++i) {
    if ((i - g.i_lo) % 4096 == 0) ea = exp(-iv(mpq_class(i, static_cast<long>(n))));  // keep the width small
    const Interval eb = ea * step;
    // A boundary X(l_{i_lo+1}) below first_x (or X(l_{i_hi-1}) above last_x) leaves the first
    // (last) cell empty, its mass interval clamped at 0, and its neighbour counts some tail
    // outcomes twice: every outcome in [first_x, last_x] is still in a cell of its loss.
    const BoundaryCdf next = cdf.at(i + 1 == g.i_hi ? last_x : pair.inverse(i + 1, n));
    // Cell masses, outward: [cdf(b).lo - cdf(a).hi, cdf(b).hi - cdf(a).lo].
    connect_dots(static_cast<std::size_t>(i - g.i_lo), next.p - prev.p, next.q - prev.q, ea, eb, add);
    prev = next;
    ea = eb;
  }
}

AntipodalPair checked_pair(const RdpEvent& event) {
  if (!covers_replace_pair(event)) {
    throw ParameterError("route", "route: the replace-one dominating pair is proven for the Poisson-subsampled "
                                  "Gaussian only, not " + event.describe());
  }
  return AntipodalPair(event.subsampled_mu(), event.subsampled_q());
}

}  // namespace

bool covers_replace_pair(const RdpEvent& event) {
  return event.subsampled_gaussian() != nullptr;
}

DiscretePld discretize_replace_pair(const RdpEvent& event, const DiscretizationOptions& o) {
  check_discretization_options(o);
  const AntipodalPair pair = checked_pair(event);
  const unsigned long n = o.steps_per_unit;
  const ReplaceGrid g = replace_grid(pair, n, o.tail_bits, o.max_grid_points);
  DiscretePld chain = empty_chain(Side::kUpper, n, o.scale_bits, g.i_lo, static_cast<std::size_t>(g.i_hi - g.i_lo + 1));
  add_cell_masses(pair, g, n, [&](std::size_t j, mpfr_srcptr v) {
    add_mass(chain.masses, j, to_fixed(v, chain.scale_bits, true));
  });
  // Tails beyond first_x / last_x: at most Phi(-x0) of each law per side (pld_replace_instance.h).
  chain.infinity_mass = to_fixed(g.tail.upper(), o.scale_bits, true);
  add_mass(chain.masses, 0, to_fixed(g.tail.upper(), o.scale_bits, true));
  trim_zero_ends(chain);
  return chain;
}

WideChain discretize_replace_pair_wide(const RdpEvent& event, unsigned long steps_per_unit, unsigned scale_bits,
                                       unsigned tail_bits) {
  DiscretizationOptions o;
  o.steps_per_unit = steps_per_unit;
  check_discretization_options(o);
  if (scale_bits < 8 || scale_bits > 1024 || tail_bits < 8 || tail_bits > 1000) {
    throw std::logic_error("pld::discretize_replace_pair_wide: scale_bits or tail_bits out of range");
  }
  const AntipodalPair pair = checked_pair(event);
  const ReplaceGrid g = replace_grid(pair, steps_per_unit, tail_bits, o.max_grid_points);
  const auto points = static_cast<std::size_t>(g.i_hi - g.i_lo + 1);
  WideChain chain{steps_per_unit, g.i_lo, scale_bits, std::vector<mpz_class>(points), mpz_class(0)};
  add_cell_masses(pair, g, steps_per_unit, [&](std::size_t j, mpfr_srcptr v) {
    chain.masses[j] += to_fixed_wide(v, scale_bits, true);
  });
  // Tails as above: high to +infinity, low onto the lowest grid loss.
  chain.infinity_mass = to_fixed_wide(g.tail.upper(), scale_bits, true);
  chain.masses[0] += chain.infinity_mass;
  trim_zero_ends(chain);
  return chain;
}

}  // namespace exactdp::accounting::pld
