// The wide-mass chains of wide_pld.h: exact Kronecker convolution of GMP integers, directed
// re-rounding, truncation, and the delta / epsilon sums.
#include <exactdp/accounting/pld/wide_pld.h>

#include <gmp.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <functional>
#include <string>

#include <exactdp/accounting/pld/pld_composition.h>  // kMaxPoints
#include <exactdp/core/errors.h>

namespace exactdp::accounting::pld {
namespace {

static_assert(GMP_LIMB_BITS == 64, "the Kronecker packing assumes 64-bit limbs");

// The working precision of the sums: 96 bits above the scale, so that a delta far below 2^-64
// keeps its relative precision after the cancellation in s0 - e^eps s1 (whose terms are <= 1).
mpfr_prec_t sum_precision(unsigned scale_bits) { return static_cast<mpfr_prec_t>(scale_bits) + 96; }

std::size_t bit_length(const mpz_class& v) { return sgn(v) == 0 ? 0 : mpz_sizeinbase(v.get_mpz_t(), 2); }

std::size_t bit_length(std::size_t v) { return v == 0 ? 0 : 64 - static_cast<std::size_t>(__builtin_clzll(v)); }

std::size_t max_bits(const std::vector<mpz_class>& m) {
  std::size_t b = 0;
  for (const mpz_class& v : m) b = std::max(b, bit_length(v));
  return b;
}

void check_size(std::size_t n) {
  if (n > kMaxPoints) {
    throw LimitError("count", "count: the composed privacy loss distribution would hold " + std::to_string(n) +
                                  " grid points, above the limit of " + std::to_string(kMaxPoints));
  }
}

// The non-negative integers m packed at bit offsets j * bits (the integer sum m_j 2^(j bits)).
void pack(const std::vector<mpz_class>& m, std::size_t bits, mpz_ptr out) {
  const std::size_t limbs = (m.size() * bits + 63) / 64 + 2;
  mp_limb_t* p = mpz_limbs_write(out, static_cast<mp_size_t>(limbs));
  std::fill(p, p + limbs, mp_limb_t{0});
  std::size_t offset = 0;
  for (const mpz_class& v : m) {
    const mp_limb_t* src = mpz_limbs_read(v.get_mpz_t());
    const auto n = static_cast<std::size_t>(mpz_size(v.get_mpz_t()));
    const std::size_t at = offset / 64;
    const unsigned shift = offset % 64;
    for (std::size_t k = 0; k < n; ++k) {
      p[at + k] |= src[k] << shift;
      if (shift != 0) p[at + k + 1] |= src[k] >> (64 - shift);
    }
    offset += bits;
  }
  mpz_limbs_finish(out, static_cast<mp_size_t>(limbs));
}

// The `bits`-wide field at bit `offset` of the limbs r[0 .. size) into out.
void unpack(const mp_limb_t* r, std::size_t size, std::size_t offset, std::size_t bits, mpz_ptr out) {
  const std::size_t n = (bits + 63) / 64;
  const std::size_t at = offset / 64;
  const unsigned shift = offset % 64;
  mp_limb_t* o = mpz_limbs_write(out, static_cast<mp_size_t>(n));
  const auto limb = [&](std::size_t i) { return i < size ? r[i] : mp_limb_t{0}; };
  for (std::size_t k = 0; k < n; ++k) {
    const mp_limb_t lo = limb(at + k);
    o[k] = shift == 0 ? lo : (lo >> shift) | (limb(at + k + 1) << (64 - shift));
  }
  const std::size_t top_bits = bits - 64 * (n - 1);
  if (top_bits < 64) o[n - 1] &= (mp_limb_t{1} << top_bits) - 1;
  mpz_limbs_finish(out, static_cast<mp_size_t>(n));  // normalises high zero limbs
}

// The exact convolution of two sequences of non-negative integers.
std::vector<mpz_class> convolve(const std::vector<mpz_class>& a, const std::vector<mpz_class>& b) {
  const std::size_t n = a.size() + b.size() - 1;
  check_size(n);
  const std::size_t bits = std::max<std::size_t>(1, max_bits(a) + max_bits(b) + bit_length(std::min(a.size(), b.size())));
  mpz_class x, y;
  pack(a, bits, x.get_mpz_t());
  if (&a == &b) {
    mpz_mul(x.get_mpz_t(), x.get_mpz_t(), x.get_mpz_t());
  } else {
    pack(b, bits, y.get_mpz_t());
    mpz_mul(x.get_mpz_t(), x.get_mpz_t(), y.get_mpz_t());
  }
  y = 0;
  const mp_limb_t* r = mpz_limbs_read(x.get_mpz_t());
  const auto size = static_cast<std::size_t>(mpz_size(x.get_mpz_t()));
  std::vector<mpz_class> out(n);
  for (std::size_t j = 0; j < n; ++j) unpack(r, size, j * bits, bits, out[j].get_mpz_t());
  return out;
}

// How many entries from the top and from the bottom of `weights` have total at most `budget`
// (the bottom ones among those the top leaves).
std::pair<std::size_t, std::size_t> tails_within(const std::vector<mpz_class>& weights, const mpz_class& budget,
                                                 mpz_class& top_total, mpz_class& bottom_total) {
  std::size_t top = weights.size(), bottom = 0;
  top_total = 0;
  bottom_total = 0;
  while (top > 0 && top_total + weights[top - 1] <= budget) top_total += weights[--top];
  while (bottom < top && bottom_total + weights[bottom] <= budget) bottom_total += weights[bottom++];
  return {bottom, top};
}

mpz_class budget_of(unsigned scale_bits, unsigned tail_bits) {
  const unsigned s2 = 2 * scale_bits;
  return tail_bits < s2 ? mpz_class(1) << (s2 - tail_bits) : mpz_class(0);
}

void check_compatible(unsigned long na, unsigned long nb, unsigned sa, unsigned sb) {
  if (na != nb || sa != sb) throw std::logic_error("pld::compose (wide): operands on different grids or scales");
}

}  // namespace

void trim_zero_ends(WideChain& c) {
  std::vector<mpz_class>& m = c.masses;
  while (!m.empty() && sgn(m.back()) == 0) m.pop_back();
  std::size_t lead = 0;
  while (lead < m.size() && sgn(m[lead]) == 0) ++lead;
  m.erase(m.begin(), m.begin() + static_cast<std::ptrdiff_t>(lead));
  c.first_index += static_cast<long>(lead);
}

void trim_zero_ends(WideTestPair& t) {
  const auto zero = [&](std::size_t j) { return sgn(t.p[j]) == 0 && sgn(t.q[j]) == 0; };
  std::size_t end = t.p.size();
  while (end > 0 && zero(end - 1)) --end;
  std::size_t lead = 0;
  while (lead < end && zero(lead)) ++lead;
  t.p.erase(t.p.begin() + static_cast<std::ptrdiff_t>(end), t.p.end());
  t.q.erase(t.q.begin() + static_cast<std::ptrdiff_t>(end), t.q.end());
  t.p.erase(t.p.begin(), t.p.begin() + static_cast<std::ptrdiff_t>(lead));
  t.q.erase(t.q.begin(), t.q.begin() + static_cast<std::ptrdiff_t>(lead));
  t.first_index += static_cast<long>(lead);
}

WideChain compose(const WideChain& a, const WideChain& b, unsigned tail_bits) {
  check_compatible(a.steps_per_unit, b.steps_per_unit, a.scale_bits, b.scale_bits);
  WideChain out;
  out.steps_per_unit = a.steps_per_unit;
  out.scale_bits = a.scale_bits;
  out.first_index = a.first_index + b.first_index;
  out.infinity_mass = a.infinity_mass + b.infinity_mass;  // >= 1 - (1 - m_a)(1 - m_b)
  if (a.masses.empty() || b.masses.empty()) return out;
  const std::vector<mpz_class> c = convolve(a.masses, b.masses);
  mpz_class moved_top, moved_bottom;
  const auto [bottom, top] = tails_within(c, budget_of(a.scale_bits, tail_bits), moved_top, moved_bottom);
  out.masses.resize(top - bottom);
  for (std::size_t j = bottom; j < top; ++j) {
    mpz_cdiv_q_2exp(out.masses[j - bottom].get_mpz_t(), c[j].get_mpz_t(), a.scale_bits);  // rounded UP
  }
  out.first_index += static_cast<long>(bottom);
  mpz_cdiv_q_2exp(moved_top.get_mpz_t(), moved_top.get_mpz_t(), a.scale_bits);
  mpz_cdiv_q_2exp(moved_bottom.get_mpz_t(), moved_bottom.get_mpz_t(), a.scale_bits);
  out.infinity_mass += moved_top;  // the top to +infinity
  if (out.masses.empty()) {
    out.infinity_mass += moved_bottom;
  } else {
    out.masses.front() += moved_bottom;  // the bottom up onto the first kept loss
  }
  trim_zero_ends(out);
  return out;
}

WideTestPair compose(const WideTestPair& a, const WideTestPair& b, unsigned tail_bits) {
  check_compatible(a.steps_per_unit, b.steps_per_unit, a.scale_bits, b.scale_bits);
  WideTestPair out;
  out.steps_per_unit = a.steps_per_unit;
  out.scale_bits = a.scale_bits;
  out.first_index = a.first_index + b.first_index;
  if (a.p.empty() || b.p.empty()) return out;
  const std::vector<mpz_class> p = convolve(a.p, b.p);
  const std::vector<mpz_class> q = convolve(a.q, b.q);
  mpz_class dropped_top, dropped_bottom;
  const auto [bottom, top] = tails_within(p, budget_of(a.scale_bits, tail_bits), dropped_top, dropped_bottom);
  out.p.resize(top - bottom);
  out.q.resize(top - bottom);
  for (std::size_t j = bottom; j < top; ++j) {
    mpz_fdiv_q_2exp(out.p[j - bottom].get_mpz_t(), p[j].get_mpz_t(), a.scale_bits);  // P rounded DOWN
    mpz_cdiv_q_2exp(out.q[j - bottom].get_mpz_t(), q[j].get_mpz_t(), a.scale_bits);  // Q rounded UP
  }
  out.first_index += static_cast<long>(bottom);
  trim_zero_ends(out);
  return out;
}

namespace {

template <class T>
T self_compose_any(const T& a, unsigned long k, unsigned tail_bits) {
  if (k == 0) throw std::logic_error("pld::self_compose (wide): k = 0");
  T result;
  bool have = false;
  T power = a;
  for (;;) {
    if ((k & 1) != 0) {
      result = have ? compose(result, power, tail_bits) : power;
      have = true;
    }
    k >>= 1;
    if (k == 0) break;
    power = compose(power, power, tail_bits);
  }
  return result;
}

}  // namespace

WideChain self_compose(const WideChain& a, unsigned long k, unsigned tail_bits) {
  return self_compose_any(a, k, tail_bits);
}

WideTestPair self_compose(const WideTestPair& a, unsigned long k, unsigned tail_bits) {
  return self_compose_any(a, k, tail_bits);
}

namespace {

// e^(sign index / n) rounded in `direction` along a walk of consecutive indices (index moving
// by `stride` = +1 or -1 per call): a fresh exp every 4096 calls, else one multiplication by
// e^(sign stride / n) rounded the same way (both factors are positive: the rounding direction
// carries through the product).
class ExpWalk {
 public:
  ExpWalk(unsigned long n, int sign, int stride, mpfr_rnd_t direction, mpfr_prec_t precision)
      : n_(n), sign_(sign), dir_(direction), step_(precision), e_(precision) {
    Real h(precision);
    mpfr_set_si(h, sign * stride, MPFR_RNDN);
    mpfr_div_ui(h, h, n, dir_);
    mpfr_exp(step_, h, dir_);
  }
  mpfr_srcptr next(long index) {
    if (calls_++ % 4096 == 0) {
      Real l(mpfr_get_prec(e_.get()));
      mpfr_set_si(l, sign_ * index, MPFR_RNDN);  // exact
      mpfr_div_ui(l, l, n_, dir_);
      mpfr_exp(e_, l, dir_);
    } else {
      mpfr_mul(e_, e_, step_, dir_);
    }
    return e_;
  }

 private:
  unsigned long n_;
  int sign_;
  mpfr_rnd_t dir_;
  std::size_t calls_ = 0;
  Real step_, e_;
};

// (s0 - e^eps s1) 2^-s rounded UP, clamped at 0; s1 is a lower bound, e^eps taken DOWN.
Real upper_value(const mpz_class& s0, mpfr_srcptr s1, const mpq_class& epsilon, unsigned scale_bits) {
  const mpfr_prec_t prec = sum_precision(scale_bits);
  Real out(prec), t(prec);
  const Interval e_eps = exp(Interval(epsilon, prec));
  mpfr_mul(t, e_eps.lower(), s1, MPFR_RNDD);
  mpfr_set_z(out, s0.get_mpz_t(), MPFR_RNDU);
  mpfr_sub(out, out, t, MPFR_RNDU);
  mpfr_div_2ui(out, out, scale_bits, MPFR_RNDU);
  if (mpfr_sgn(out.get()) < 0) mpfr_set_zero(out, 1);
  return out;
}

bool at_most(mpfr_srcptr x, const mpq_class& q) { return mpfr_cmp_q(x, q.get_mpq_t()) <= 0; }

long last_index(const WideChain& c) { return c.first_index + static_cast<long>(c.masses.size()) - 1; }

}  // namespace

Real delta_upper(const WideChain& chain, const mpq_class& epsilon) {
  // s0 = m_inf + sum_{l > eps} m (exact), s1 = sum_{l > eps} m e^(-l) (rounded DOWN).
  const long n = static_cast<long>(chain.steps_per_unit);
  mpz_class cut;  // l_i > eps <=> i > cut = floor(eps n)
  const mpz_class scaled = epsilon.get_num() * n;
  mpz_fdiv_q(cut.get_mpz_t(), scaled.get_mpz_t(), epsilon.get_den_mpz_t());
  const long from = std::max(chain.first_index, mpz_fits_slong_p(cut.get_mpz_t()) ? cut.get_si() + 1 : LONG_MAX);
  mpz_class s0 = chain.infinity_mass;
  const mpfr_prec_t prec = sum_precision(chain.scale_bits);
  Real s1(prec), t(prec);
  ExpWalk e(chain.steps_per_unit, -1, +1, MPFR_RNDD, prec);
  for (long i = from; i <= last_index(chain); ++i) {
    const mpz_class& m = chain.masses[static_cast<std::size_t>(i - chain.first_index)];
    mpfr_srcptr w = e.next(i);
    if (sgn(m) == 0) continue;
    s0 += m;
    mpfr_mul_z(t, w, m.get_mpz_t(), MPFR_RNDD);
    mpfr_add(s1, s1, t, MPFR_RNDD);
  }
  return upper_value(s0, s1, epsilon, chain.scale_bits);
}

std::optional<mpq_class> epsilon_upper(const WideChain& chain, const mpq_class& delta, unsigned resolution_bits) {
  const long n = static_cast<long>(chain.steps_per_unit);
  const long top = std::max(last_index(chain), -1L);
  mpz_class s0 = chain.infinity_mass;
  const mpfr_prec_t prec = sum_precision(chain.scale_bits);
  Real s1(prec), t(prec);
  ExpWalk e(chain.steps_per_unit, -1, -1, MPFR_RNDD, prec);  // e^(-l), l walking down
  // Downward over grid epsilons i/n: the sums hold the indices > i.
  long i = top;
  for (; i >= 0; --i) {
    if (!at_most(upper_value(s0, s1, mpq_class(i, n), chain.scale_bits).get(), delta)) break;
    mpfr_srcptr w = e.next(i);
    if (i >= chain.first_index) {
      const mpz_class& m = chain.masses[static_cast<std::size_t>(i - chain.first_index)];
      s0 += m;
      mpfr_mul_z(t, w, m.get_mpz_t(), MPFR_RNDD);
      mpfr_add(s1, s1, t, MPFR_RNDD);
    }
  }
  if (i < 0) {  // every grid epsilon down to 0 passed, or the chain lies below 0 (sums: m_inf alone)
    if (top >= 0 || at_most(upper_value(s0, s1, 0, chain.scale_bits).get(), delta)) return mpq_class(0);
    return std::nullopt;
  }
  if (i == top && !at_most(upper_value(s0, s1, mpq_class(i + 1, n), chain.scale_bits).get(), delta)) {
    return std::nullopt;  // the infinity mass alone is above delta
  }
  // In (i/n, (i+1)/n] the set {l > eps} is the indices > i: the sums are fixed; bisect.
  mpq_class lo(i, n), hi(i + 1, n);
  for (unsigned r = 0; r < resolution_bits; ++r) {
    const mpq_class mid = (lo + hi) / 2;
    (at_most(upper_value(s0, s1, mid, chain.scale_bits).get(), delta) ? hi : lo) = mid;
  }
  return hi;
}

namespace {

// The entries of a test pair ordered by decreasing ratio p/q (a double estimate: any order
// gives proven bounds, the right one gives tight ones), with prefix sums of p and q.
struct TestSums {
  std::vector<double> log_ratio;  // decreasing
  std::vector<mpz_class> p, q;    // p[k], q[k]: sums over the first k entries
};

TestSums test_sums(const WideTestPair& t) {
  std::vector<std::pair<double, std::size_t>> order;
  for (std::size_t j = 0; j < t.p.size(); ++j) {
    if (sgn(t.p[j]) == 0) continue;
    long ep = 0, eq = 0;
    const double mp = mpz_get_d_2exp(&ep, t.p[j].get_mpz_t());
    const double lr = sgn(t.q[j]) == 0 ? HUGE_VAL
                                       : std::log(mp) - std::log(mpz_get_d_2exp(&eq, t.q[j].get_mpz_t())) +
                                             static_cast<double>(ep - eq) * std::log(2.0);
    order.emplace_back(lr, j);
  }
  std::sort(order.begin(), order.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
  TestSums s;
  s.p.assign(order.size() + 1, 0);
  s.q.assign(order.size() + 1, 0);
  for (std::size_t k = 0; k < order.size(); ++k) {
    s.log_ratio.push_back(order[k].first);
    s.p[k + 1] = s.p[k] + t.p[order[k].second];
    s.q[k + 1] = s.q[k] + t.q[order[k].second];
  }
  return s;
}

// (P_k - e^eps Q_k) 2^-s rounded DOWN (e^eps taken UP): a lower bound on delta(eps) for every k.
Real lower_value(const TestSums& s, std::size_t k, const Interval& e_eps, unsigned scale_bits) {
  const mpfr_prec_t prec = sum_precision(scale_bits);
  Real out(prec), t(prec);
  mpfr_mul_z(t, e_eps.upper(), s.q[k].get_mpz_t(), MPFR_RNDU);
  mpfr_set_z(out, s.p[k].get_mpz_t(), MPFR_RNDD);
  mpfr_sub(out, out, t, MPFR_RNDD);
  mpfr_div_2ui(out, out, scale_bits, MPFR_RNDD);
  return out;
}

}  // namespace

Real delta_lower(const WideTestPair& test, const mpq_class& epsilon) {
  const TestSums s = test_sums(test);
  const double e = mpq_class(epsilon).get_d();
  const auto cut = static_cast<std::size_t>(
      std::upper_bound(s.log_ratio.begin(), s.log_ratio.end(), e, std::greater<double>()) - s.log_ratio.begin());
  const mpfr_prec_t prec = sum_precision(test.scale_bits);
  const Interval e_eps = exp(Interval(epsilon, prec));
  Real best(prec);  // +0: delta >= 0
  const std::size_t from = cut >= 2 ? cut - 2 : 0, to = std::min(cut + 2, s.log_ratio.size());
  for (std::size_t k = from; k <= to; ++k) {
    const Real v = lower_value(s, k, e_eps, test.scale_bits);
    mpfr_max(best, best, v, MPFR_RNDD);
  }
  return best;
}

mpq_class epsilon_lower(const WideTestPair& test, const mpq_class& delta) {
  // For every k with P_k > delta: delta(eps) >= P_k - e^eps Q_k > delta for every
  // eps < log((P_k - delta) / Q_k), so the true epsilon(delta) >= that; the maximum over k, rounded DOWN.
  const TestSums s = test_sums(test);
  const mpfr_prec_t prec = sum_precision(test.scale_bits);
  Real d(prec), num(prec), den(prec), best(prec);  // best = +0: the largest (P_k - delta) / Q_k
  mpfr_set_q(d, delta.get_mpq_t(), MPFR_RNDU);
  mpfr_mul_2ui(d, d, test.scale_bits, MPFR_RNDU);  // delta in units 2^-s, rounded up
  for (std::size_t k = 1; k < s.p.size(); ++k) {
    if (sgn(s.q[k]) == 0) continue;
    mpfr_set_z(num, s.p[k].get_mpz_t(), MPFR_RNDD);
    mpfr_sub(num, num, d, MPFR_RNDD);
    if (mpfr_sgn(num.get()) <= 0) continue;
    mpfr_set_z(den, s.q[k].get_mpz_t(), MPFR_RNDU);
    mpfr_div(num, num, den, MPFR_RNDD);
    mpfr_max(best, best, num, MPFR_RNDD);  // the ratio; its log (increasing) taken once below
  }
  if (mpfr_cmp_ui(best, 1) <= 0) return 0;  // the bound then says only epsilon >= 0
  mpfr_log(best, best, MPFR_RNDD);
  return to_mpq(best);
}

}  // namespace exactdp::accounting::pld
