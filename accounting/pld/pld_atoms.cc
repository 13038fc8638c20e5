#include <exactdp/accounting/pld/pld_atoms.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include <exactdp/accounting/pld/pld_composition.h>
#include <exactdp/accounting/pld/pld_grid.h>
#include <exactdp/core/errors.h>

namespace exactdp::accounting::pld {
namespace {

constexpr mpfr_prec_t kPrecision = kDefaultPrecision;

// e^(l) for the exact rational l, rounded up.
Interval exp_of(const mpq_class& l) { return exp(Interval(l, kPrecision)); }

struct AtomGrid {
  long i_lo = 0, i_hi = 0;  // the grid indices every atom's loss lies within
  long coarse = 1, t_lo = 0, t_hi = 0;
};

AtomGrid atom_grid(const AtomPair& pair, const DiscretizationOptions& o) {
  check_discretization_options(o);
  if (pair.atoms.empty()) throw ParameterError::out_of_range("atoms", "none", "at least one atom (pld::discretize_atoms)");
  const unsigned long n = o.steps_per_unit;
  AtomGrid g;
  for (std::size_t k = 0; k < pair.atoms.size(); ++k) {
    const long a = grid_index(pair.atoms[k].loss.lower(), n, MPFR_RNDD);
    const long b = grid_index(pair.atoms[k].loss.upper(), n, MPFR_RNDU);
    g.i_lo = k == 0 ? a : std::min(g.i_lo, a);
    g.i_hi = k == 0 ? b : std::max(g.i_hi, b);
  }
  if (static_cast<unsigned long>(g.i_hi - g.i_lo) > o.max_grid_points) {
    throw LimitError("pld-step", "pld-step: the event's loss range needs more than " + std::to_string(o.max_grid_points) +
                                     " grid points at this step");
  }
  g.coarse = o.test_coarsening >= 1 && n % o.test_coarsening == 0 ? o.test_coarsening : 1;
  g.t_lo = floor_div(g.i_lo, g.coarse);
  g.t_hi = floor_div(g.i_hi, g.coarse);
  return g;
}

TestChains test_chains(const AtomPair& pair, const DiscretizationOptions& o, const AtomGrid& g) {
  const unsigned long n = o.steps_per_unit;
  const auto test_points = static_cast<std::size_t>(g.t_hi - g.t_lo + 1);
  const auto cn = n / static_cast<unsigned long>(g.coarse);
  TestChains out{empty_chain(Side::kLower, cn, o.scale_bits, g.t_lo, test_points),
                 empty_chain(Side::kUpper, cn, o.scale_bits, g.t_lo, test_points)};
  // The tilt of cell T: e^(l_T + half a cell), l_T = T c / n, as an upper bound.
  const auto tilt = [&](long t) { return exp_of(mpq_class(2 * t * g.coarse + g.coarse, 2 * n)); };
  const Interval zero(0L, kPrecision);
  for (const Atom& atom : pair.atoms) {
    const long t = floor_div(grid_index(atom.loss.lower(), n, MPFR_RNDD), g.coarse);
    const auto it = static_cast<std::size_t>(t - g.t_lo);
    add_mass(out.test_p.masses, it, to_fixed(max(atom.p, zero).lower(), o.scale_bits, false));
    add_mass(out.test_q.masses, it, to_fixed((max(atom.q, zero) * tilt(t)).upper(), o.scale_bits, true));
  }
  // Tails: low at the first cell (Q-mass <= q_low), high at the last (Q-mass <=
  // e^(-high_loss_from) p_high); their P-masses are dropped.
  out.test_q.tilted = true;
  out.test_q.tilt_half_steps = 1;
  add_mass(out.test_q.masses, 0, to_fixed((pair.q_low * tilt(g.t_lo)).upper(), o.scale_bits, true));
  const Interval q_high = exp(-pair.high_loss_from) * pair.p_high * tilt(g.t_hi);
  add_mass(out.test_q.masses, test_points - 1, to_fixed(q_high.upper(), o.scale_bits, true));
  for (DiscretePld* d : {&out.test_p, &out.test_q}) trim_zero_ends(*d);
  return out;
}

// The connect-the-dots split of an atom (masses p >= 0, q >= 0, its loss between the grid losses
// l_a < l_b): the mass put at l_b, enclosed in [0, p]; the rest, p minus it, goes to l_a, so that
// both the mass and the e^-loss-weighted mass are kept (docs/ACCOUNTING.md).
Interval mass_at_upper_loss(const Interval& p, const Interval& q, long a, long b, unsigned long n) {
  const Interval zero(0L, kPrecision);
  const Interval ea = exp_of(mpq_class(-a, n)), eb = exp_of(mpq_class(-b, n));
  return min(max((p * ea - q) / (ea - eb), zero), p);
}

}  // namespace

TestChains discretize_atoms_test(const AtomPair& pair, const DiscretizationOptions& options) {
  return test_chains(pair, options, atom_grid(pair, options));
}

DiscretizedEvent discretize_atoms(const AtomPair& pair, const DiscretizationOptions& o) {
  const AtomGrid g = atom_grid(pair, o);
  const unsigned long n = o.steps_per_unit;
  DiscretizedEvent out;
  out.upper = empty_chain(Side::kUpper, n, o.scale_bits, g.i_lo, static_cast<std::size_t>(g.i_hi - g.i_lo + 1));
  const Interval zero(0L, kPrecision);
  for (const Atom& atom : pair.atoms) {
    const long a = grid_index(atom.loss.lower(), n, MPFR_RNDD);
    const long b = grid_index(atom.loss.upper(), n, MPFR_RNDU);
    const Interval p = max(atom.p, zero), q = max(atom.q, zero);
    const auto ia = static_cast<std::size_t>(a - g.i_lo), ib = static_cast<std::size_t>(b - g.i_lo);
    if (a == b) {
      add_mass(out.upper.masses, ia, to_fixed(p.upper(), o.scale_bits, true));
    } else {
      const Interval split = mass_at_upper_loss(p, q, a, b, n);
      const Interval rest = max(p - split, zero);  // at l_a
      add_mass(out.upper.masses, ib, to_fixed(split.upper(), o.scale_bits, true));
      add_mass(out.upper.masses, ia, to_fixed(rest.upper(), o.scale_bits, true));
    }
  }
  // Tails: high to +infinity, low onto the lowest loss.
  out.upper.infinity_mass = to_fixed(pair.p_high.upper(), o.scale_bits, true);
  add_mass(out.upper.masses, 0, to_fixed(pair.p_low.upper(), o.scale_bits, true));
  trim_zero_ends(out.upper);
  TestChains test = test_chains(pair, o, g);
  out.test_p = std::move(test.test_p);
  out.test_q = std::move(test.test_q);
  return out;
}

WideTestPair discretize_atoms_wide_test(const AtomPair& pair, unsigned long n, unsigned scale_bits) {
  DiscretizationOptions o;
  o.steps_per_unit = n;
  const AtomGrid g = atom_grid(pair, o);
  const auto points = static_cast<std::size_t>(g.i_hi - g.i_lo + 1);
  WideTestPair out{n, g.i_lo, scale_bits, std::vector<mpz_class>(points), std::vector<mpz_class>(points)};
  const Interval zero(0L, kPrecision);
  for (const Atom& atom : pair.atoms) {
    const auto ia = static_cast<std::size_t>(grid_index(atom.loss.lower(), n, MPFR_RNDD) - g.i_lo);
    out.p[ia] += to_fixed_wide(max(atom.p, zero).lower(), scale_bits, false);  // label: the cell of the loss's lower end
    out.q[ia] += to_fixed_wide(max(atom.q, zero).upper(), scale_bits, true);
  }
  trim_zero_ends(out);  // the tails are dropped
  return out;
}

WideDiscretizedEvent discretize_atoms_wide(const AtomPair& pair, unsigned long n, unsigned scale_bits) {
  DiscretizationOptions o;
  o.steps_per_unit = n;
  const AtomGrid g = atom_grid(pair, o);
  const auto points = static_cast<std::size_t>(g.i_hi - g.i_lo + 1);
  WideDiscretizedEvent out;
  out.upper = WideChain{n, g.i_lo, scale_bits, std::vector<mpz_class>(points), mpz_class(0)};
  const Interval zero(0L, kPrecision);
  for (const Atom& atom : pair.atoms) {
    const long a = grid_index(atom.loss.lower(), n, MPFR_RNDD);
    const long b = grid_index(atom.loss.upper(), n, MPFR_RNDU);
    const Interval p = max(atom.p, zero), q = max(atom.q, zero);
    const auto ia = static_cast<std::size_t>(a - g.i_lo), ib = static_cast<std::size_t>(b - g.i_lo);
    if (a == b) {
      out.upper.masses[ia] += to_fixed_wide(p.upper(), scale_bits, true);
      continue;
    }
    const Interval split = mass_at_upper_loss(p, q, a, b, n);
    out.upper.masses[ib] += to_fixed_wide(split.upper(), scale_bits, true);
    out.upper.masses[ia] += to_fixed_wide(max(p - split, zero).upper(), scale_bits, true);
  }
  // Tails: high to +infinity, low onto the lowest loss; the test pair drops both.
  out.upper.infinity_mass = to_fixed_wide(pair.p_high.upper(), scale_bits, true);
  out.upper.masses[0] += to_fixed_wide(pair.p_low.upper(), scale_bits, true);
  trim_zero_ends(out.upper);
  out.test = discretize_atoms_wide_test(pair, n, scale_bits);
  return out;
}

}  // namespace exactdp::accounting::pld
