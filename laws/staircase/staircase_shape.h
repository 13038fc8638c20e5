// staircase_shape.h — the discrete staircase law's parameters and its certified sums, shared by
// its sampler, its audit reference law and its privacy maps (Geng and Viswanath, "The optimal
// noise-adding mechanism in differential privacy", integer-valued queries).
//
// The law. Integer sensitivity D >= 1, decay b = exp(-gamma) per step of D (gamma > 0 rational),
// r in {1, ..., D}: with m = |x - mean| = i D + j (0 <= j < D),
//   P(x) = a b^i v_j,   v_j = 1 for j < r, v_j = b for j >= r,
// i.e. a for |x| < r, a b for r <= |x| < D, and P(k + iD) = b^i P(k) on each side; symmetric.
// Normaliser: 1/a = 2 G0 H0 - 1 with G0 = sum_i b^i = 1 / (1 - b) and H0 = sum_j v_j =
// r + (D - r) b (the centre is counted once).
//
// Sums. Every sum over m >= 0 factors into blocks: sum_m m^k w(m) = sum_t C(k,t) D^t G_t H_(k-t),
// G_t = sum_i i^t b^i (closed forms in b / (1 - b), t <= 4) and H_s = sum_j j^s v_j =
// P_s(r) + b (P_s(D) - P_s(r)) with P_s(n) = sum_{j<n} j^s exact integers. The tail
// T(m0) = sum_{m >= m0} w(m) = b^i0 (V(j0) + b H0 G0) for m0 = i0 D + j0, with V(j0) = sum_{j>=j0} v_j.
// Every value is an exactdp::Interval rounded outward (1 - b computed as -expm1(-gamma): no
// cancellation for small gamma), so each is certified at the precision asked for.
//
// The default r minimises E|X| = 2 a sum_m m w(m): that is N(r) / M(r) with N convex quadratic and
// M positive linear in r, so it is quasi-convex in r and the least r with E|X|(r+1) >= E|X|(r) is a
// minimiser; it is found by binary search on that comparison, each decided by enclosures at rising
// precision (two different r never tie unless a polynomial in exp(-gamma) with rational
// coefficients vanishes identically; an undecided comparison at 4096 bits counts as a tie and
// keeps the smaller r).
//
// Limits (ParameterError naming the parameter): 0 < gamma <= 10^4 with numerator and denominator
// below 2^512; 1 <= sensitivity <= 10^9; 1 <= r <= sensitivity; sensitivity / r <= 2^24 (the
// sampler's expected number of rounds is at most sensitivity / r). |mean| < 2^62.
#pragma once

#include <gmpxx.h>

#include <exactdp/core/interval.h>

namespace exactdp::laws {

using exactdp::Interval;

class StaircaseShape {
 public:
  // Checks every range above; r = 0 means "the default (optimal) r".
  [[nodiscard]] static StaircaseShape make(const mpq_class& gamma, const mpz_class& sensitivity, const mpz_class& r);

  [[nodiscard]] const mpq_class& gamma() const noexcept { return gamma_; }
  [[nodiscard]] const mpz_class& sensitivity() const noexcept { return d_; }
  [[nodiscard]] const mpz_class& r() const noexcept { return r_; }

  // b = exp(-gamma) and 1 - b.
  [[nodiscard]] Interval b(mpfr_prec_t p) const;
  [[nodiscard]] Interval one_minus_b(mpfr_prec_t p) const;
  // 1/a = sum over all integers of the unnormalised weights.
  [[nodiscard]] Interval normaliser(mpfr_prec_t p) const;
  // sum_{m >= 0} m^k w(m), k in 0..4 (unnormalised, one side, centre included).
  [[nodiscard]] Interval one_sided_moment(int k, mpfr_prec_t p) const;
  // sum_{m >= m0} w(m), m0 >= 0 (unnormalised).
  [[nodiscard]] Interval tail_from(const mpz_class& m0, mpfr_prec_t p) const;
  // sum_{m >= 0, m even} w(m) (unnormalised).
  [[nodiscard]] Interval one_sided_even(mpfr_prec_t p) const;
  // E|X - mean| (normalised).
  [[nodiscard]] Interval mean_absolute(mpfr_prec_t p) const;

 private:
  StaircaseShape(mpq_class gamma, mpz_class d, mpz_class r) : gamma_(std::move(gamma)), d_(std::move(d)), r_(std::move(r)) {}
  [[nodiscard]] Interval h(int s, mpfr_prec_t p) const;  // H_s
  [[nodiscard]] Interval g(int t, mpfr_prec_t p) const;  // G_t
  mpq_class gamma_;
  mpz_class d_, r_;
};

}  // namespace exactdp::laws
