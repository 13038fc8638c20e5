// federated_c_u32_test.cc — exactdp_fl_client_encode_f32_u32 / _f64_u32 and
// exactdp_fl_server_decode_f32_u32 / _f64_u32 (exactdp.h, "Federated rounds"): under one seed the
// uint32_t residues equal the uint64_t entry points' (float and double, hardened and Skellam
// shares), the workspace is wiped; the server decodes the same residues to the same floats from
// uint32_t as from uint64_t; refusals (bits over 32, the buffers' lengths, a null workspace, a NaN,
// a residue not below the modulus) name the parameter and write nothing to out.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include <exactdp/exactdp.h>
#include "tests/mechanisms/federated/fl_c_params.h"
#include "tests/support/seeds.h"

namespace exactdp {
namespace {

using test_support::last_error;

exactdp_fl_params params_of(std::size_t d, unsigned bits) { return test_support::fl_c_params(d, bits, 0xfed); }

template <class Float>
void expect_same_residues(const exactdp_fl_params& p, const std::vector<Float>& x, std::uint32_t index) {
  std::size_t padded = 0;
  ASSERT_EQ(exactdp_fl_padded_dimension(&p, &padded), EXACTDP_OK) << last_error();
  const Seed seed = test_support::fixed_seed(0xfed, index);
  std::vector<std::uint64_t> wide(padded), work(padded, 5);
  std::vector<std::uint32_t> narrow(padded);
  unsigned wide_attempts = 0, narrow_attempts = 0;
  const auto [encode_wide, encode_narrow] = [] {
    if constexpr (sizeof(Float) == 4) {
      return std::pair(&exactdp_fl_client_encode_f32, &exactdp_fl_client_encode_f32_u32);
    } else {
      return std::pair(&exactdp_fl_client_encode_f64, &exactdp_fl_client_encode_f64_u32);
    }
  }();
  ASSERT_EQ(encode_wide(&p, x.data(), x.size(), seed.data(), wide.data(), padded, &wide_attempts), EXACTDP_OK);
  ASSERT_EQ(encode_narrow(&p, x.data(), x.size(), seed.data(), narrow.data(), padded, work.data(), padded,
                          &narrow_attempts),
            EXACTDP_OK)
      << last_error();
  EXPECT_EQ(narrow_attempts, wide_attempts);
  bool any_high = false;
  for (std::size_t j = 0; j < padded; ++j) {
    EXPECT_EQ(narrow[j], wide[j]) << j;
    EXPECT_EQ(work[j], 0U) << "work[" << j << "] not wiped";
    any_high = any_high || wide[j] >= (std::uint64_t{1} << 31);
  }
  if (p.bits == 32) {
    EXPECT_TRUE(any_high) << "negative noise maps near 2^32";
  }
}

TEST(FederatedCU32, ResiduesEqualTheUint64EntryPoints) {
  std::vector<double> x(10);
  std::vector<float> xf(10);
  for (std::size_t i = 0; i < 10; ++i) {
    x[i] = 0.125 * static_cast<double>(i) - 0.5;
    xf[i] = static_cast<float>(x[i]);
  }
  expect_same_residues(params_of(10, 32), x, 2);
  expect_same_residues(params_of(10, 32), xf, 3);
  expect_same_residues(params_of(10, 20), x, 4);
  exactdp_fl_params skellam = params_of(10, 32);
  skellam.noise = "skellam";
  skellam.flags = EXACTDP_FL_PLAIN;
  expect_same_residues(skellam, x, 5);
}

TEST(FederatedCU32, RefusalsNameTheParameterAndWriteNothing) {
  std::vector<double> x(10, 0.25);
  std::vector<std::uint32_t> out(16, 7);
  std::vector<std::uint64_t> work(16);
  auto encode = [&](const exactdp_fl_params& p, std::size_t out_len, std::uint64_t* w, std::size_t work_len) {
    return exactdp_fl_client_encode_f64_u32(&p, x.data(), x.size(), nullptr, out.data(), out_len, w, work_len, nullptr);
  };
  const auto untouched = [&] {
    for (const std::uint32_t v : out) {
      if (v != 7) return false;
    }
    return true;
  };
  EXPECT_EQ(encode(params_of(10, 33), 16, work.data(), 16), EXACTDP_E_PARAM);
  EXPECT_NE(last_error().find("bits = 33"), std::string::npos) << last_error();
  EXPECT_EQ(encode(params_of(10, 32), 15, work.data(), 16), EXACTDP_E_PARAM);
  EXPECT_NE(last_error().find("out has 15"), std::string::npos) << last_error();
  EXPECT_EQ(encode(params_of(10, 32), 16, work.data(), 17), EXACTDP_E_PARAM);
  EXPECT_NE(last_error().find("work has 17"), std::string::npos) << last_error();
  EXPECT_EQ(encode(params_of(10, 32), 16, nullptr, 16), EXACTDP_E_NULL);
  EXPECT_NE(last_error().find("work"), std::string::npos) << last_error();
  x[3] = std::numeric_limits<double>::infinity();
  EXPECT_EQ(encode(params_of(10, 32), 16, work.data(), 16), EXACTDP_E_PARAM);
  EXPECT_NE(last_error().find("in[3]"), std::string::npos) << last_error();
  EXPECT_TRUE(untouched());
  x[3] = 0.25;
  EXPECT_EQ(encode(params_of(10, 32), 16, work.data(), 16), EXACTDP_OK) << last_error();
  EXPECT_FALSE(untouched());
}

// Residues below 2^bits, about half of them at or above 2^(bits - 1) (negative when centred).
std::vector<std::uint32_t> residues(std::size_t padded, unsigned bits, std::uint32_t salt) {
  std::vector<std::uint32_t> r(padded);
  std::uint64_t state = 0x9e3779b97f4a7c15ULL * (salt + 1);
  for (std::uint32_t& v : r) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    v = static_cast<std::uint32_t>((state >> 32) & ((std::uint64_t{1} << bits) - 1));
  }
  return r;
}

template <class Float>
void expect_same_decoding(const exactdp_fl_params& p, std::uint32_t salt) {
  std::size_t padded = 0;
  ASSERT_EQ(exactdp_fl_padded_dimension(&p, &padded), EXACTDP_OK) << last_error();
  const std::vector<std::uint32_t> narrow = residues(padded, p.bits, salt);
  std::vector<std::uint64_t> wide(narrow.begin(), narrow.end()), work(padded, 5);
  std::vector<Float> from_wide(p.dimension, Float(7)), from_narrow(p.dimension, Float(9));
  const auto [decode_wide, decode_narrow] = [] {
    if constexpr (sizeof(Float) == 4) {
      return std::pair(&exactdp_fl_server_decode_f32, &exactdp_fl_server_decode_f32_u32);
    } else {
      return std::pair(&exactdp_fl_server_decode_f64, &exactdp_fl_server_decode_f64_u32);
    }
  }();
  ASSERT_EQ(decode_wide(&p, wide.data(), padded, from_wide.data(), p.dimension), EXACTDP_OK);
  ASSERT_EQ(decode_narrow(&p, narrow.data(), padded, from_narrow.data(), p.dimension, work.data(), padded), EXACTDP_OK)
      << last_error();
  bool any_negative = false;
  for (std::size_t i = 0; i < p.dimension; ++i) {
    EXPECT_EQ(from_narrow[i], from_wide[i]) << i;
    any_negative = any_negative || from_wide[i] < 0;
  }
  EXPECT_TRUE(any_negative) << "residues at or above 2^(bits - 1) decode as negative values";
}

TEST(FederatedCU32, ServerDecodesUint32ResiduesAsTheUint64EntryPoints) {
  expect_same_decoding<double>(params_of(10, 32), 1);
  expect_same_decoding<float>(params_of(10, 32), 2);
  expect_same_decoding<double>(params_of(10, 20), 3);
  exactdp_fl_params small = params_of(70, 8);
  small.max_wrap = "1";  // the sum's values are arbitrary residues here: no noise bound is asked
  expect_same_decoding<float>(small, 4);
}

TEST(FederatedCU32, ServerRefusalsNameTheParameterAndWriteNothing) {
  std::vector<std::uint32_t> sum(16, 1);
  std::vector<std::uint64_t> work(16);
  std::vector<double> out(10, 7.0);
  auto decode = [&](const exactdp_fl_params& p, std::size_t sum_len, std::size_t n, std::uint64_t* w,
                    std::size_t work_len) {
    return exactdp_fl_server_decode_f64_u32(&p, sum.data(), sum_len, out.data(), n, w, work_len);
  };
  EXPECT_EQ(decode(params_of(10, 33), 16, 10, work.data(), 16), EXACTDP_E_PARAM);
  EXPECT_NE(last_error().find("bits = 33"), std::string::npos) << last_error();
  EXPECT_EQ(decode(params_of(10, 32), 15, 10, work.data(), 16), EXACTDP_E_PARAM);
  EXPECT_NE(last_error().find("sum has 15"), std::string::npos) << last_error();
  EXPECT_EQ(decode(params_of(10, 32), 16, 9, work.data(), 16), EXACTDP_E_PARAM);
  EXPECT_NE(last_error().find("out has 9"), std::string::npos) << last_error();
  EXPECT_EQ(decode(params_of(10, 32), 16, 10, work.data(), 17), EXACTDP_E_PARAM);
  EXPECT_NE(last_error().find("work has 17"), std::string::npos) << last_error();
  EXPECT_EQ(decode(params_of(10, 32), 16, 10, nullptr, 16), EXACTDP_E_NULL);
  EXPECT_NE(last_error().find("work"), std::string::npos) << last_error();
  sum[3] = 1U << 20;
  EXPECT_EQ(decode(params_of(10, 20), 16, 10, work.data(), 16), EXACTDP_E_PARAM);
  EXPECT_NE(last_error().find("sum[3] = 1048576 is not below the modulus 2^20"), std::string::npos) << last_error();
  for (const double v : out) EXPECT_EQ(v, 7.0);
  for (const std::uint64_t w : work) EXPECT_EQ(w, 0U) << "work written before the checks";
  EXPECT_EQ(decode(params_of(10, 32), 16, 10, work.data(), 16), EXACTDP_OK) << last_error();
}

}  // namespace
}  // namespace exactdp
