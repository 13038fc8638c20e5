// three_region_series.h — certified S(g) = int w(v) (1 + r(v))^g dv for real (rational) g, the
// engine behind the fractional-order RDP of the subsampled Gaussian (rdp_fractional.h) and the
// RDP of the subsampled Laplace (rdp_subsampled_laplace.h). Not part of the installed API.
//
// Setting: a weight w >= 0 and a ratio r > 0 increasing in v, and three regions cut where
// r = 1/2 and r = 2:
//   left   (r <= 1/2):  (1 + r)^g = sum_k C(g,k) r^k
//   right  (r >= 2):    (1 + r)^g = sum_k C(g,k) r^(g-k)         (powers of 1/r <= 1/2)
//   middle (1/2 < r < 2): (1 + r)^g = 2^g sum_k C(g,k) 2^-k (r - 1)^k   (|r - 1|/2 <= 1/2)
// The problem supplies the region moments m(region, j) = int_region w r^j for real j. Middle
// moments of (r - 1)^k are the k-th forward differences at 0 of M_i = m(middle, i) (i integer),
// computed at precision + K + 64 bits (about a bit lost per difference; intervals keep it
// rigorous anyway). Each series converges absolutely and uniformly on its region (ratio <= 1/2),
// so it may be summed under the integral.
//
// Tail bound (proof). For k >= K > g: |C(g,k+1)/C(g,k)| = (k-g)/(k+1) <= rho = max(1,
// (K-g)/(K+1)) < 2 (K >= -g also), and the k-th term of each region is at most |C(g,k)| 2^-k
// times m(left, 0), m(right, g) and 2^g m(middle, 0) respectively (r^k <= 2^-k on the left,
// r^(g-k) <= 2^-k r^g on the right, |r - 1| <= 1 in the middle). So the terms from K on sum to at
// most T_K = |C(g,K)| 2^-K (m(left,0) + m(right,g) + 2^g m(middle,0)) / (1 - rho/2), added as
// [-T_K, T_K]. K is the first k >= K_min(g) with T_K <= 2^-(precision+32) L, L a lower bound on
// S(g): the total weight W (sum of the three m(., 0)), and for g >= 0 the larger of W and
// m(right, g) (there (1 + r)^g >= max(1, r^g)), so a sum dominated by its right region (a large
// order) is not carried to an absolute 2^-precision; at most 8 precision + 256 + K_min terms
// (then the wider tail stays in the interval: still certified).
//
// Caching: the g-independent parts (left moments m(left, k) and the middle differences) are
// kept per thread for the last problem key and precision, and reused for any g needing no
// more terms: an accountant evaluates several orders, and both g = alpha and g = 1 - alpha, of
// one event in a row. Thread-safety: pure (thread_local cache).
#pragma once

#include <gmpxx.h>

#include <string>

#include <exactdp/core/interval.h>

namespace exactdp::accounting::internal {

enum class Region { kLeft, kMiddle, kRight };

class ThreeRegionProblem {
 public:
  virtual ~ThreeRegionProblem() = default;
  // int_region w r^j for real j, an outward interval at precision p (empty region: 0).
  [[nodiscard]] virtual Interval moment(Region region, const Interval& j, const mpq_class& j_exact,
                                        mpfr_prec_t p) const = 0;
  // Equal keys mean equal moments (the cache's key).
  [[nodiscard]] virtual std::string cache_key() const = 0;
};

// S(g) = int w (1 + r)^g, an outward interval at `precision`.
[[nodiscard]] Interval three_region_sum(const ThreeRegionProblem& problem, const mpq_class& g, mpfr_prec_t precision);

// S(g1) and S(g2) with one set of cached parts (sized for both).
struct SumPair {
  Interval first, second;
};
[[nodiscard]] SumPair three_region_sums(const ThreeRegionProblem& problem, const mpq_class& g1, const mpq_class& g2,
                                        mpfr_prec_t precision);

}  // namespace exactdp::accounting::internal
