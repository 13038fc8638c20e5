#include <exactdp/samplers/internal/hardened_setup.h>

#include <stdexcept>
#include <string>

#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace exactdp::internal {

HardenedSetup prepare_hardened(const char* parameter, const mpq_class& value, const mpq_class& upper,
                               const char* range, const mpz_class& mean, Hardening hardening) {
  if (hardening.tau_bits < kMinTauBits || hardening.tau_bits > kMaxTauBits) {
    throw ParameterError::out_of_range("tau_bits", std::to_string(hardening.tau_bits),
                                       std::to_string(kMinTauBits) + " <= tau_bits <= " +
                                           std::to_string(kMaxTauBits) + " (tau <= 2^-tau_bits)");
  }
  HardenedSetup setup;
  setup.value = value;
  setup.value.canonicalize();
  const bool small = mpz_sizeinbase(setup.value.get_num_mpz_t(), 2) <= kHardenedMaxValueBits &&
                     mpz_sizeinbase(setup.value.get_den_mpz_t(), 2) <= kHardenedMaxValueBits;
  if (!small || setup.value < mpq_class(1, 100) || setup.value > upper) {
    throw ParameterError::out_of_range(parameter, abbreviate(to_string(setup.value)),
                                       std::string(range) + ", numerator and denominator below 2^" +
                                           std::to_string(kHardenedMaxValueBits) + ", in hardened mode");
  }
  if (abs(mean) > mpz_class(1) << 62) {
    throw ParameterError::out_of_range("mean", abbreviate(to_string(mean)), "|mean| <= 2^62 in hardened mode");
  }
  setup.mean = mpz_get_si(mean.get_mpz_t());
  setup.tau_bits = hardening.tau_bits;
  setup.width = fixed_width(hardening.tau_bits + 16);
  setup.tail_log2 = -static_cast<long>(hardening.tau_bits) - 8;
  return setup;
}

void require_tau_within_target(const mpq_class& tau_upper, unsigned tau_bits) {
  if (tau_upper > power_of_two(-static_cast<long>(tau_bits))) {
    throw std::logic_error("hardened sampler: certified tau above 2^-tau_bits");
  }
}

}  // namespace exactdp::internal
