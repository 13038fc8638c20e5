#include <exactdp/mechanisms/estimation/estimation_cost.h>

#include <algorithm>
#include <limits>
#include <string>

#include <exactdp/core/errors.h>

namespace exactdp::mechanisms {
namespace {

// Calibrating the advanced and KOV routes (with a delta), in draws per round (the header).
constexpr unsigned long long kCalibrationDrawsPerRound = 2000;
constexpr unsigned long long kSaturated = std::numeric_limits<unsigned long long>::max();

unsigned long long saturating_mul(unsigned long long a, unsigned long long b) {
  if (a != 0 && b > kSaturated / a) return kSaturated;
  return a * b;
}

unsigned long long integer_sqrt(unsigned long long v) {
  unsigned long long r = 0;
  while ((r + 1) * (r + 1) <= v) ++r;  // v <= 2^35 here: at most 2^18 steps
  return r;
}

}  // namespace

unsigned long numerator_denominator_bits(const mpq_class& q) {
  return static_cast<unsigned long>(mpz_sizeinbase(q.get_num_mpz_t(), 2) + mpz_sizeinbase(q.get_den_mpz_t(), 2));
}

void check_epsilon_size(const mpq_class& epsilon) {
  const unsigned long bits = numerator_denominator_bits(epsilon);
  if (bits > kMaxEstimateEpsilonBits) {
    throw LimitError("epsilon", "epsilon has " + std::to_string(bits) +
                                    " bits of numerator plus denominator: allowed at most " +
                                    std::to_string(kMaxEstimateEpsilonBits) +
                                    " (about 300 digits; a smaller epsilon makes every draw slower)");
  }
}

unsigned long long peeling_work(const PeelingShape& shape) {
  if (shape.s > shape.d || shape.d > 100'000 || shape.epsilon_bits > kMaxEstimateEpsilonBits) return kSaturated;
  const unsigned long long s = shape.s, d = shape.d;  // both <= 10^5 here: no overflow
  const unsigned long long draws = s * d - s * (s - 1) / 2 + s;
  const unsigned long long base = draws + (shape.with_delta ? kCalibrationDrawsPerRound * s : 0);
  return saturating_mul(base + base * shape.epsilon_bits / 512, shape.peelings);
}

void check_peeling_cost(const PeelingShape& shape, const char* name) {
  if (shape.s < 1 || shape.s > shape.d) {
    throw ParameterError::out_of_range(name, std::to_string(shape.s),
                                       "1 <= " + std::string(name) + " <= d = " + std::to_string(shape.d) +
                                           " (the coordinates)");
  }
  if (shape.epsilon_bits > kMaxEstimateEpsilonBits) {
    throw LimitError("epsilon", "epsilon has " + std::to_string(shape.epsilon_bits) +
                                    " bits of numerator plus denominator: allowed at most " +
                                    std::to_string(kMaxEstimateEpsilonBits) +
                                    " (about 300 digits; a smaller epsilon makes every draw slower)");
  }
  const unsigned long long work = peeling_work(shape);
  if (work > kMaxPeelingWork) {
    const std::string times = shape.peelings > 1 ? " in each of " + std::to_string(shape.peelings) + " peelings" : "";
    throw LimitError(name, std::string(name) + " = " + std::to_string(shape.s) + " of d = " +
                               std::to_string(shape.d) + " coordinates" + times + " would take about " +
                               (work == kSaturated ? std::string("more than 10^19") : std::to_string(work)) +
                               " noise draws (calibration included): allowed at most " +
                               std::to_string(kMaxPeelingWork) + " (about 5 s); lower " + name +
                               " or the number of coordinates");
  }
}

unsigned long long ols_sum_work(const OlsShape& shape) {
  const unsigned long long p = shape.p;
  return saturating_mul(shape.n, saturating_mul(p, p + 1) / 2);
}

unsigned long long ols_solve_work(const OlsShape& shape) {
  // p <= 10^5 and entry_bits <= 2^20 here (else saturated): every product below fits.
  if (shape.p > 100'000 || shape.entry_bits > (1UL << 20)) return kSaturated;
  const unsigned long long p = shape.p;
  const unsigned long long limbs = std::max<unsigned long long>(1, (p * shape.entry_bits + 63) / 64);
  const unsigned long long product = limbs * integer_sqrt(limbs);  // ~limbs^1.5
  return saturating_mul(p * p * p / 3 + 1, product);
}

void check_ols_cost(const OlsShape& shape) {
  const std::string what = "x has " + std::to_string(shape.n) + " rows of " + std::to_string(shape.p) +
                           " columns (entries of X^T X of " + std::to_string(shape.entry_bits) + " bits): ";
  if (ols_sum_work(shape) > kMaxOlsSumWork) {
    throw LimitError("x", what + "rows * columns * (columns + 1) / 2 is over " + std::to_string(kMaxOlsSumWork) +
                              " (the exact sums would take over 10 s); use fewer rows or columns");
  }
  const unsigned long long work = ols_solve_work(shape);
  if (work > kMaxOlsSolveWork) {
    throw LimitError("x", what + "the exact solve would take about " + std::to_string(work / 1'000'000) +
                              " million limb products: allowed at most " +
                              std::to_string(kMaxOlsSolveWork / 1'000'000) +
                              " million (about 5 s; docs/ESTIMATION.md, Limits); use fewer columns, or a coarser "
                              "granularity_exponent");
  }
}

}  // namespace exactdp::mechanisms
