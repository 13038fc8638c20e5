#include <exactdp/laws/staircase/staircase_shape.h>

#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace exactdp::laws {
namespace {

const mpz_class kMaxSensitivity("1000000000");  // 10^9
constexpr unsigned long kMaxRounds = 1UL << 24;
constexpr std::size_t kMaxGammaBits = 512;
constexpr mpfr_prec_t kMaxComparePrecision = 4096;

// P_s(n) = sum_{j=0}^{n-1} j^s (Faulhaber, exact), s in 0..4.
mpz_class power_sum(int s, const mpz_class& n) {
  const mpz_class m = n - 1;  // sum_{j=1}^{m} j^s
  switch (s) {
    case 0: return n;
    case 1: return m * (m + 1) / 2;
    case 2: return m * (m + 1) * (2 * m + 1) / 6;
    case 3: {
      const mpz_class t = m * (m + 1) / 2;
      return t * t;
    }
    default: return m * (m + 1) * (2 * m + 1) * (3 * m * m + 3 * m - 1) / 30;
  }
}

mpz_class binomial(int n, int k) {
  mpz_class out;
  mpz_bin_uiui(out.get_mpz_t(), static_cast<unsigned long>(n), static_cast<unsigned long>(k));
  return out;
}

}  // namespace

StaircaseShape StaircaseShape::make(const mpq_class& gamma_in, const mpz_class& sensitivity, const mpz_class& r_in) {
  mpq_class gamma = gamma_in;
  gamma.canonicalize();
  if (sgn(gamma) <= 0 || gamma > 10000) {
    throw ParameterError::out_of_range("gamma", abbreviate(to_string(gamma)), "0 < gamma <= 10^4");
  }
  if (mpz_sizeinbase(gamma.get_num_mpz_t(), 2) > kMaxGammaBits ||
      mpz_sizeinbase(gamma.get_den_mpz_t(), 2) > kMaxGammaBits) {
    throw LimitError("gamma", "gamma: numerator and denominator must be below 2^512 for the staircase");
  }
  if (sensitivity < 1 || sensitivity > kMaxSensitivity) {
    throw ParameterError::out_of_range("sensitivity", abbreviate(to_string(sensitivity)),
                                       "1 <= sensitivity <= 10^9 (an integer)");
  }
  StaircaseShape shape(gamma, sensitivity, r_in);
  if (r_in == 0) {
    // Least r with E|X|(r+1) >= E|X|(r): binary search on a quasi-convex function (header).
    mpz_class lo = 1, hi = sensitivity;
    while (lo < hi) {
      const mpz_class mid = (lo + hi) / 2;
      const StaircaseShape a(gamma, sensitivity, mid), b(gamma, sensitivity, mid + 1);
      bool next_not_smaller = true;  // undecided at the cap: a tie, keep the smaller r
      for (mpfr_prec_t p = 128; p <= kMaxComparePrecision; p *= 2) {
        const Interval fa = a.mean_absolute(p), fb = b.mean_absolute(p);
        if (certainly_less(fb, fa)) { next_not_smaller = false; break; }
        if (certainly_less(fa, fb)) break;
      }
      if (next_not_smaller) hi = mid; else lo = mid + 1;
    }
    shape.r_ = lo;
  } else if (r_in < 1 || r_in > sensitivity) {
    throw ParameterError::out_of_range("r", abbreviate(to_string(r_in)), "1 <= r <= sensitivity");
  }
  if (sensitivity > shape.r_ * mpz_class(kMaxRounds)) {
    throw LimitError("r", "r: sensitivity / r must be at most 2^24 (the sampler's expected rounds); r = " +
                              abbreviate(to_string(shape.r_)));
  }
  return shape;
}

Interval StaircaseShape::b(mpfr_prec_t p) const { return exp(Interval(mpq_class(-gamma_), p)); }
Interval StaircaseShape::one_minus_b(mpfr_prec_t p) const { return -expm1(Interval(mpq_class(-gamma_), p)); }

Interval StaircaseShape::h(int s, mpfr_prec_t p) const {
  const mpz_class pr = power_sum(s, r_), pd = power_sum(s, d_);
  return b(p) * mpq_class(pd - pr) + mpq_class(pr);
}

Interval StaircaseShape::g(int t, mpfr_prec_t p) const {
  const Interval bb = b(p), c = one_minus_b(p);
  const Interval one(1L, p);
  switch (t) {
    case 0: return one / c;
    case 1: return bb / square(c);
    case 2: return bb * (bb + mpq_class(1)) / (square(c) * c);
    case 3: return bb * (bb * (bb + mpq_class(4)) + mpq_class(1)) / square(square(c));
    default: {
      const Interval b2 = square(bb);
      const Interval poly = bb * mpq_class(11) + mpq_class(1) + (b2 * mpq_class(11) + b2 * bb);
      return bb * poly / (square(square(c)) * c);
    }
  }
}

Interval StaircaseShape::normaliser(mpfr_prec_t p) const {
  return g(0, p) * h(0, p) * mpq_class(2) - mpq_class(1);
}

Interval StaircaseShape::one_sided_moment(int k, mpfr_prec_t p) const {
  Interval sum(0L, p);
  mpz_class dt = 1;
  for (int t = 0; t <= k; ++t) {
    sum = sum + g(t, p) * h(k - t, p) * mpq_class(binomial(k, t) * dt);
    dt *= d_;
  }
  return sum;
}

Interval StaircaseShape::tail_from(const mpz_class& m0, mpfr_prec_t p) const {
  mpz_class i0, j0;
  mpz_fdiv_qr(i0.get_mpz_t(), j0.get_mpz_t(), m0.get_mpz_t(), d_.get_mpz_t());
  const Interval bb = b(p);
  // V(j0) = max(0, r - j0) + b (D - max(j0, r))
  const mpz_class first = r_ > j0 ? mpz_class(r_ - j0) : mpz_class(0);
  const mpz_class second = d_ - (j0 > r_ ? j0 : r_);
  const Interval v = bb * mpq_class(second) + mpq_class(first);
  const Interval rest = bb * h(0, p) * g(0, p);  // the blocks after i0, each b^(i - i0) H0
  return exp(Interval(mpq_class(-gamma_ * mpq_class(i0)), p)) * (v + rest);
}

Interval StaircaseShape::one_sided_even(mpfr_prec_t p) const {
  const Interval bb = b(p);
  const auto evens = [](const mpz_class& n) { return mpz_class((n + 1) / 2); };  // #{even j < n}
  const auto odds = [](const mpz_class& n) { return mpz_class(n / 2); };
  const Interval v_even = bb * mpq_class(evens(d_) - evens(r_)) + mpq_class(evens(r_));
  if (mpz_even_p(d_.get_mpz_t()) != 0) return v_even * g(0, p);  // parity of m = parity of j
  // D odd: parity of m = parity of i + j; sum over even i is 1/(1 - b^2), over odd i b/(1 - b^2).
  const Interval v_odd = bb * mpq_class(odds(d_) - odds(r_)) + mpq_class(odds(r_));
  const Interval one_minus_b2 = one_minus_b(p) * (bb + mpq_class(1));
  return (v_even + bb * v_odd) / one_minus_b2;
}

Interval StaircaseShape::mean_absolute(mpfr_prec_t p) const {
  return one_sided_moment(1, p) * mpq_class(2) / normaliser(p);
}

}  // namespace exactdp::laws
