#include <exactdp/samplers/poisson.h>

#include <cstdint>
#include <optional>
#include <stdexcept>

#include <exactdp/core/errors.h>
#include <exactdp/core/interval.h>
#include <exactdp/core/rational.h>
#include <exactdp/samplers/discrete_laplace.h>
#include <exactdp/samplers/internal/poisson_fixed.h>
#include <exactdp/samplers/internal/poisson_table.h>

namespace exactdp {
namespace internal {

// The precomputed terms of one mu (poisson.h has the algorithms).
struct PoissonTerms {
  // mu <= 10^7: the table (internal/poisson_table.h)
  std::shared_ptr<const PoissonTable> table;
  // mu > 10^7: mode m, half-width t, envelope rate lambda (exact) and its proposal
  mpz_class m, t;
  mpq_class lambda;
  std::optional<DiscreteLaplaceParams> proposal;
  // the Stirling enclosure's constants (poisson_stirling below): log(mu / m), 1 / (12 m),
  // 1 / (360 m^3), lambda and lambda t as intervals at kStirlingPrecision
  std::optional<Interval> log_mu_over_m, twelfth_m, remainder_m, rate, rate_t;
  // the fixed-point enclosure's constants (internal/poisson_fixed.h)
  PoissonFixedTerms fixed;
};

}  // namespace internal

namespace {

constexpr long kEnvelopeFrom = 64;       // the envelope's least mu (its fixed-point terms need m >= 64)
constexpr mpfr_prec_t kFirstPrecision = 96;  // plus log2 of the proposal's size
constexpr mpfr_prec_t kStirlingPrecision = 128;
constexpr long kStirlingFrom = 16;         // k >= 16 and |k - m| < 2^40: the Stirling enclosure

const mpq_class kMaxMu = mpq_class(mpz_class("1000000000000000"));

// f(k) - f(m) = (k - m) log mu - log k! + log m!, enclosed (log mu and log m! given).
Interval log_ratio_to_mode(const Interval& log_mu, const Interval& log_factorial_m, const mpz_class& m,
                           const mpz_class& k, mpfr_prec_t p) {
  return log_mu * mpq_class(k - m) - internal::log_gamma_of(k + 1, p) + log_factorial_m;
}

Interval log_ratio_to_mode(const mpq_class& mu, const mpz_class& m, const mpz_class& k, mpfr_prec_t p) {
  return log_ratio_to_mode(log(Interval(mu, p)), internal::log_gamma_of(m + 1, p), m, k, p);
}

// The envelope rate: the largest multiple of 2^-32 / t below min(D+, D-) / t.
mpq_class envelope_rate(const mpq_class& mu, const mpz_class& m, const mpz_class& t) {
  const mpfr_prec_t p = kFirstPrecision + static_cast<mpfr_prec_t>(mpz_sizeinbase(m.get_mpz_t(), 2));
  const Interval drop_up = -log_ratio_to_mode(mu, m, m + t, p);
  const Interval drop_down = -log_ratio_to_mode(mu, m, m - t, p);
  const Interval low = mul_2si(min(drop_up, drop_down), 32);
  mpz_class steps;
  mpfr_get_z(steps.get_mpz_t(), low.lower(), MPFR_RNDD);
  if (steps <= 0) throw std::logic_error("poisson: no envelope rate for mu = " + to_string(mu));
  return mpq_class(steps, mpz_class(t) << 32);
}

// The envelope's terms (mu >= 64).
std::shared_ptr<const internal::PoissonTerms> envelope_terms(const mpq_class& mu) {
  auto terms = std::make_shared<internal::PoissonTerms>();
  terms->m = mu.get_num() / mu.get_den();
  terms->t = sqrt(terms->m);
  terms->lambda = envelope_rate(mu, terms->m, terms->t);
  terms->proposal = DiscreteLaplaceParams::make(1 / terms->lambda);
  const mpfr_prec_t p = kStirlingPrecision;
  terms->log_mu_over_m = log(Interval(mu / mpq_class(terms->m), p));
  terms->twelfth_m = Interval(mpq_class(1), p) / mpq_class(12 * terms->m);
  terms->remainder_m = Interval(mpq_class(1), p) / mpq_class(360 * terms->m * terms->m * terms->m);
  terms->rate = Interval(terms->lambda, p);
  terms->rate_t = Interval(mpq_class(terms->lambda * terms->t), p);
  terms->fixed = internal::make_poisson_fixed_terms(mu, terms->m, terms->t, terms->lambda);
  return terms;
}

// f(k) - f(m) by Stirling's series with its remainder: ln n! = S(n) - r(n),
// S(n) = n ln n - n + ln(2 pi n) / 2 + 1 / (12 n), 0 < r(n) < 1 / (360 n^3). With j = k - m and
// l = log1p(j / m) (so k ln k - m ln m = j ln m + k l, and no term is large):
//   f(k) - f(m) = j log(mu / m) - k l + j - l / 2 - 1 / (12 k) + 1 / (12 m) + r(k) - r(m),
// r(k) - r(m) in (-1 / (360 m^3), 1 / (360 k^3)). For k >= 16 and |j| < 2^40, at 128 bits.
Interval stirling_log_ratio(const internal::PoissonTerms& terms, const mpz_class& k, const mpz_class& j) {
  const mpfr_prec_t p = kStirlingPrecision;
  const Interval l = log1p(Interval(mpq_class(j, terms.m), p));
  const Interval rk = Interval(mpq_class(1), p) / mpq_class(360 * k * k * k);
  const Interval remainders = Interval::from_ends((-*terms.remainder_m).lower(), rk.upper(), p);
  const Interval jj(j, p);
  return *terms.log_mu_over_m * jj - l * Interval(k, p) + jj - mul_2si(l, -1) -
         Interval(mpq_class(1), p) / mpq_class(12 * k) + *terms.twelfth_m + remainders;
}

// The decision U < a(k) from U's first 64 bits u and the fixed-point bounds on a(k) (in units of
// 2^-80), when they settle it.
std::optional<bool> fixed_decision(std::uint64_t u, const internal::AcceptanceBounds& a) {
  if (((uint128{u} + 1) << 16) <= a.lo) return true;
  if ((uint128{u} << 16) >= a.hi) return false;
  return std::nullopt;
}

// Whether U < a(k) for the proposal k = m + y, with U's first 64 bits u: the fixed-point enclosure
// (internal/poisson_fixed.h) when it decides, else the MPFR enclosures with the same U.
bool accept_proposal(BitSource& bits, std::uint64_t u, const mpq_class& mu, const internal::PoissonTerms& terms,
                     const mpz_class& k, const mpz_class& y, bool fixed_path) {
  if (fixed_path && y.fits_slong_p()) {
    if (const auto a = internal::poisson_fixed_acceptance(terms.fixed, y.get_si())) {
      if (const auto decided = fixed_decision(u, *a)) return *decided;
    }
  }
  // log a(k) = f(k) - f(m) - lambda (t - |y|)
  const bool stirling = k >= kStirlingFrom && mpz_sizeinbase(y.get_mpz_t(), 2) < 40;
  const mpfr_prec_t start =
      stirling ? kStirlingPrecision : kFirstPrecision + static_cast<mpfr_prec_t>(mpz_sizeinbase(k.get_mpz_t(), 2));
  return internal::uniform_below(bits, u, start, [&](mpfr_prec_t p) {
    if (stirling && p == kStirlingPrecision) {
      const Interval shift = *terms.rate_t - *terms.rate * Interval(mpz_class(abs(y)), p);
      return exp(stirling_log_ratio(terms, k, y) - shift);
    }
    const mpq_class shift = terms.lambda * mpq_class(terms.t - abs(y));
    return exp(log_ratio_to_mode(mu, terms.m, k, p) - shift);
  });
}

void sample_large(BitSource& bits, const mpq_class& mu, const internal::PoissonTerms& terms, mpz_class& out,
                  bool fixed_path) {
  mpz_class y, k;
  for (;;) {
    sample_discrete_laplace(bits, *terms.proposal, y);
    k = terms.m + y;
    if (sgn(k) < 0) continue;
    const auto u = static_cast<std::uint64_t>(bits.bits(64));
    if (accept_proposal(bits, u, mu, terms, k, y, fixed_path)) {
      out = k;
      return;
    }
  }
}

void sample(BitSource& bits, const PoissonParams& params, mpz_class& out, bool fixed_path) {
  if (const internal::PoissonTable* table = params.table()) {
    out = static_cast<long>(table->draw(bits));
    return;
  }
  sample_large(bits, params.mu(), params.terms(), out, fixed_path);
}

}  // namespace

const mpq_class& poisson_max_mu() { return kMaxMu; }

const mpq_class& poisson_table_max_mu() {
  static const mpq_class max_mu(internal::PoissonTable::kMaxMu);
  return max_mu;
}

PoissonParams PoissonParams::make(const mpq_class& mu) {
  if (sgn(mu) <= 0) throw ParameterError::out_of_range("mu", abbreviate(to_string(mu)), "mu > 0");
  if (mu > kMaxMu) {
    throw LimitError("mu", "mu = " + abbreviate(to_string(mu)) + " is out of range: allowed 0 < mu <= 10^15");
  }
  mpq_class canonical = mu;
  canonical.canonicalize();
  if (canonical <= poisson_table_max_mu()) {
    internal::PoissonTableOptions options;
    return internal::make_poisson_params(canonical, &options);
  }
  return internal::make_poisson_params(canonical, nullptr);
}

PoissonParams internal::make_poisson_params(const mpq_class& mu, const PoissonTableOptions* options) {
  PoissonParams params;
  params.mu_ = mu;
  params.mu_.canonicalize();
  if (options != nullptr) {
    auto terms = std::make_shared<PoissonTerms>();
    terms->table = PoissonTable::build(params.mu_, *options);
    params.terms_ = std::move(terms);
  } else {
    if (params.mu_ < kEnvelopeFrom) throw std::invalid_argument("poisson: the envelope needs mu >= 64");
    params.terms_ = envelope_terms(params.mu_);
  }
  return params;
}

const internal::PoissonTable* PoissonParams::table() const noexcept { return terms_->table.get(); }

void sample_poisson(BitSource& bits, const PoissonParams& params, mpz_class& out) { sample(bits, params, out, true); }

void internal::sample_poisson_mpfr_only(BitSource& bits, const PoissonParams& params, mpz_class& out) {
  sample(bits, params, out, false);
}

mpz_class sample_poisson(BitSource& bits, const PoissonParams& params) {
  mpz_class out;
  sample_poisson(bits, params, out);
  return out;
}

}  // namespace exactdp
