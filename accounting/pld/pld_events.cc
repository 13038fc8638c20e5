// The certified discretisations of pld_events.h. Events served: the Gaussian and GDP events
// (mu = Delta / sigma) and the Poisson-subsampled Gaussian under add/remove; every other event
// is refused with ParameterError("route") (the pld route then does not apply).
//
// Pairs, in units of sigma (mu = Delta / sigma, rate q; q = 1 for a plain Gaussian):
//   kRemove: P = (1-q) N(0,1) + q N(mu,1), Q = N(0,1), L(x) = log(1 - q + q e^(mu x - mu^2/2)),
//            increasing in x, so the loss cell [l_i, l_{i+1}] is the x-interval
//            [X(l_i), X(l_{i+1})], X(l) = (log((e^l - (1-q)) / q) + mu^2/2) / mu (-inf when
//            e^l <= 1 - q);
//   kAdd:    P = N(0,1), Q = the mixture, L(x) = -log(1 - q + q e^(mu x - mu^2/2)), decreasing:
//            the cell is [X'(l_{i+1}), X'(l_i)], X'(l) = X(-l).
// Cell masses p_i = P(cell), q_i = Q(cell) are differences of normal cdfs at the certified
// x-boundaries (every boundary an MPFR interval; Phi by one correctly rounded erfc plus the
// derivative bound |erfc'| <= 2/sqrt(pi) over the boundary's width).
//
// Upper side (kUpper): connect the dots (Doroshenko, Ghazi, Kamath, Kumar, Manurangsi 2022):
// the mass of every outcome in a cell is split onto the cell's two grid losses so that both
// its P-mass and its Q-mass are kept: b at l_{i+1} and a at l_i with a + b = p_i and
// a e^(-l_i) + b e^(-l_{i+1}) = q_i, i.e. b = (p_i e^(-l_i) - q_i) / (e^(-l_i) - e^(-l_{i+1})).
// Merging the two atoms of an outcome gives the outcome back, so the true pair is a
// post-processing of the split pair: the split pair DOMINATES it (its delta(eps) is >= for
// every eps, and so are its compositions). The stored masses are the upper ends of the interval
// enclosures of a and b rounded UP to 2^-scale_bits: entrywise >= the split pair's.
// Lower side (kLower): every cell's P-mass (lower end, rounded DOWN) at the cell's lower loss
// l_i: losses lowered and masses lowered, so by the coupling L' <= L every composed
// E[(1 - e^(eps - sum L'))^+] is <= the true composed delta.
// Truncation: x0 is the least multiple of 1/4 with Phi(-x0) <= 2^-tail_bits (upper bound);
// outcomes with x outside [-x0, mu + x0] have P-mass at most 2^-tail_bits on each side (both
// P's tails are bounded by those of N(0,1) below and N(mu,1) above). kUpper: the tail on the
// high-loss side goes to +infinity, the one on the low-loss side onto the lowest grid loss
// (losses raised); kLower drops both.
// Cost: two erfc evaluations per grid boundary (~40 us each at 96 bits): ~80 k boundaries at
// sigma = 0.8, q = 0.01, step 10^-4; fewer for larger sigma.
#include <exactdp/accounting/pld/pld_events.h>

#include <mpfr.h>

#include <algorithm>
#include <string>
#include <vector>

#include <exactdp/accounting/decimal.h>
#include <exactdp/samplers/errors.h>
#include <exactdp/samplers/int128.h>

namespace exactdp::accounting::pld {
namespace {

constexpr mpfr_prec_t kPrecision = 96;

// Phi(x) for x in the interval `x`.
Interval phi(const Interval& x) {
  const Interval t = -x / sqrt(Interval(2L, kPrecision));  // Phi(x) = erfc(t) / 2, erfc decreasing
  Interval out(kPrecision);
  mpfr_t e0, w;
  mpfr_init2(e0, kPrecision);
  mpfr_init2(w, kPrecision);
  mpfr_erfc(e0, t.lower(), MPFR_RNDU);           // >= erfc(t.lower) >= erfc(t) for t in the interval
  mpfr_set(out.upper(), e0, MPFR_RNDU);
  mpfr_nextbelow(e0);                             // <= erfc(t.lower) (correct rounding: 1 ulp)
  mpfr_sub(w, t.upper(), t.lower(), MPFR_RNDU);   // width of t
  static const mpq_class kErfcSlope(2821, 2500);  // 1.1284 > 2/sqrt(pi) = 1.12838..., |erfc'| <= 2/sqrt(pi)
  mpfr_mul_q(w, w, kErfcSlope.get_mpq_t(), MPFR_RNDU);
  mpfr_sub(out.lower(), e0, w, MPFR_RNDD);        // <= erfc(t.upper)
  if (mpfr_sgn(out.lower()) < 0) mpfr_set_zero(out.lower(), 1);
  mpfr_div_2ui(out.lower(), out.lower(), 1, MPFR_RNDD);
  mpfr_div_2ui(out.upper(), out.upper(), 1, MPFR_RNDU);
  mpfr_clear(e0);
  mpfr_clear(w);
  return out;
}

struct Pair {
  mpq_class mu, q;
  PairOrder order;
};

// The x-boundary of loss l, or false for -infinity.
bool boundary_x(const Pair& pair, const mpq_class& l, Interval& x) {
  const mpq_class signed_l = pair.order == PairOrder::kRemove ? l : mpq_class(-l);
  const Interval e = exp(Interval(signed_l, kPrecision)) - (1 - pair.q);
  if (mpfr_sgn(e.upper()) <= 0) return false;
  if (mpfr_sgn(e.lower()) <= 0) {
    throw std::logic_error("pld: a grid loss too close to the loss bound log(1 - q) for the working precision");
  }
  x = (log(e / pair.q) + pair.mu * pair.mu / 2) / pair.mu;
  return true;
}

// Loss of x (interval).
Interval loss_at(const Pair& pair, const mpq_class& x) {
  const Interval inner = log(Interval(1 - pair.q, kPrecision) +
                             exp(Interval(pair.mu * x - pair.mu * pair.mu / 2, kPrecision)) * pair.q);
  return pair.order == PairOrder::kRemove ? inner : -inner;
}

std::uint64_t to_fixed(mpfr_srcptr value, unsigned scale_bits, bool up) {
  if (mpfr_sgn(value) <= 0) return 0;
  mpfr_t y;
  mpfr_init2(y, mpfr_get_prec(value));
  mpfr_mul_2ui(y, value, scale_bits, up ? MPFR_RNDU : MPFR_RNDD);  // exact
  mpz_class z;
  mpfr_get_z(z.get_mpz_t(), y, up ? MPFR_RNDU : MPFR_RNDD);
  mpfr_clear(y);
  if (z > mpz_class(1) << 63) z = mpz_class(1) << 63;
  return mpz_get_ui(z.get_mpz_t());
}

void add_mass(std::vector<std::uint64_t>& m, std::size_t i, std::uint64_t v) {
  const uint128 s = static_cast<uint128>(m[i]) + v;
  m[i] = s > UINT64_MAX ? UINT64_MAX : static_cast<std::uint64_t>(s);
}

long floor_index(mpfr_srcptr l, unsigned long n) {
  mpfr_t y;
  mpfr_init2(y, mpfr_get_prec(l) + 64);
  mpfr_mul_ui(y, l, n, MPFR_RNDD);
  const long v = mpfr_get_si(y, MPFR_RNDD);
  mpfr_clear(y);
  return v;
}

long ceil_index(mpfr_srcptr l, unsigned long n) {
  mpfr_t y;
  mpfr_init2(y, mpfr_get_prec(l) + 64);
  mpfr_mul_ui(y, l, n, MPFR_RNDU);
  const long v = mpfr_get_si(y, MPFR_RNDU);
  mpfr_clear(y);
  return v;
}

DiscretePld discretize_pair(const Pair& pair, Side side, const DiscretizationOptions& o) {
  if (o.scale_bits < 8 || o.scale_bits > 62 || o.steps_per_unit < 1 || o.steps_per_unit > 10'000'000 ||
      o.tail_bits < 8 || o.tail_bits > 200) {
    throw std::invalid_argument("pld::discretize: options out of range");
  }
  const unsigned long n = o.steps_per_unit;
  // x0: Phi(-x0) <= 2^-tail_bits.
  mpq_class tail_target(1);
  tail_target /= mpz_class(1) << o.tail_bits;
  mpq_class x0(1);
  Interval tail(kPrecision);
  for (;; x0 += mpq_class(1, 4)) {
    tail = phi(-Interval(x0, kPrecision));
    if (upper_at_most(tail, tail_target)) break;
  }
  const Interval l_a = loss_at(pair, -x0), l_b = loss_at(pair, pair.mu + x0);
  const bool increasing = pair.order == PairOrder::kRemove;
  const Interval& l_min = increasing ? l_a : l_b;
  const Interval& l_max = increasing ? l_b : l_a;
  const long i_lo = floor_index(l_min.lower(), n);
  const long i_hi = ceil_index(l_max.upper(), n);
  if (i_hi - i_lo > 50'000'000L) {
    throw LimitError("pld-step", "pld-step: the event's loss range needs more than 5*10^7 grid points at this step");
  }
  const auto cells = static_cast<std::size_t>(i_hi - i_lo);
  // Cdf values of P and Q at every boundary (as functions of x; -infinity gives 0).
  std::vector<Interval> fp, fq;
  fp.reserve(cells + 1);
  fq.reserve(cells + 1);
  Interval x(kPrecision);
  const Interval one_minus_q(1 - pair.q, kPrecision);
  for (long i = i_lo; i <= i_hi; ++i) {
    if (!boundary_x(pair, mpq_class(i, n), x)) {
      fp.emplace_back(0L, kPrecision);
      fq.emplace_back(0L, kPrecision);
      continue;
    }
    const Interval f0 = phi(x);
    const Interval mix = one_minus_q * f0 + phi(x - pair.mu) * pair.q;
    fp.push_back(increasing ? mix : f0);
    fq.push_back(increasing ? f0 : mix);
  }
  DiscretePld out;
  out.side = side;
  out.steps_per_unit = n;
  out.scale_bits = o.scale_bits;
  out.first_index = i_lo;
  out.masses.assign(cells + 1, 0);
  const bool up = side == Side::kUpper;
  const Interval step_down = exp(Interval(mpq_class(-1, n), kPrecision));
  Interval e_i = exp(-Interval(mpq_class(i_lo, n), kPrecision));  // e^(-l_i)
  for (std::size_t c = 0; c < cells; ++c) {
    // Cell [l_i, l_{i+1}]: increasing L: x from boundary c to c + 1; decreasing: reversed.
    Interval pm = increasing ? fp[c + 1] - fp[c] : fp[c] - fp[c + 1];
    Interval qm = increasing ? fq[c + 1] - fq[c] : fq[c] - fq[c + 1];
    pm = max(pm, Interval(0L, kPrecision));
    qm = max(qm, Interval(0L, kPrecision));
    const Interval e_next = e_i * step_down;
    if (up) {
      Interval b = (pm * e_i - qm) / (e_i - e_next);
      b = clamp(b, mpq_class(0), mpq_class(2));
      b = min(b, pm);
      Interval a = max(pm - b, Interval(0L, kPrecision));
      add_mass(out.masses, c, to_fixed(a.upper(), o.scale_bits, true));
      add_mass(out.masses, c + 1, to_fixed(b.upper(), o.scale_bits, true));
    } else {
      add_mass(out.masses, c, to_fixed(pm.lower(), o.scale_bits, false));
    }
    e_i = e_next;
  }
  if (up) {  // the high-loss tail to +infinity, the low-loss tail onto the lowest grid loss
    const std::uint64_t t = to_fixed(tail.upper(), o.scale_bits, true);
    out.infinity_mass = t;
    add_mass(out.masses, 0, t);
  }
  while (!out.masses.empty() && out.masses.back() == 0) out.masses.pop_back();
  std::size_t lead = 0;
  while (lead < out.masses.size() && out.masses[lead] == 0) ++lead;
  out.masses.erase(out.masses.begin(), out.masses.begin() + static_cast<std::ptrdiff_t>(lead));
  out.first_index += static_cast<long>(lead);
  return out;
}

[[noreturn]] void refuse(const RdpEvent& event, const std::string& why) {
  throw ParameterError("route", "route: the pld route does not apply to " + event.describe() + ": " + why);
}

}  // namespace

DiscretePld discretize(const RdpEvent& event, PairOrder order, Side side, Neighbouring relation,
                       const DiscretizationOptions& options) {
  Pair pair;
  pair.order = order;
  if (event.is_subsampled()) {
    if (relation != Neighbouring::kAddRemove) {
      refuse(event, "Poisson subsampling is accounted under add/remove-one only");
    }
    pair.mu = event.subsampled_mu();
    pair.q = event.subsampled_q();
  } else {
    const PrivacyEvent& e = event.plain_event();
    if (!e.is_gaussian_like()) refuse(event, "only Gaussian, GDP and Poisson-subsampled Gaussian events are discretised");
    pair.mu = e.exact_mu();
    pair.q = 1;
  }
  if (pair.mu > 50 || pair.mu * 1000 < 1) {
    refuse(event, "its mu = sensitivity / sigma is outside [10^-3, 50]");
  }
  return discretize_pair(pair, side, options);
}

}  // namespace exactdp::accounting::pld
