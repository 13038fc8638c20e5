// poisson.h — sample_poisson: N in {0, 1, 2, ...} with P[N = n] = exp(-mu) mu^n / n!, exactly, for
// an exact rational mu with 0 < mu <= 10^15.
//
// mu <= 10^7: the table sampler (internal/poisson_table.h, where the proof is): an integer alias
// table over the integer weights w(k) = floor(c p(k)) of the values within about 13 standard
// deviations of the mode, c < 2^32; one 32-bit read and one 4-byte load give k with probability
// w(k) 2^-32; the rest of the mass, c p(k) - w(k) < 2 units for each k and the geometric envelopes
// of both tails (p is log-concave), is drawn with exact acceptances against MPFR enclosures
// (together with the restarts, probability below 2^-13 a proposal). Every k is output with
// probability exactly c p(k) 2^-32 a proposal: the law is Poisson(mu) exactly. Built once by
// make(): about 13 sqrt(mu) MPFR recurrence steps (a few ms at mu = 10^6, bench/skellam_bench.cc
// BM_PoissonTableBuild; 2^b 4-byte buckets, b <= 16, and one 4-byte weight a value: at most 420 KB
// at mu = 10^7).
// mu > 10^7: rejection from a discrete Laplace envelope (discrete_laplace.h) centred at
// the mode m = floor(mu). With f(k) = log P[N = k] (concave in k: its second difference is
// log(k / (k + 1)) < 0) and t = floor(sqrt(m)), let D+ = f(m) - f(m + t), D- = f(m) - f(m - t) and
// lambda <= min(D+, D-) / t an exact rational (2^-32 t grid). Concavity makes the secant slopes
// from m decrease, so f(k) <= f(m) - lambda |k - m| when |k - m| >= t, and f(k) <= f(m) (the
// mode) otherwise: P[N = k] <= C exp(-lambda |k - m|) for every k, with C = exp(f(m) + lambda t).
// A proposal k = m + Y (Y discrete Laplace of scale 1/lambda; k < 0 is rejected) is accepted
// with probability a(k) = exp(f(k) - f(m) - lambda t + lambda |k - m|) <= 1. The acceptance is
// decided exactly by comparing a uniform real U, whose bits are drawn 64 at a time, with a(k):
// first with bounds on a(k) in integer fixed point from U's first 64 bits (Stirling's series with
// its remainder, the series of log1p, and fixed_exp52's exponential, every rounding outward:
// internal/poisson_fixed.h, for |k - m| <= m / 4), which decide unless U's 2^-64 cell meets the
// bounds' gap (below 2^-50 from mu = 10^6 on; at small mu Stirling's remainder 1/(360 k^3) sets
// it: about 2^-37 at mu = 1000, 2^-25 at mu = 64); then,
// with the same U, with a(k) enclosed in a certified MPFR interval: Stirling's series for
// log k! - log m! with its remainder bound (at 128 bits, poisson.cc), and log-gamma (correctly
// rounded in both directions) at doubling precisions. U < a is proven or refuted from U's bits
// drawn so far. Both ways decide the same event U < a(k), so the values are those of the MPFR
// decision alone (tests/samplers/poisson_fixed_test.cc). No floating point decides anything: the
// law is Poisson(mu) exactly.
// Cost: the table, about 32 bits and a few ns a draw, whatever mu <= 10^7; the envelope, expected
// about 2.6 proposals (with t = sqrt(mu) the envelope's mass is C (1 + e^-lambda) / (1 - e^-lambda)
// ~ 4 e^(1/2) / sqrt(2 pi)), each one discrete Laplace draw and one fixed-point enclosure: the cost
// does not grow with mu (about 0.6-0.7 us a draw at mu = 10^7..10^12, bench/skellam_bench.cc).
// Timing: NOT constant-time (the number of coins and proposals depends on the bits and on the
// result); there is no hardened Poisson sampler (SECURITY.md, "Timing").
// Errors: PoissonParams::make throws ParameterError naming "mu" unless 0 < mu, LimitError naming
// "mu" beyond 10^15. Thread-safety: params are immutable and shareable; a BitSource is one per
// thread.
#pragma once

#include <gmpxx.h>

#include <memory>

#include <exactdp/samplers/bit_source.h>

namespace exactdp {

class PoissonParams;

namespace internal {
struct PoissonTerms;         // poisson.cc
struct PoissonTableOptions;  // internal/poisson_table.h
class PoissonTable;
// Params on a chosen route, for the tests: the table built with *options (0 < mu <= 10^7), or the
// envelope when options is null (mu >= 64); std::invalid_argument outside those ranges.
[[nodiscard]] PoissonParams make_poisson_params(const mpq_class& mu, const PoissonTableOptions* options);
}  // namespace internal

class PoissonParams {
 public:
  [[nodiscard]] static PoissonParams make(const mpq_class& mu);
  [[nodiscard]] const mpq_class& mu() const noexcept { return mu_; }
  // The table when draws take it (mu <= 10^7), else null (the envelope rejection).
  [[nodiscard]] const internal::PoissonTable* table() const noexcept;
  [[nodiscard]] const internal::PoissonTerms& terms() const noexcept { return *terms_; }

 private:
  friend PoissonParams internal::make_poisson_params(const mpq_class& mu, const internal::PoissonTableOptions* options);
  PoissonParams() = default;
  mpq_class mu_;
  std::shared_ptr<const internal::PoissonTerms> terms_;
};

// The largest mu PoissonParams::make accepts: 10^15.
[[nodiscard]] const mpq_class& poisson_max_mu();
// The largest mu the table serves (about 10 ns a draw; above, the envelope, about 0.7 us:
// bench/skellam_bench.cc BM_Poisson, BM_PoissonEnvelope): 10^7.
[[nodiscard]] const mpq_class& poisson_table_max_mu();

// One draw into out.
void sample_poisson(BitSource& bits, const PoissonParams& params, mpz_class& out);
[[nodiscard]] mpz_class sample_poisson(BitSource& bits, const PoissonParams& params);

}  // namespace exactdp
