#include "samplers/hardening.h"

#include <string>

#include "samplers/errors.h"
#include "samplers/rational.h"

namespace exactdp {

void validate_hardening(const Hardening& hardening) {
  if (hardening.tau_bits < kMinTauBits || hardening.tau_bits > kMaxTauBits) {
    throw ParameterError::out_of_range("tau_bits", std::to_string(hardening.tau_bits),
                                       std::to_string(kMinTauBits) + " <= tau_bits <= " +
                                           std::to_string(kMaxTauBits) + " (tau <= 2^-tau_bits)");
  }
}

void validate_hardened_rational(const char* parameter, const mpq_class& value, const mpq_class& lower,
                                const mpq_class& upper, const char* range) {
  const bool small = mpz_sizeinbase(value.get_num_mpz_t(), 2) <= 64 &&
                     mpz_sizeinbase(value.get_den_mpz_t(), 2) <= 64;
  if (!small || value < lower || value > upper) {
    throw ParameterError::out_of_range(parameter, abbreviate(to_string(value)),
                                       std::string(range) +
                                           ", numerator and denominator below 2^64, in hardened mode");
  }
}

std::int64_t hardened_mean(const mpz_class& mean) {
  const mpz_class limit = mpz_class(1) << 62;
  if (abs(mean) > limit) {
    throw ParameterError::out_of_range("mean", abbreviate(to_string(mean)),
                                       "|mean| <= 2^62 in hardened mode");
  }
  return mpz_get_si(mean.get_mpz_t());
}

}  // namespace exactdp
