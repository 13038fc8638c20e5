// federated_c_u32_test.cc — exactdp_fl_client_encode_f32_u32 / _f64_u32 (exactdp.h, "Federated
// rounds"): under one seed the uint32_t residues equal the uint64_t entry points' (float and
// double, hardened and Skellam shares), the workspace is wiped, and refusals (bits over 32, the
// buffers' lengths, a null workspace, a NaN) name the parameter and write nothing to out.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include <exactdp/exactdp.h>
#include "tests/support/seeds.h"

namespace exactdp {
namespace {

exactdp_fl_params params_of(std::size_t d, unsigned bits) {
  exactdp_fl_params p;
  exactdp_fl_params_init(&p);
  p.dimension = d;
  p.clip = "2";
  p.bits = bits;
  p.clients = 4;
  p.noise_value = "1/1000";
  const Seed s = test_support::fixed_seed(0xfed, 1);
  std::memcpy(p.rotation_seed, s.data(), s.size());
  return p;
}

std::string last_error() { return exactdp_last_error(); }

template <class Float>
void expect_same_residues(const exactdp_fl_params& p, const std::vector<Float>& x, std::uint32_t index) {
  std::size_t padded = 0;
  ASSERT_EQ(exactdp_fl_padded_dimension(&p, &padded), EXACTDP_OK) << last_error();
  const Seed seed = test_support::fixed_seed(0xfed, index);
  std::vector<std::uint64_t> wide(padded), work(padded, 5);
  std::vector<std::uint32_t> narrow(padded);
  unsigned wide_attempts = 0, narrow_attempts = 0;
  if constexpr (sizeof(Float) == 4) {
    ASSERT_EQ(exactdp_fl_client_encode_f32(&p, x.data(), x.size(), seed.data(), wide.data(), padded, &wide_attempts),
              EXACTDP_OK);
    ASSERT_EQ(exactdp_fl_client_encode_f32_u32(&p, x.data(), x.size(), seed.data(), narrow.data(), padded, work.data(),
                                               padded, &narrow_attempts),
              EXACTDP_OK)
        << last_error();
  } else {
    ASSERT_EQ(exactdp_fl_client_encode_f64(&p, x.data(), x.size(), seed.data(), wide.data(), padded, &wide_attempts),
              EXACTDP_OK);
    ASSERT_EQ(exactdp_fl_client_encode_f64_u32(&p, x.data(), x.size(), seed.data(), narrow.data(), padded, work.data(),
                                               padded, &narrow_attempts),
              EXACTDP_OK)
        << last_error();
  }
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

}  // namespace
}  // namespace exactdp
