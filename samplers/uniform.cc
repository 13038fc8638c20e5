#include <exactdp/samplers/uniform.h>

#include <bit>
#include <climits>
#include <stdexcept>

#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

static_assert(sizeof(unsigned long) == 8, "exactdp assumes 64-bit unsigned long (LP64)");

namespace exactdp {
namespace {

unsigned bit_length(uint128 v) {
  const auto high = static_cast<std::uint64_t>(v >> 64);
  if (high != 0) return 64 + static_cast<unsigned>(std::bit_width(high));
  return static_cast<unsigned>(std::bit_width(static_cast<std::uint64_t>(v)));
}

}  // namespace

std::uint64_t sample_uniform_below(BitSource& bits, std::uint64_t n) {
  if (n == 0) throw ParameterError::out_of_range("n", "0", "n >= 1 (sample_uniform_below)");
  const auto k = static_cast<unsigned>(std::bit_width(n - 1));
  for (;;) {
    const std::uint64_t v = bits.bits(k);
    if (v < n) return v;
  }
}

uint128 sample_uniform_below(BitSource& bits, uint128 n) {
  if (n == 0) throw ParameterError::out_of_range("n", "0", "n >= 1 (sample_uniform_below)");
  const unsigned k = bit_length(n - 1);
  // n = 2^64 has k = 64 but does not fit the 64-bit version: it takes the general loop below
  // (a first chunk of 0 bits, then one 64-bit chunk), which reads the same 64 bits.
  if ((n >> 64) == 0) return sample_uniform_below(bits, static_cast<std::uint64_t>(n));
  for (;;) {
    const uint128 high = bits.bits(k - 64);  // first chunk: k mod 64 (1..64) bits
    const uint128 v = (high << 64) | bits.bits(64);
    if (v < n) return v;
  }
}

void sample_uniform_below(BitSource& bits, const mpz_class& n, mpz_class& out) {
  if (sgn(n) <= 0) throw ParameterError::out_of_range("n", to_string(n), "n >= 1 (sample_uniform_below)");
  mpz_class n_minus_1 = n - 1;
  const std::size_t k = (n_minus_1 == 0) ? 0 : mpz_sizeinbase(n_minus_1.get_mpz_t(), 2);
  if (k <= 64) {
    // Same single chunk as the machine-integer versions.
    const std::uint64_t limit = (k == 0) ? 1 : mpz_get_ui(n.get_mpz_t());  // exact when k < 64
    if (k < 64) {
      out = static_cast<unsigned long>(sample_uniform_below(bits, limit));
      return;
    }
  }
  const unsigned first = (k % 64 == 0) ? 64 : static_cast<unsigned>(k % 64);
  const std::size_t rest_chunks = (k - first) / 64;
  for (;;) {
    mpz_set_ui(out.get_mpz_t(), static_cast<unsigned long>(bits.bits(first)));
    for (std::size_t i = 0; i < rest_chunks; ++i) {
      mpz_mul_2exp(out.get_mpz_t(), out.get_mpz_t(), 64);
      mpz_add_ui(out.get_mpz_t(), out.get_mpz_t(), static_cast<unsigned long>(bits.bits(64)));
    }
    if (out < n) return;
  }
}

mpz_class sample_uniform_below(BitSource& bits, const mpz_class& n) {
  mpz_class out;
  sample_uniform_below(bits, n, out);
  return out;
}

}  // namespace exactdp
