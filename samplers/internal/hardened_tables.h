// internal/hardened_tables.h — the tables of the hardened samplers, built once from the public
// parameters, each with a certified bound on the total-variation distance between the law the
// table produces and the exact law it stands for (docs/HARDENED.md, section "The tau bound").
//
// Every bound is computed with MPFR and directed rounding (each call names its direction) and
// returned as an exact dyadic rational that is >= the true distance. The tables themselves are
// plain integers: the per-sample code (internal/constant_time.h) never sees MPFR or GMP.
#pragma once

#include <gmpxx.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace exactdp::internal {

// W-bit fixed-width numbers in `limbs` = floor(W / 64) + 1 64-bit words; the top word holds
// `top_bits` < 64 bits, so its top bit is clear.
struct FixedWidth {
  unsigned width_bits = 0;
  unsigned limbs = 0;
  unsigned top_bits = 0;
};
[[nodiscard]] FixedWidth fixed_width(unsigned width_bits);  // 1 <= width_bits <= 191

// Thresholds T_0 <= T_1 <= ... (each < 2^W), `limbs` words each, least significant word first.
struct ThresholdTable {
  std::vector<std::uint64_t> words;
  std::size_t entries = 0;
  // T_i as an integer (for tests and the exact pmf of the hardened law).
  [[nodiscard]] mpz_class threshold(std::size_t i, unsigned limbs) const;
};

struct CertifiedTable {
  ThresholdTable table;
  mpq_class tv_upper;  // >= TV(law of the table draw, the exact law it stands for)
};

// The magnitude table of D_{Z, sigma} (P[Z = z] ~ exp(-z^2 / (2 sigma2))): with u uniform on
// [0, 2^W), |Z| = #{i < K : u >= T_i} where T_i ~ 2^W P[|Z| <= i], then a fair sign. K is the
// least K >= 1 with P[|Z| > K] <= 2^tail_log2. tv_upper bounds TV(signed table draw, D_{Z,sigma})
// (the sign is exact, so the distance is that of the magnitudes).
[[nodiscard]] CertifiedTable build_gaussian_magnitude_table(const mpq_class& sigma2,
                                                            const FixedWidth& width, long tail_log2);

// The table of the half discrete Gaussian on {0, 1, 2, ...}: P[X = x] ~ exp(-x^2 / (2 sigma2)),
// X = #{i < K : u >= T_i}, T_i ~ 2^W P[X <= i], K the least K >= 1 with P[X > K] <= 2^tail_log2;
// tv_upper bounds TV(table draw, that law). (The proposal of the rejection method,
// internal/hardened_rejection.h.)
[[nodiscard]] CertifiedTable build_half_gaussian_table(const mpq_class& sigma2, const FixedWidth& width,
                                                       long tail_log2);

// The tables of the discrete Laplace magnitude |X|, P[X = x] = (1 - rho) / (1 + rho) rho^|x|,
// rho = exp(-1/scale). |X| = B (1 + G) with B ~ Bernoulli(2 rho / (1 + rho)) (X != 0) and
// G ~ Geometric (P[G = g] = (1 - rho) rho^g) independent; a fair sign then gives X exactly. The
// binary digits of G are independent, digit i being 1 with probability
// q_i = 1 / (1 + exp(2^i / scale)) (P[G = g] ~ prod_i (rho^(2^i))^(g_i)); note 2 rho / (1 + rho) = 2 q_0.
// Entry 0 of the table is round(2^W 2 q_0), entry 1 + i is round(2^W q_i) for i < K, K the least
// K >= 1 with P[G >= 2^K] = rho^(2^K) <= 2^tail_log2. tv_upper bounds TV(the signed draw, X).
[[nodiscard]] CertifiedTable build_laplace_magnitude_table(const mpq_class& scale,
                                                           const FixedWidth& width, long tail_log2);

// The convolution step (docs/HARDENED.md): for Z ~ D_{Z, sqrt(fine_sigma2)} and
// Y ~ D_{Z, sqrt((sigma2 - fine_sigma2) / m^2)} independent, Z + m Y differs from D_{Z, sigma} in
// total variation by at most eps / (1 - eps), eps = 2 sum_{k>=1} exp(-2 pi^2 k^2 a), where
// a = fine_sigma2 (sigma2 - fine_sigma2) / (sigma2 m^2). Returns that bound (requires
// 0 < fine_sigma2 < sigma2, m >= 2).
[[nodiscard]] mpq_class convolution_tv_upper(const mpq_class& sigma2, const mpq_class& fine_sigma2,
                                             long m);

// The least integer s with s >= 1.5 (tau_bits + 9) ln 2 m^2 / (2 pi^2): a fine variance for which
// every convolution step from a sigma2 >= 3 s costs at most 2^-(tau_bits + 8) (see the .cc).
[[nodiscard]] mpz_class convolution_fine_sigma2(unsigned tau_bits, long m);

}  // namespace exactdp::internal
