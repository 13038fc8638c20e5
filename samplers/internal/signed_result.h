// internal/signed_result.h — turning (magnitude, sign) plus a mean into the sampler outputs.
#pragma once

#include <gmpxx.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include <exactdp/samplers/int128.h>
#include <exactdp/samplers/internal/cks20.h>
#include <exactdp/samplers/wide_value.h>

namespace exactdp::internal {

inline void assign_signed(mpz_class& out, uint128 magnitude, bool negative, const mpz_class& mean) {
  if (magnitude < (uint128{1} << 64)) {
    mpz_set_ui(out.get_mpz_t(), static_cast<unsigned long>(magnitude));
  } else {
    out = to_mpz(magnitude);
  }
  if (negative) mpz_neg(out.get_mpz_t(), out.get_mpz_t());
  if (sgn(mean) != 0) out += mean;
}

inline void assign_signed(mpz_class& out, const mpz_class& magnitude, bool negative,
                          const mpz_class& mean) {
  out = magnitude;
  if (negative) mpz_neg(out.get_mpz_t(), out.get_mpz_t());
  if (sgn(mean) != 0) out += mean;
}

inline std::optional<std::int64_t> to_int64(const mpz_class& value) {
  if (!mpz_fits_slong_p(value.get_mpz_t())) return std::nullopt;
  return static_cast<std::int64_t>(mpz_get_si(value.get_mpz_t()));
}

// (negative ? -magnitude : magnitude) + mean as int64, if it fits. Machine arithmetic when
// |magnitude| < 2^64 and the mean fits in int64 (the sum is then below 2^65 in magnitude: exact
// in int128); otherwise the exact sum on GMP, so a mean outside int64 or a magnitude of 2^63 or
// more still gives the value whenever the value itself fits (e.g. mean = -2^63 - 5, magnitude 10).
inline std::optional<std::int64_t> to_int64(uint128 magnitude, bool negative, const mpz_class& mean) {
  if (magnitude < (uint128{1} << 64) && mpz_fits_slong_p(mean.get_mpz_t())) {
    const int128 value = (negative ? -static_cast<int128>(magnitude) : static_cast<int128>(magnitude)) +
                         static_cast<int128>(mpz_get_si(mean.get_mpz_t()));
    if (value < INT64_MIN || value > INT64_MAX) return std::nullopt;
    return static_cast<std::int64_t>(value);
  }
  mpz_class value;
  assign_signed(value, magnitude, negative, mean);
  return to_int64(value);
}

// sample_n_wide's slot i: out[i] = the value when it fits in int64, else out[i] = 0 and `wide`
// gets the exact value with its index.
inline void store_value(std::size_t i, uint128 magnitude, bool negative, const mpz_class& mean,
                        std::int64_t* out, std::vector<WideValue>& wide) {
  if (const std::optional<std::int64_t> v = to_int64(magnitude, negative, mean)) {
    out[i] = *v;
    return;
  }
  out[i] = 0;
  WideValue w{i, mpz_class()};
  assign_signed(w.value, magnitude, negative, mean);
  wide.push_back(std::move(w));
}

inline void store_value(std::size_t i, mpz_class value, std::int64_t* out, std::vector<WideValue>& wide) {
  if (const std::optional<std::int64_t> v = to_int64(value)) {
    out[i] = *v;
    return;
  }
  out[i] = 0;
  wide.push_back(WideValue{i, std::move(value)});
}

}  // namespace exactdp::internal
