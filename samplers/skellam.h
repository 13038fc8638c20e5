// skellam.h — sample_skellam: X = N1 - N2 with N1, N2 independent Poisson(mu) (poisson.h), the
// Skellam law Sk(mu): P[X = k] = exp(-2 mu) I_|k|(2 mu) (I the modified Bessel function), mean 0,
// variance 2 mu, for an exact rational 0 < mu <= 10^15, exactly.
// The law is closed under sums: Sk(mu1) + Sk(mu2) = Sk(mu1 + mu2) for independent draws (so n
// clients adding Sk(mu) each give the server Sk(n mu)).
// Cost: two Poisson(mu) draws (poisson.h): up to mu = 10^7 two table lookups (64 random bits),
// the difference formed in int64 with no allocation (about 20 ns a draw at mu = 10^6, 1.3 times
// the discrete Gaussian of the same variance; bench/skellam_bench.cc), after a one-off build in
// make() (about 3.5 ms at mu = 10^6, 11 ms at 10^7); beyond, about 2.6 envelope proposals each
// (about 1.4 us a draw).
// Timing: NOT constant-time; no hardened Skellam sampler (SECURITY.md, "Timing").
// Errors: SkellamParams::make throws ParameterError naming "mu" unless mu > 0 (LimitError beyond
// 10^15). Thread-safety: params are immutable and shareable; a BitSource is one per thread.
#pragma once

#include <gmpxx.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include <exactdp/samplers/bit_source.h>
#include <exactdp/samplers/poisson.h>
#include <exactdp/samplers/wide_value.h>

namespace exactdp {

class SkellamParams {
 public:
  [[nodiscard]] static SkellamParams make(const mpq_class& mu, const mpz_class& mean = 0);
  [[nodiscard]] const mpq_class& mu() const noexcept { return poisson_.mu(); }
  [[nodiscard]] const mpz_class& mean() const noexcept { return mean_; }
  [[nodiscard]] const PoissonParams& poisson() const noexcept { return poisson_; }

 private:
  SkellamParams(PoissonParams poisson, mpz_class mean) : poisson_(std::move(poisson)), mean_(std::move(mean)) {}
  PoissonParams poisson_;
  mpz_class mean_;
};

// One draw, mean + N1 - N2, into out.
void sample_skellam(BitSource& bits, const SkellamParams& params, mpz_class& out);
[[nodiscard]] mpz_class sample_skellam(BitSource& bits, const SkellamParams& params);

// n draws, exactly the values and bits of n sample_skellam calls: a value outside int64 goes to
// `wide` with its index (out[i] = 0) and the batch goes on. On the table route (mu <= 10^7) the
// values are formed in int64 without allocation.
void sample_skellam_wide(BitSource& bits, const SkellamParams& params, std::int64_t* out, std::size_t n,
                         std::vector<WideValue>& wide);

}  // namespace exactdp
