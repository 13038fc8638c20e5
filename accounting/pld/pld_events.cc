// The certified discretisations of pld_events.h. This file: the Gaussian and GDP events
// (mu = Delta / sigma) and the Poisson-subsampled Gaussian under add/remove, on a fast path;
// the discrete Gaussian, discrete Laplace and Laplace (plain or subsampled) go through their
// atoms (pld_noise_atoms.h, pld_atoms.h); pure-dp and zcdp events are refused with
// ParameterError("route") (the pld route then does not apply).
//
// Pairs, in units of sigma (mu = Delta / sigma, rate q; q = 1 for a plain Gaussian):
//   kRemove: P = (1-q) N(0,1) + q N(mu,1), Q = N(0,1), L(x) = log(1 - q + q e^(mu x - mu^2/2)),
//            increasing in x, so the loss cell [l_i, l_{i+1}] is the x-interval
//            [X(l_i), X(l_{i+1})], X(s) = (log((e^s - (1-q)) / q) + mu^2/2) / mu (-inf when
//            e^s <= 1 - q);
//   kAdd:    P = N(0,1), Q = the mixture, L(x) = -log(1 - q + q e^(mu x - mu^2/2)), decreasing:
//            the cell is [X(-l_{i+1}), X(-l_i)].
// Cell masses p_i = P(cell), q_i = Q(cell) are differences of normal cdfs at the x-boundaries.
//
// How every number is enclosed (raw MPFR at 128 bits, no interval objects in the loop):
//   * X(s) is increasing in s and built from increasing steps (exp, subtract a constant,
//     multiply by a positive constant, log, add, multiply by 1/mu > 0), so X's lower end is the
//     same chain with every operation rounded DOWN and every constant taken at its safe end,
//     the upper end likewise rounded UP. exp is evaluated once (RNDD at s rounded down): the
//     upper end is nextabove(that) (1 + 2 (s_hi - s_lo)); log once (RNDD): the upper end is
//     nextabove(that) + (y_hi - y_lo) / y_lo (log's slope is at most 1 / y_lo).
//   * Phi over [x_lo, x_hi] by normal_cdf_table.h (Taylor at anchors, one stated error bound).
//   * The mixtures' cdfs as sums of non-negative terms rounded down / up; cell masses as
//     differences of the ends (lower = lower - upper, clamped at 0).
//   * e^(-l_i) by multiplying with the enclosure of e^(-1/n) cell by cell, restarted from a
//     fresh exp every 4096 cells (the widths stay near 2^-115).
//
// Upper chain: connect the dots: the mass of every outcome in a cell is split onto the cell's
// two grid losses so that both its P-mass and its Q-mass are kept: b at l_{i+1} and a at l_i
// with a + b = p_i and a e^(-l_i) + b e^(-l_{i+1}) = q_i, i.e.
// b = (p_i e^(-l_i) - q_i) / (e^(-l_i) (1 - e^(-h))). Merging the two atoms of an outcome gives
// the outcome back, so the true pair is a post-processing of the split pair: the split pair
// DOMINATES it. The stored masses are upper bounds of a and b (b <= its enclosure's upper end
// and <= p_i; a = p_i - b <= p_i's upper end - b's lower end), rounded UP to 2^-scale_bits.
// Lower chains: test_p = P-mass of each cell rounded DOWN, test_q = its Q-mass rounded UP, at
// the cell's lower index (pld_test_bound.h).
// Truncation: x0 is the least multiple of 1/4 with Phi(-x0) <= 2^-tail_bits (upper bound);
// outcomes with x outside [-x0, mu + x0] have P- and Q-mass at most 2^-tail_bits on each side
// (both laws' tails are bounded by those of N(0,1) below and N(mu,1) above). upper and test_q:
// the tail on the high-loss side goes to +infinity, the one on the low-loss side onto the lowest
// grid loss; test_p drops both.
// Cost: one exp, one log and two Horner evaluations of the cdf table per grid boundary (~5 us):
// ~70 k boundaries per pair order at sigma = 0.8, q = 0.01, step 10^-4; fewer for larger sigma.
#include <exactdp/accounting/pld/pld_events.h>

#include <mpfr.h>

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <exactdp/core/interval.h>
#include <exactdp/accounting/normal.h>
#include <exactdp/accounting/pld/normal_cdf_table.h>
#include <exactdp/accounting/pld/pld_atoms.h>
#include <exactdp/accounting/pld/pld_noise_atoms.h>
#include <exactdp/accounting/pld/pld_composition.h>
#include <exactdp/accounting/pld/pld_grid.h>
#include <exactdp/core/errors.h>

namespace exactdp::accounting::pld {
namespace {

constexpr mpfr_prec_t kPrecision = NormalCdfTable::kPrecision;  // 128
static_assert(kPrecision == kDefaultPrecision, "Real() scratch numbers are at kPrecision");

// [lo, hi] enclosing the rational r.
void enclose_q(const mpq_class& r, mpfr_ptr lo, mpfr_ptr hi) {
  mpfr_set_q(lo, r.get_mpq_t(), MPFR_RNDD);
  mpfr_set_q(hi, r.get_mpq_t(), MPFR_RNDU);
}

struct Pair {
  mpq_class mu, q;
  PairOrder order;
};

// The x-boundaries X(s) of pld_events.cc's header, for s = +-i/n, rounded outward.
class BoundaryX {
 public:
  BoundaryX(const Pair& pair, unsigned long n) : n_(n), sign_(pair.order == PairOrder::kRemove ? 1 : -1) {
    enclose_q(1 - pair.q, c_lo_, c_hi_);
    enclose_q(1 / pair.q, iq_lo_, iq_hi_);
    enclose_q(pair.mu * pair.mu / 2, m2_lo_, m2_hi_);
    enclose_q(1 / pair.mu, imu_lo_, imu_hi_);
    enclose_q(pair.mu, mu_lo_, mu_hi_);
  }

  // Returns false when X = -infinity at both ends (e^s <= 1 - q); x_lo may be -inf alone.
  bool at(long i, mpfr_ptr x_lo, mpfr_ptr x_hi) {
    mpfr_set_si(s_lo_, sign_ * i, MPFR_RNDN);  // exact (|i| < 2^63)
    mpfr_set(s_hi_, s_lo_, MPFR_RNDN);
    mpfr_div_ui(s_lo_, s_lo_, n_, MPFR_RNDD);
    mpfr_div_ui(s_hi_, s_hi_, n_, MPFR_RNDU);
    // e^s in [e_lo, e_hi]: e^s <= e^(s_lo) e^(s_hi - s_lo) <= nextabove(e_lo) (1 + 2 (s_hi - s_lo)).
    mpfr_exp(e_lo_, s_lo_, MPFR_RNDD);
    mpfr_set(e_hi_, e_lo_, MPFR_RNDU);
    mpfr_nextabove(e_hi_);
    mpfr_sub(t_, s_hi_, s_lo_, MPFR_RNDU);
    mpfr_mul_2ui(t_, t_, 1, MPFR_RNDU);
    mpfr_add_ui(t_, t_, 1, MPFR_RNDU);
    mpfr_mul(e_hi_, e_hi_, t_, MPFR_RNDU);
    // y = (e^s - (1 - q)) / q.
    mpfr_sub(y_hi_, e_hi_, c_lo_, MPFR_RNDU);
    if (mpfr_sgn(y_hi_.get()) <= 0) return false;
    mpfr_mul(y_hi_, y_hi_, iq_hi_, MPFR_RNDU);
    mpfr_sub(y_lo_, e_lo_, c_hi_, MPFR_RNDD);
    if (mpfr_sgn(y_lo_.get()) > 0) {
      mpfr_mul(y_lo_, y_lo_, iq_lo_, MPFR_RNDD);
      mpfr_log(x_lo, y_lo_, MPFR_RNDD);
      // log(y_hi) <= log(y_lo) + (y_hi - y_lo) / y_lo <= nextabove(x_lo) + that.
      mpfr_sub(t_, y_hi_, y_lo_, MPFR_RNDU);
      mpfr_div(t_, t_, y_lo_, MPFR_RNDU);
      mpfr_set(x_hi, x_lo, MPFR_RNDU);
      mpfr_nextabove(x_hi);
      mpfr_add(x_hi, x_hi, t_, MPFR_RNDU);
      mpfr_add(x_lo, x_lo, m2_lo_, MPFR_RNDD);
      mpfr_mul(x_lo, x_lo, mpfr_sgn(x_lo) >= 0 ? imu_lo_ : imu_hi_, MPFR_RNDD);
    } else {
      mpfr_set_inf(x_lo, -1);
      mpfr_log(x_hi, y_hi_, MPFR_RNDU);
    }
    mpfr_add(x_hi, x_hi, m2_hi_, MPFR_RNDU);
    mpfr_mul(x_hi, x_hi, mpfr_sgn(x_hi) >= 0 ? imu_hi_ : imu_lo_, MPFR_RNDU);
    return true;
  }

  // [x_lo - mu, x_hi - mu] rounded outward.
  void minus_mu(mpfr_srcptr x_lo, mpfr_srcptr x_hi, mpfr_ptr lo, mpfr_ptr hi) {
    mpfr_sub(lo, x_lo, mu_hi_, MPFR_RNDD);
    mpfr_sub(hi, x_hi, mu_lo_, MPFR_RNDU);
  }

 private:
  unsigned long n_;
  long sign_;
  Real c_lo_, c_hi_, iq_lo_, iq_hi_, m2_lo_, m2_hi_, imu_lo_, imu_hi_, mu_lo_, mu_hi_;
  Real s_lo_, s_hi_, e_lo_, e_hi_, y_lo_, y_hi_, t_;
};

// The cdfs of P and Q at one boundary, enclosed.
struct BoundaryCdf {
  Real p_lo, p_hi, q_lo, q_hi;
};

// Loss of x (interval).
Interval loss_at(const Pair& pair, const mpq_class& x) {
  const Interval inner = log(Interval(1 - pair.q, kPrecision) +
                             exp(Interval(pair.mu * x - pair.mu * pair.mu / 2, kPrecision)) * pair.q);
  return pair.order == PairOrder::kRemove ? inner : -inner;
}

// The truncated loss range of a pair on the grid, and the lower end's coarser cells.
struct PairGrid {
  Interval tail{kPrecision};   // Phi(-x0): upper end <= 2^-tail_bits
  mpq_class x0;                // the least multiple of 1/4 with that tail
  Interval l_max{kPrecision};  // the largest loss kept (at x = -x0 or mu + x0)
  bool increasing = true;      // kRemove: L increasing in x
  unsigned long n = 1;         // steps per unit loss
  long i_lo = 0, i_hi = 0;     // grid indices of the loss range
  long coarse = 1, t_lo = 0;   // the lower end's cells: `coarse` steps each, from cell t_lo
  std::size_t cells = 0, test_points = 0;
};

PairGrid pair_grid(const Pair& pair, const DiscretizationOptions& o) {
  PairGrid g;
  g.n = o.steps_per_unit;
  g.x0 = gaussian_truncation(o.tail_bits, g.tail);
  const Interval l_a = loss_at(pair, -g.x0), l_b = loss_at(pair, pair.mu + g.x0);
  g.increasing = pair.order == PairOrder::kRemove;
  const Interval& l_min = g.increasing ? l_a : l_b;
  g.l_max = g.increasing ? l_b : l_a;
  g.i_lo = grid_index(l_min.lower(), g.n, MPFR_RNDD);
  g.i_hi = grid_index(g.l_max.upper(), g.n, MPFR_RNDU);
  if (static_cast<unsigned long>(g.i_hi - g.i_lo) > o.max_grid_points) {
    throw LimitError("pld-step", "pld-step: the event's loss range needs more than " + std::to_string(o.max_grid_points) +
                                     " grid points at this step");
  }
  g.cells = static_cast<std::size_t>(g.i_hi - g.i_lo);
  g.coarse = o.test_coarsening >= 1 && g.n % o.test_coarsening == 0 ? o.test_coarsening : 1;
  g.t_lo = floor_div(g.i_lo, g.coarse);
  g.test_points = static_cast<std::size_t>(floor_div(g.i_hi, g.coarse) - g.t_lo + 1);
  return g;
}

DiscretizedEvent empty_event(const PairGrid& g, unsigned scale_bits) {
  const unsigned long coarse_n = g.n / static_cast<unsigned long>(g.coarse);
  return {empty_chain(Side::kUpper, g.n, scale_bits, g.i_lo, g.cells + 1),
          empty_chain(Side::kLower, coarse_n, scale_bits, g.t_lo, g.test_points),
          empty_chain(Side::kUpper, coarse_n, scale_bits, g.t_lo, g.test_points)};
}

// The cdfs of P and Q (as functions of x) at the x-boundary of grid loss i / n.
class PairCdfs {
 public:
  PairCdfs(const Pair& pair, const PairGrid& g)
      : cdf_(-g.x0 - pair.mu - 1, pair.mu + g.x0 + 1), boundary_(pair, g.n), increasing_(g.increasing) {
    enclose_q(pair.q, q_lo_, q_hi_);
    enclose_q(1 - pair.q, c_lo_, c_hi_);
  }

  void at(long i, BoundaryCdf& b) {
    if (!boundary_.at(i, x_lo_, x_hi_)) {
      for (mpfr_ptr v : {b.p_lo.get(), b.p_hi.get(), b.q_lo.get(), b.q_hi.get()}) mpfr_set_zero(v, 1);
      return;
    }
    cdf_.enclose(x_lo_, x_hi_, f0_lo_, f0_hi_);
    boundary_.minus_mu(x_lo_, x_hi_, xm_lo_, xm_hi_);
    cdf_.enclose(xm_lo_, xm_hi_, f1_lo_, f1_hi_);
    // mixture = (1-q) Phi(x) + q Phi(x - mu), non-negative terms.
    mpfr_ptr mix_lo = increasing_ ? b.p_lo : b.q_lo;
    mpfr_ptr mix_hi = increasing_ ? b.p_hi : b.q_hi;
    mpfr_mul(mix_lo, f0_lo_, c_lo_, MPFR_RNDD);
    mpfr_mul(t_, f1_lo_, q_lo_, MPFR_RNDD);
    mpfr_add(mix_lo, mix_lo, t_, MPFR_RNDD);
    mpfr_mul(mix_hi, f0_hi_, c_hi_, MPFR_RNDU);
    mpfr_mul(t_, f1_hi_, q_hi_, MPFR_RNDU);
    mpfr_add(mix_hi, mix_hi, t_, MPFR_RNDU);
    mpfr_set(increasing_ ? b.q_lo : b.p_lo, f0_lo_, MPFR_RNDD);
    mpfr_set(increasing_ ? b.q_hi : b.p_hi, f0_hi_, MPFR_RNDU);
  }

 private:
  NormalCdfTable cdf_;
  BoundaryX boundary_;
  bool increasing_;
  Real q_lo_, q_hi_, c_lo_, c_hi_;
  Real x_lo_, x_hi_, xm_lo_, xm_hi_, f0_lo_, f0_hi_, f1_lo_, f1_hi_, t_;
};

// e^(-l_i) along the grid (multiplied by e^(-h) cell by cell, restarted from a fresh exp every
// kRestart cells) and g = 1 - e^(-h), h = 1/n, all enclosed.
class GridExp {
 public:
  explicit GridExp(unsigned long n) : n_(n) {
    Real h_lo, h_hi;
    enclose_q(mpq_class(-1, n), h_lo, h_hi);
    mpfr_exp(step_lo_, h_lo, MPFR_RNDD);
    mpfr_exp(step_hi_, h_hi, MPFR_RNDU);
    mpfr_expm1(g_lo, h_hi, MPFR_RNDU);  // expm1(-h) <= 0; 1 - e^(-h) = -expm1(-h)
    mpfr_neg(g_lo, g_lo, MPFR_RNDD);
    mpfr_expm1(g_hi, h_lo, MPFR_RNDD);
    mpfr_neg(g_hi, g_hi, MPFR_RNDU);
  }

  // e^(-i/n) for the c-th cell of a sweep (i increasing by one per cell).
  void advance(long i, std::size_t c) {
    if (c % kRestart == 0) {
      Real l_lo, l_hi;
      enclose_q(mpq_class(-i, n_), l_lo, l_hi);
      mpfr_exp(e_lo, l_lo, MPFR_RNDD);
      mpfr_exp(e_hi, l_hi, MPFR_RNDU);
    } else {
      mpfr_mul(e_lo, e_lo, step_lo_, MPFR_RNDD);
      mpfr_mul(e_hi, e_hi, step_hi_, MPFR_RNDU);
    }
  }

  Real e_lo, e_hi, g_lo, g_hi;

 private:
  static constexpr std::size_t kRestart = 4096;
  unsigned long n_;
  Real step_lo_, step_hi_;
};

// The masses of the cell between grid losses i and i + 1 (boundaries `bottom` and `top` of the
// x-cell), added to the three chains of `out`.
class CellSplitter {
 public:
  CellSplitter(const PairGrid& g, unsigned scale_bits) : g_(g), scale_bits_(scale_bits), tilt_index_(g.t_lo - 1) {}

  // The cell's P- and Q-mass enclosures and the upper ends of its connect-the-dots split
  // (a_hi at l_i, b_hi at l_{i+1}), read by the accessors below.
  void compute(const BoundaryCdf& top, const BoundaryCdf& bottom, const GridExp& e) {
    mpfr_sub(pm_lo_, top.p_lo, bottom.p_hi, MPFR_RNDD);
    mpfr_sub(pm_hi_, top.p_hi, bottom.p_lo, MPFR_RNDU);
    mpfr_sub(qm_lo_, top.q_lo, bottom.q_hi, MPFR_RNDD);
    mpfr_sub(qm_hi_, top.q_hi, bottom.q_lo, MPFR_RNDU);
    for (mpfr_ptr v : {pm_lo_.get(), pm_hi_.get(), qm_lo_.get(), qm_hi_.get()}) {
      if (mpfr_sgn(v) < 0) mpfr_set_zero(v, 1);
    }
    split_upper(e);
  }
  [[nodiscard]] mpfr_srcptr p_lower() const { return pm_lo_; }
  [[nodiscard]] mpfr_srcptr q_upper() const { return qm_hi_; }
  [[nodiscard]] mpfr_srcptr a_upper() const { return a_hi_; }
  [[nodiscard]] mpfr_srcptr b_upper() const { return b_hi_; }

  void add(const BoundaryCdf& top, const BoundaryCdf& bottom, const GridExp& e, long i, DiscretizedEvent& out) {
    const auto c = static_cast<std::size_t>(i - g_.i_lo);
    compute(top, bottom, e);
    add_mass(out.upper.masses, c, to_fixed(a_hi_, scale_bits_, true, scratch_));
    add_mass(out.upper.masses, c + 1, to_fixed(b_hi_, scale_bits_, true, scratch_));
    const long cell_index = floor_div(i, g_.coarse);
    const auto cell = static_cast<std::size_t>(cell_index - g_.t_lo);
    if (cell_index != tilt_index_) {  // e^(l_T + half a cell), l_T = cell_index coarse / n, rounded up
      tilt_index_ = cell_index;
      enclose_q(mpq_class(2 * cell_index * g_.coarse + g_.coarse, 2 * g_.n), tilt_, tilt_hi_);
      mpfr_exp(tilt_, tilt_hi_, MPFR_RNDU);
    }
    add_mass(out.test_p.masses, cell, to_fixed(pm_lo_, scale_bits_, false, scratch_));
    mpfr_mul(qm_hi_, qm_hi_, tilt_, MPFR_RNDU);  // tilted: Q-mass e^(l_T + half a cell)
    add_mass(out.test_q.masses, cell, to_fixed(qm_hi_, scale_bits_, true, scratch_));
  }

 private:
  // b = (p e^(-l_i) - q) / (e^(-l_i) (1 - e^(-h))), enclosed and clamped to [0, p]; a_hi = p - b.
  void split_upper(const GridExp& e) {
    mpfr_mul(b_hi_, pm_hi_, e.e_hi, MPFR_RNDU);
    mpfr_sub(b_hi_, b_hi_, qm_lo_, MPFR_RNDU);
    if (mpfr_sgn(b_hi_.get()) > 0) {
      mpfr_mul(den_, e.e_lo, e.g_lo, MPFR_RNDD);
      mpfr_div(b_hi_, b_hi_, den_, MPFR_RNDU);
      mpfr_min(b_hi_, b_hi_, pm_hi_, MPFR_RNDU);
    } else {
      mpfr_set_zero(b_hi_, 1);
    }
    mpfr_mul(b_lo_, pm_lo_, e.e_lo, MPFR_RNDD);
    mpfr_sub(b_lo_, b_lo_, qm_hi_, MPFR_RNDD);
    if (mpfr_sgn(b_lo_.get()) > 0) {
      mpfr_mul(den_, e.e_hi, e.g_hi, MPFR_RNDU);
      mpfr_div(b_lo_, b_lo_, den_, MPFR_RNDD);
    } else {
      mpfr_set_zero(b_lo_, 1);
    }
    mpfr_sub(a_hi_, pm_hi_, b_lo_, MPFR_RNDU);
  }

  const PairGrid& g_;
  unsigned scale_bits_;
  long tilt_index_;
  Real pm_lo_, pm_hi_, qm_lo_, qm_hi_, b_lo_, b_hi_, a_hi_, den_, scratch_, tilt_, tilt_hi_;
};

// The tails (upper and test_q): the high-loss tail to +infinity, the low-loss tail onto the
// lowest grid loss. test_p drops them.
// test_q is tilted (discrete_pld.h): its masses bound Q(cell) e^(l_T + half a cell); the
// infinity mass is not.
void add_tails(const PairGrid& g, unsigned scale_bits, DiscretizedEvent& out) {
  Real scratch, tilt, tilt_hi;
  const std::uint64_t t_units = to_fixed(g.tail.upper(), scale_bits, true, scratch);
  out.upper.infinity_mass = t_units;
  add_mass(out.upper.masses, 0, t_units);
  out.test_q.tilted = true;
  out.test_q.tilt_half_steps = 1;
  // The tails are mapped to the first and the last cell (a deterministic map: still a
  // post-processing). Low-loss tail: Q-mass <= tail, tilted at the first cell. High-loss tail
  // (losses >= l_max): Q-mass = E_P[e^(-L); tail] <= e^(-l_max) tail, tilted at the last cell.
  // (Not +infinity: an untilted mass there would be multiplied by e^eps in every test.)
  enclose_q(mpq_class(2 * g.t_lo * g.coarse + g.coarse, 2 * g.n), tilt, tilt_hi);
  mpfr_exp(tilt, tilt_hi, MPFR_RNDU);
  mpfr_mul(tilt, tilt, g.tail.upper(), MPFR_RNDU);
  add_mass(out.test_q.masses, 0, to_fixed(tilt, scale_bits, true, scratch));
  const long t_last = g.t_lo + static_cast<long>(g.test_points) - 1;
  const Interval high =
      exp(Interval(mpq_class(2 * t_last * g.coarse + g.coarse, 2 * g.n), kPrecision) - g.l_max) * g.tail;
  add_mass(out.test_q.masses, g.test_points - 1, to_fixed(high.upper(), scale_bits, true, scratch));
}

DiscretizedEvent discretize_pair(const Pair& pair, const DiscretizationOptions& o) {
  check_discretization_options(o);
  if (o.tail_bits < 8 || o.tail_bits > 200) {
    throw ParameterError::out_of_range("tail_bits", std::to_string(o.tail_bits), "8 <= tail_bits <= 200");
  }
  const PairGrid g = pair_grid(pair, o);
  DiscretizedEvent out = empty_event(g, o.scale_bits);
  PairCdfs cdfs(pair, g);
  GridExp e(g.n);
  CellSplitter splitter(g, o.scale_bits);
  BoundaryCdf ends[2];  // the cell's two boundaries, alternating
  cdfs.at(g.i_lo, ends[0]);
  for (std::size_t c = 0; c < g.cells; ++c) {
    const long i = g.i_lo + static_cast<long>(c);
    e.advance(i, c);
    const BoundaryCdf& prev = ends[c % 2];
    BoundaryCdf& cur = ends[(c + 1) % 2];
    cdfs.at(i + 1, cur);
    // Cell [l_i, l_{i+1}]: increasing L: x from boundary i to i + 1; decreasing: reversed.
    splitter.add(g.increasing ? cur : prev, g.increasing ? prev : cur, e, i, out);
  }
  add_tails(g, o.scale_bits, out);
  for (DiscretePld* p : {&out.upper, &out.test_p, &out.test_q}) trim_zero_ends(*p);
  return out;
}

// discretize_pair with wide masses (pld_events.h, discretize_wide): the same cells and
// enclosures; test cells one grid step wide, untilted, tails dropped.
WideDiscretizedEvent discretize_pair_wide(const Pair& pair, unsigned long n, unsigned scale_bits, unsigned tail_bits) {
  DiscretizationOptions o;
  o.steps_per_unit = n;
  o.tail_bits = tail_bits;
  o.test_coarsening = 1;
  check_discretization_options(o);
  const PairGrid g = pair_grid(pair, o);
  WideDiscretizedEvent out;
  out.upper = WideChain{n, g.i_lo, scale_bits, std::vector<mpz_class>(g.cells + 1), mpz_class(0)};
  out.test = WideTestPair{n, g.i_lo, scale_bits, std::vector<mpz_class>(g.cells), std::vector<mpz_class>(g.cells)};
  PairCdfs cdfs(pair, g);
  GridExp e(g.n);
  CellSplitter cell(g, 60);
  BoundaryCdf ends[2];
  cdfs.at(g.i_lo, ends[0]);
  for (std::size_t c = 0; c < g.cells; ++c) {
    const long i = g.i_lo + static_cast<long>(c);
    e.advance(i, c);
    const BoundaryCdf& prev = ends[c % 2];
    BoundaryCdf& cur = ends[(c + 1) % 2];
    cdfs.at(i + 1, cur);
    cell.compute(g.increasing ? cur : prev, g.increasing ? prev : cur, e);
    out.upper.masses[c] += to_fixed_wide(cell.a_upper(), scale_bits, true);
    out.upper.masses[c + 1] += to_fixed_wide(cell.b_upper(), scale_bits, true);
    out.test.p[c] = to_fixed_wide(cell.p_lower(), scale_bits, false);
    out.test.q[c] = to_fixed_wide(cell.q_upper(), scale_bits, true);
  }
  const mpz_class tail = to_fixed_wide(g.tail.upper(), scale_bits, true);
  out.upper.infinity_mass = tail;  // high-loss tail
  out.upper.masses[0] += tail;     // low-loss tail onto the lowest grid loss
  trim_zero_ends(out.upper);
  trim_zero_ends(out.test);
  return out;
}

[[noreturn]] void refuse(const RdpEvent& event, const std::string& why) {
  throw ParameterError("route", "route: the pld route does not apply to " + event.describe() + ": " + why);
}

// mu of an exactly mu-GDP event (Gaussian or GDP, plain) or of a subsampled Gaussian.
std::optional<mpq_class> exact_mu_of(const RdpEvent& event) {
  if (event.subsampled_gaussian()) return event.subsampled_mu();
  return event.base_maps()->exact_mu();
}

// The event's own (plain) or base (subsampled) event; not for a subsampled Gaussian.
const PrivacyEvent& base_of(const RdpEvent& event) {
  return event.is_subsampled() ? event.subsampled_base() : event.plain_event();
}

// Refuses an event whose pair is not discretised from atoms: a bare guarantee (pure-dp, zcdp),
// a Laplace pair beyond eps = 50.
void check_atoms(const RdpEvent& event) {
  const PrivacyEvent& base = base_of(event);
  if (!base.maps().is_noise_law()) {
    refuse(event, "only Gaussian, GDP, discrete Gaussian, Laplace and discrete Laplace noise (plain or "
                  "Poisson-subsampled) is discretised");
  }
  if (base.maps().laplace_noise() && base.pure_epsilon() > 50) refuse(event, "its epsilon = sensitivity / scale is above 50");
}
}  // namespace

void check_discretization_options(const DiscretizationOptions& o) {
  if (o.steps_per_unit < 1 || o.steps_per_unit > 10'000'000) {
    throw ParameterError::out_of_range("pld-step", "1/" + std::to_string(o.steps_per_unit),
                                       "1/10000000 <= pld-step <= 1");
  }
  if (o.scale_bits < 8 || o.scale_bits > 62) {
    throw ParameterError::out_of_range("scale_bits", std::to_string(o.scale_bits), "8 <= scale_bits <= 62");
  }
}

WideDiscretizedEvent discretize_wide(const RdpEvent& event, PairOrder order, unsigned long steps_per_unit,
                                     unsigned scale_bits, unsigned tail_bits) {
  if (scale_bits < 8 || scale_bits > 1024 || tail_bits < 8 || tail_bits > 1000) {
    throw std::logic_error("pld::discretize_wide: scale_bits or tail_bits out of range");
  }
  const mpq_class q = event.is_subsampled() ? event.subsampled_q() : mpq_class(1);
  if (const std::optional<mpq_class> mu = exact_mu_of(event)) {
    Pair pair{*mu, q, order};
    if (pair.mu > 50 || pair.mu * 1000 < 1) refuse(event, "its mu = sensitivity / sigma is outside [10^-3, 50]");
    return discretize_pair_wide(pair, steps_per_unit, scale_bits, tail_bits);
  }
  check_atoms(event);
  return discretize_atoms_wide(noise_atoms(base_of(event), q, order, steps_per_unit, tail_bits), steps_per_unit,
                               scale_bits);
}

bool is_symmetric(const RdpEvent& event) {
  // A registry law's pair is not assumed symmetric: both orders are discretised.
  return !event.is_subsampled() && event.plain_event().maps().symmetric_pair();
}

bool covers(const RdpEvent& event, Neighbouring /*relation*/) {
  if (exact_mu_of(event)) return true;
  const LawPrivacy& maps = base_of(event).maps();
  return maps.is_noise_law() && maps.has_atoms();
}

DiscretizedEvent discretize(const RdpEvent& event, PairOrder order, Neighbouring relation,
                            const DiscretizationOptions& options) {
  if (event.is_subsampled() && relation != Neighbouring::kAddRemove) {
    refuse(event, "Poisson subsampling is accounted under add/remove-one only, not replace-one");
  }
  const mpq_class q = event.is_subsampled() ? event.subsampled_q() : mpq_class(1);
  if (const std::optional<mpq_class> mu = exact_mu_of(event)) {
    Pair pair{*mu, q, order};
    if (pair.mu > 50 || pair.mu * 1000 < 1) refuse(event, "its mu = sensitivity / sigma is outside [10^-3, 50]");
    return discretize_pair(pair, options);
  }
  check_atoms(event);
  return discretize_atoms(noise_atoms(base_of(event), q, order, options.steps_per_unit, options.tail_bits), options);
}

}  // namespace exactdp::accounting::pld
