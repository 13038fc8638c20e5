// sampler_paths_agree.h — the shared check of the two integer-law fuzzers
// (discrete_gaussian_fuzzer.cc, discrete_laplace_fuzzer.cc).
//
// check_sampler_paths_agree draws `draws` values, one after the other, through four paths, each
// on its own fresh FuzzBits over the SAME stream (the rest of the fuzz input, then ChaCha20):
// the library's default path (128-bit when eligible, with its hand-overs to GMP), the GMP path,
// the int64 variant and the independent reference (reference_cks20.h). It aborts (FUZZ_CHECK)
// unless, draw by draw, all four return the same value and consume the same number of bits, and
// the int64 variant returns std::nullopt exactly when the value does not fit in int64.
// `what` names the parameters in the failure message (e.g. "sigma2 = 1/2 mean = 0").
#pragma once

#include <gmpxx.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "fuzz/fuzz_support.h"

namespace exactdp::fuzz {

// The input both fuzzers read first: the number of draws (1..4), then a positive rational
// parameter (numerator, then denominator: at most kMaxLawParamBytes bytes each, so one input
// runs in milliseconds) and an integer mean, then the bit stream (in.rest()).
inline constexpr std::size_t kMaxLawParamBytes = 40;

struct LawInput {
  int draws;
  mpq_class parameter;  // canonical
  mpz_class mean;
};

inline LawInput read_law_input(ByteReader& in) {
  LawInput out;
  out.draws = 1 + in.u8() % 4;
  const mpz_class num = in.positive(kMaxLawParamBytes);  // numerator first, on every compiler
  const mpz_class den = in.positive(kMaxLawParamBytes);
  out.mean = in.integer(kMaxLawParamBytes);
  out.parameter = mpq_class(num, den);
  out.parameter.canonicalize();
  return out;
}

template <class DefaultPath, class GmpPath, class Int64Path, class ReferencePath>
void check_sampler_paths_agree(const std::string& what, bool fast_path, int draws,
                               ByteReader& in, const std::uint8_t* data, std::size_t size,
                               DefaultPath default_path, GmpPath gmp_path, Int64Path int64_path,
                               ReferencePath reference_path) {
  const auto ull = [](std::uint64_t v) { return static_cast<unsigned long long>(v); };
  FuzzBits b_lib(in.rest(), in.rest_size(), data, size);
  FuzzBits b_gmp(in.rest(), in.rest_size(), data, size);
  FuzzBits b_ref(in.rest(), in.rest_size(), data, size);
  FuzzBits b_i64(in.rest(), in.rest_size(), data, size);
  for (int i = 0; i < draws; ++i) {
    const mpz_class v_lib = default_path(b_lib);
    const mpz_class v_gmp = gmp_path(b_gmp);
    const mpz_class v_ref = reference_path(b_ref);
    const std::optional<std::int64_t> v_i64 = int64_path(b_i64);
    FUZZ_CHECK(v_lib == v_gmp && b_lib.bits_consumed() == b_gmp.bits_consumed(),
               "%s (fast %d), draw %d: default %s (%llu bits) vs gmp %s (%llu bits)",
               what.c_str(), fast_path, i, str(v_lib).c_str(), ull(b_lib.bits_consumed()),
               str(v_gmp).c_str(), ull(b_gmp.bits_consumed()));
    FUZZ_CHECK(v_gmp == v_ref && b_gmp.bits_consumed() == b_ref.bits_consumed(),
               "%s, draw %d: gmp %s (%llu bits) vs reference %s (%llu bits)", what.c_str(), i,
               str(v_gmp).c_str(), ull(b_gmp.bits_consumed()), str(v_ref).c_str(),
               ull(b_ref.bits_consumed()));
    const bool fits = mpz_fits_slong_p(v_gmp.get_mpz_t()) != 0;
    FUZZ_CHECK(v_i64.has_value() == fits &&
                   (!fits || mpz_class(static_cast<long>(*v_i64)) == v_gmp) &&
                   b_i64.bits_consumed() == b_gmp.bits_consumed(),
               "%s, draw %d: int64 variant %s (%llu bits) vs %s (%llu bits)", what.c_str(), i,
               v_i64 ? std::to_string(*v_i64).c_str() : "nullopt", ull(b_i64.bits_consumed()),
               str(v_gmp).c_str(), ull(b_gmp.bits_consumed()));
  }
}

// Both checks of an integer-law fuzzer: the library's own paths (default, GMP, int64; the GMP
// path stands as the reference, the table having none here: its law is checked against
// verification's exact pmf, tests/samplers/symmetric_table_test.cc), then CKS20 for every
// parameter (the algorithm outside the table's range): its 128-bit and GMP paths, an int64 view
// of the first, and the independent reference (reference_cks20.h). `what` as above.
template <class DefaultPath, class GmpPath, class Int64Path, class Cks20Path, class Cks20GmpPath, class ReferencePath>
void check_library_and_cks20_paths(const std::string& what, bool fast_path, int draws, ByteReader& in,
                                   const std::uint8_t* data, std::size_t size, DefaultPath default_path,
                                   GmpPath gmp_path, Int64Path int64_path, Cks20Path cks20_path,
                                   Cks20GmpPath cks20_gmp_path, ReferencePath reference_path) {
  check_sampler_paths_agree(what, fast_path, draws, in, data, size, default_path, gmp_path, int64_path, gmp_path);
  const auto cks20_int64 = [&](FuzzBits& b) -> std::optional<std::int64_t> {
    const mpz_class v = cks20_path(b);
    if (mpz_fits_slong_p(v.get_mpz_t()) == 0) return std::nullopt;
    return static_cast<std::int64_t>(mpz_get_si(v.get_mpz_t()));
  };
  check_sampler_paths_agree("CKS20 " + what, fast_path, draws, in, data, size, cks20_path, cks20_gmp_path,
                            cks20_int64, reference_path);
}

}  // namespace exactdp::fuzz
