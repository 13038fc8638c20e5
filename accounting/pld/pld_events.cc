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

#include <exactdp/accounting/pld/pld_composition.h>
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

// Phi by Taylor expansion around anchors a = k/4 (so |x - a| <= 1/8 + tiny):
//   Phi(a + d) = Phi(a) + phi(a) sum_{n=1}^{N} (-1)^(n-1) He_{n-1}(a) d^n / n! + R,
// since phi^(m)(a) = (-1)^m He_m(a) phi(a) (He: probabilists' Hermite polynomials, computed
// exactly in rationals for rational a). Remainder (Lagrange): |R| <= max|phi^(N)| |d|^(N+1) /
// (N+1)!, and |phi^(N)(t)| = |He_N(t)| phi(t) <= K sqrt(N!) e^(t^2/4) e^(-t^2/2) / sqrt(2 pi)
// <= K sqrt(N!) / sqrt(2 pi), K = 1.0865 (Cramer's inequality, Abramowitz-Stegun 22.14.17).
// With N = 24 and |d| <= 1/8 + 2^-60: |R| < 6e-37 < 2^-112, the bound used. Phi(a) itself
// comes from phi() (one correctly rounded erfc). About 50 interval operations per value instead
// of an erfc (~40 us): the discretisation's cost.
class NormalCdf {
 public:
  NormalCdf(const mpq_class& from, const mpq_class& to) {
    const mpz_class lo = floor_of(from * 4) - 1;
    const mpz_class hi = floor_of(to * 4) + 2;
    first_ = mpz_get_si(lo.get_mpz_t());
    const long count = mpz_get_si(hi.get_mpz_t()) - first_ + 1;
    const mpq_class bound(mpz_class(1), mpz_class(1) << 112);
    remainder_ = hull(Interval(-bound, kPrecision), Interval(bound, kPrecision));
    for (long k = 0; k < count; ++k) anchors_.push_back(make_anchor(mpq_class(first_ + k, 4)));
  }

  // Phi(x) for x in the interval; falls back to erfc outside the anchors' range.
  [[nodiscard]] Interval operator()(const Interval& x) const {
    Real mid(kPrecision);
    mpfr_add(mid.get(), x.lower(), x.upper(), MPFR_RNDN);
    mpfr_mul_2ui(mid.get(), mid.get(), 1, MPFR_RNDN);  // 4 * (lower + upper) / 2
    mpfr_round(mid.get(), mid.get());
    if (!mpfr_fits_slong_p(mid.get(), MPFR_RNDN)) return phi(x);
    const long k = mpfr_get_si(mid.get(), MPFR_RNDN) - first_;
    if (k < 0 || k >= static_cast<long>(anchors_.size())) return phi(x);
    const Anchor& a = anchors_[static_cast<std::size_t>(k)];
    const Interval d = x - a.point;
    if (!upper_at_most(abs(d), mpq_class(1, 8) + mpq_class(1, 1L << 60))) return phi(x);
    Interval acc = a.coefficients.back();
    for (std::size_t n = a.coefficients.size() - 1; n-- > 0;) acc = acc * d + a.coefficients[n];
    return clamp(a.cdf + acc * d + remainder_, mpq_class(0), mpq_class(1));
  }

 private:
  static constexpr int kTerms = 24;
  struct Anchor {
    mpq_class point;
    Interval cdf{kPrecision};
    std::vector<Interval> coefficients;  // c_1 .. c_N: d^n coefficient = c_n
  };
  static mpz_class floor_of(const mpq_class& v) {
    mpz_class out;
    mpz_fdiv_q(out.get_mpz_t(), v.get_num_mpz_t(), v.get_den_mpz_t());
    return out;
  }
  static Anchor make_anchor(const mpq_class& a) {
    Anchor out;
    out.point = a;
    out.cdf = phi(Interval(a, kPrecision));
    const Interval density = exp(-Interval(a * a / 2, kPrecision)) / sqrt(pi_interval(kPrecision) * mpq_class(2));
    // He_0 = 1, He_1 = a, He_{m+1} = a He_m - m He_{m-1} (exact); c_n = (-1)^(n-1) He_{n-1}(a) / n!.
    std::vector<mpq_class> he{mpq_class(1), a};
    while (he.size() < static_cast<std::size_t>(kTerms)) {
      const std::size_t m = he.size() - 1;
      he.push_back(a * he[m] - mpq_class(static_cast<long>(m)) * he[m - 1]);
    }
    mpz_class factorial(1);
    for (int n = 1; n <= kTerms; ++n) {
      factorial *= n;
      mpq_class c = he[static_cast<std::size_t>(n - 1)] / mpq_class(factorial);
      if ((n - 1) % 2 == 1) c = -c;
      out.coefficients.push_back(density * c);
    }
    return out;
  }
  long first_ = 0;
  Interval remainder_{kPrecision};
  std::vector<Anchor> anchors_;
};

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

// floor (RNDD) or ceil (RNDU) of l * n, as a grid index.
long grid_index(mpfr_srcptr l, unsigned long n, mpfr_rnd_t direction) {
  mpfr_t y;
  mpfr_init2(y, mpfr_get_prec(l) + 64);
  mpfr_mul_ui(y, l, n, direction);
  const long v = mpfr_get_si(y, direction);
  mpfr_clear(y);
  return v;
}

DiscretePldPair discretize_pair(const Pair& pair, const DiscretizationOptions& o) {
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
  const long i_lo = grid_index(l_min.lower(), n, MPFR_RNDD);
  const long i_hi = grid_index(l_max.upper(), n, MPFR_RNDU);
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
  const NormalCdf cdf(-x0 - pair.mu - 1, pair.mu + x0 + 1);
  for (long i = i_lo; i <= i_hi; ++i) {
    if (!boundary_x(pair, mpq_class(i, n), x)) {
      fp.emplace_back(0L, kPrecision);
      fq.emplace_back(0L, kPrecision);
      continue;
    }
    const Interval f0 = cdf(x);
    const Interval mix = one_minus_q * f0 + cdf(x - pair.mu) * pair.q;
    fp.push_back(increasing ? mix : f0);
    fq.push_back(increasing ? f0 : mix);
  }
  DiscretePldPair both;
  for (DiscretePld* p : {&both.upper, &both.lower}) {
    p->side = p == &both.upper ? Side::kUpper : Side::kLower;
    p->steps_per_unit = n;
    p->scale_bits = o.scale_bits;
    p->first_index = i_lo;
    p->masses.assign(cells + 1, 0);
  }
  const Interval step_down = exp(Interval(mpq_class(-1, n), kPrecision));
  Interval e_i = exp(-Interval(mpq_class(i_lo, n), kPrecision));  // e^(-l_i)
  for (std::size_t c = 0; c < cells; ++c) {
    // Cell [l_i, l_{i+1}]: increasing L: x from boundary c to c + 1; decreasing: reversed.
    Interval pm = increasing ? fp[c + 1] - fp[c] : fp[c] - fp[c + 1];
    Interval qm = increasing ? fq[c + 1] - fq[c] : fq[c] - fq[c + 1];
    pm = max(pm, Interval(0L, kPrecision));
    qm = max(qm, Interval(0L, kPrecision));
    const Interval e_next = e_i * step_down;
    Interval b = (pm * e_i - qm) / (e_i - e_next);
    b = min(clamp(b, mpq_class(0), mpq_class(2)), pm);
    const Interval a = max(pm - b, Interval(0L, kPrecision));
    add_mass(both.upper.masses, c, to_fixed(a.upper(), o.scale_bits, true));
    add_mass(both.upper.masses, c + 1, to_fixed(b.upper(), o.scale_bits, true));
    add_mass(both.lower.masses, c, to_fixed(pm.lower(), o.scale_bits, false));
    e_i = e_next;
  }
  // kUpper: the high-loss tail to +infinity, the low-loss tail onto the lowest grid loss.
  const std::uint64_t t = to_fixed(tail.upper(), o.scale_bits, true);
  both.upper.infinity_mass = t;
  add_mass(both.upper.masses, 0, t);
  trim_zero_ends(both.upper);
  trim_zero_ends(both.lower);
  return both;
}

[[noreturn]] void refuse(const RdpEvent& event, const std::string& why) {
  throw ParameterError("route", "route: the pld route does not apply to " + event.describe() + ": " + why);
}

}  // namespace

DiscretePld discretize(const RdpEvent& event, PairOrder order, Side side, Neighbouring relation,
                       const DiscretizationOptions& options) {
  DiscretePldPair both = discretize_both(event, order, relation, options);
  return side == Side::kUpper ? std::move(both.upper) : std::move(both.lower);
}

DiscretePldPair discretize_both(const RdpEvent& event, PairOrder order, Neighbouring relation,
                                const DiscretizationOptions& options) {
  Pair pair;
  pair.order = order;
  if (event.is_subsampled()) {
    if (relation != Neighbouring::kAddRemove) {
      refuse(event, "Poisson subsampling is accounted under add/remove-one only, not replace-one");
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
  return discretize_pair(pair, options);
}

}  // namespace exactdp::accounting::pld
