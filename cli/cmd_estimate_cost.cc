#include "cli/cmd_estimate_cost.h"

#include <string>

#include <exactdp/core/errors.h>

namespace exactdp::cli {

// Calibrating the advanced and KOV routes (with a delta), in draws per round (the header).
constexpr unsigned long long kCalibrationDrawsPerRound = 2000;

unsigned long rational_bits(const mpq_class& q) {
  return static_cast<unsigned long>(mpz_sizeinbase(q.get_num_mpz_t(), 2) + mpz_sizeinbase(q.get_den_mpz_t(), 2));
}

void check_epsilon_size(const mpq_class& epsilon) {
  const unsigned long bits = rational_bits(epsilon);
  if (bits > kMaxEstimateEpsilonBits) {
    throw LimitError("epsilon", "epsilon has " + std::to_string(bits) +
                                    " bits of numerator plus denominator: allowed at most " +
                                    std::to_string(kMaxEstimateEpsilonBits) +
                                    " (about 300 digits; a smaller epsilon makes every draw slower)");
  }
}

unsigned long long sparse_mean_work(const SparseMeanShape& shape) {
  const unsigned long long s = shape.s, d = shape.d;  // both <= 10^5 here: no overflow
  const unsigned long long draws = s * d - s * (s - 1) / 2 + s;  // s <= d: no underflow
  const unsigned long long base = draws + (shape.with_delta ? kCalibrationDrawsPerRound * s : 0);
  return base + base * shape.epsilon_bits / 512;  // epsilon_bits <= 1024: no overflow
}

void check_sparse_mean_cost(const SparseMeanShape& shape) {
  if (shape.s < 1 || shape.s > shape.d) {
    throw ParameterError::out_of_range("s", std::to_string(shape.s),
                                       "1 <= s <= d = " + std::to_string(shape.d) + " (the columns of the header)");
  }
  const unsigned long long work = sparse_mean_work(shape);
  if (work > kMaxSparseMeanWork) {
    throw LimitError("s", "s = " + std::to_string(shape.s) + " of d = " + std::to_string(shape.d) +
                              " coordinates would take about " + std::to_string(work) +
                              " noise draws (calibration included): allowed at most " +
                              std::to_string(kMaxSparseMeanWork) + " (about 5 s); lower --s or the number of columns");
  }
}

}  // namespace exactdp::cli
