// signed_draw.h — the value of one draw of the internal table and bucket samplers, which draw a
// magnitude and a sign apart (internal/signed_result.h), for the tests that check their laws
// (symmetric_table_test.cc, bucket_gaussian_test.cc).
#pragma once

#include <gmpxx.h>

#include <exactdp/samplers/bit_source.h>
#include <exactdp/samplers/internal/bucket_gaussian.h>
#include <exactdp/samplers/internal/signed_result.h>
#include <exactdp/samplers/internal/symmetric_table.h>

namespace exactdp::test_support {

// draw(negative) returns the magnitude (uint128 or mpz_class) and sets negative; the result is
// the signed value, mean 0.
template <class Draw>
mpz_class signed_draw(Draw draw) {
  bool negative = false;
  mpz_class out;
  const auto magnitude = draw(negative);  // sets negative: a statement of its own
  internal::assign_signed(out, magnitude, negative, 0);
  return out;
}

inline mpz_class draw_value(const internal::SymmetricTable& table, BitSource& bits) {
  return signed_draw([&](bool& negative) { return table.draw(bits, negative); });
}

// The bucket sampler's GMP rounds.
inline mpz_class draw_value(const internal::BucketGaussian& sampler, BitSource& bits) {
  return signed_draw([&](bool& negative) {
    mpz_class magnitude;
    sampler.draw_gmp(bits, magnitude, negative);
    return magnitude;
  });
}

// The bucket sampler's draw_fast: the 64-bit rounds where the sampler is narrow(), else the
// 128-bit ones.
inline mpz_class draw_machine(const internal::BucketGaussian& sampler, BitSource& bits) {
  return signed_draw([&](bool& negative) { return sampler.draw_fast(bits, negative); });
}

}  // namespace exactdp::test_support
