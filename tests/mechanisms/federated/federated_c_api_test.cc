// federated_c_api_test.cc — the exactdp_fl_* entry points of the C interface (exactdp.h,
// "Federated rounds"): a seeded round through C (encode, modular sum, decode) equals the C++
// pipeline's; refusals name the parameter with nothing written; the round's event text is one
// that the accountant parses.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include <exactdp/exactdp.h>
#include <exactdp/laws/event_text.h>
#include "tests/mechanisms/federated/fl_c_params.h"
#include "tests/support/seeds.h"

namespace exactdp {
namespace {

using test_support::last_error;

exactdp_fl_params params_of(std::size_t d) { return test_support::fl_c_params(d, 24, 0xfec); }

TEST(FederatedCApi, RoundTripThroughTheCInterface) {
  exactdp_fl_params p = params_of(10);
  std::size_t padded = 0;
  ASSERT_EQ(exactdp_fl_padded_dimension(&p, &padded), EXACTDP_OK) << last_error();
  ASSERT_EQ(padded, 16U);
  std::vector<std::uint64_t> sum(padded, 0);
  std::vector<std::uint64_t> one(padded);
  std::vector<double> x(10);
  for (std::size_t i = 0; i < 10; ++i) x[i] = 0.125 * static_cast<double>(i) - 0.5;
  for (std::uint32_t c = 0; c < 4; ++c) {
    const Seed seed = test_support::fixed_seed(0xfec, 10 + c);
    unsigned attempts = 0;
    ASSERT_EQ(exactdp_fl_client_encode_f64(&p, x.data(), x.size(), seed.data(), one.data(), one.size(), &attempts),
              EXACTDP_OK)
        << last_error();
    EXPECT_GE(attempts, 1U);
    for (std::size_t j = 0; j < padded; ++j) {
      ASSERT_LT(one[j], std::uint64_t{1} << 24);
      sum[j] = (sum[j] + one[j]) & ((std::uint64_t{1} << 24) - 1);
    }
  }
  std::vector<float> out(10);
  ASSERT_EQ(exactdp_fl_server_decode_f32(&p, sum.data(), sum.size(), out.data(), out.size()), EXACTDP_OK)
      << last_error();
  // noise sd 0.063, rounding: 0.5 is 7.9 sd, a false alarm about 2e-14 over the 10 (normal tails)
  for (std::size_t i = 0; i < 10; ++i) EXPECT_NEAR(out[i], 4 * x[i], 0.5) << i;
  char wrap[256];
  ASSERT_EQ(exactdp_fl_report(&p, wrap, nullptr, sizeof wrap), EXACTDP_OK) << last_error();
  EXPECT_NE(std::string(wrap).find("e-"), std::string::npos) << wrap;  // far below 1
}

TEST(FederatedCApi, TheRoundEventParsesAsAnAccountantEvent) {
  exactdp_fl_params p = params_of(10);
  char wrap[256];
  char event[256];
  ASSERT_EQ(exactdp_fl_report(&p, wrap, event, 64), EXACTDP_E_BUFFER);  // the event is longer
  ASSERT_EQ(exactdp_fl_report(&p, wrap, event, 256), EXACTDP_OK) << last_error();
  EXPECT_EQ(std::string(event).rfind("distributed-discrete-gaussian:sigma2=", 0), 0U) << event;
  EXPECT_NO_THROW((void)laws::parse_event_text(event)) << event;
  p.noise = "skellam";
  p.noise_value = "1/1000";
  p.flags = EXACTDP_FL_PLAIN;
  ASSERT_EQ(exactdp_fl_report(&p, wrap, event, 256), EXACTDP_OK) << last_error();
  EXPECT_EQ(std::string(event).rfind("skellam:mu=", 0), 0U) << event;
  EXPECT_NO_THROW((void)laws::parse_event_text(event)) << event;
}

TEST(FederatedCApi, RefusalsNameTheParameterAndWriteNothing) {
  std::vector<std::uint64_t> out(16, 7);
  std::vector<double> x(10, 0.25);
  unsigned attempts = 99;
  auto encode = [&](const exactdp_fl_params& p) {
    return exactdp_fl_client_encode_f64(&p, x.data(), x.size(), nullptr, out.data(), out.size(), &attempts);
  };
  exactdp_fl_params p = params_of(10);
  x[4] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(encode(p), EXACTDP_E_PARAM);
  EXPECT_NE(last_error().find("in[4] is NaN"), std::string::npos) << last_error();
  x[4] = 0.25;
  p.bits = 7;
  EXPECT_EQ(encode(p), EXACTDP_E_PARAM);
  EXPECT_NE(last_error().find("bits"), std::string::npos) << last_error();
  p = params_of(10);
  p.clip = "0";
  EXPECT_EQ(encode(p), EXACTDP_E_PARAM);
  EXPECT_NE(last_error().find("c = 0"), std::string::npos) << last_error();
  p = params_of(10);
  p.clients = 0;
  EXPECT_EQ(encode(p), EXACTDP_E_PARAM);
  EXPECT_NE(last_error().find("clients"), std::string::npos) << last_error();
  p = params_of(10);
  p.dropout = "1";
  EXPECT_EQ(encode(p), EXACTDP_E_PARAM);
  EXPECT_NE(last_error().find("dropout"), std::string::npos) << last_error();
  p = params_of(10);
  p.bits = 10;  // 2^9 below the 4 clients' signal
  EXPECT_EQ(encode(p), EXACTDP_E_PARAM);
  EXPECT_NE(last_error().find("wrap-around"), std::string::npos) << last_error();
  p = params_of(10);
  p.noise = "skellam";
  EXPECT_EQ(encode(p), EXACTDP_E_PARAM);
  EXPECT_NE(last_error().find("hardened"), std::string::npos) << last_error();
  p = params_of(10);
  p.struct_size = 8;
  EXPECT_EQ(encode(p), EXACTDP_E_PARAM);
  p = params_of(10);
  p.clip = nullptr;
  EXPECT_EQ(encode(p), EXACTDP_E_NULL);
  p = params_of((1U << 20) + 1);  // over 2^20 where the lattice's mu is above 10^7
  p.noise = "skellam";
  p.granularity = "17";  // the lattice's mu: 4^17 / 1000 > 1.7 * 10^7
  p.bits = 40;
  p.flags = EXACTDP_FL_PLAIN;
  std::size_t padded = 0;
  EXPECT_EQ(exactdp_fl_padded_dimension(&p, &padded), EXACTDP_E_LIMIT);
  EXPECT_EQ(padded, 0U);
  p = params_of(10);
  const unsigned char zero[32] = {};
  EXPECT_EQ(exactdp_fl_client_encode_f64(&p, x.data(), x.size(), zero, out.data(), out.size(), &attempts),
            EXACTDP_E_PARAM);
  EXPECT_EQ(exactdp_fl_client_encode_f64(&p, x.data(), x.size(), nullptr, out.data(), 15, &attempts), EXACTDP_E_PARAM);
  for (std::uint64_t w : out) EXPECT_EQ(w, 7U);
  EXPECT_EQ(attempts, 99U);
  std::vector<std::uint64_t> sum(16, 1U << 24);
  std::vector<double> decoded(10, 3.0);
  EXPECT_EQ(exactdp_fl_server_decode_f64(&p, sum.data(), sum.size(), decoded.data(), decoded.size()), EXACTDP_E_PARAM);
  EXPECT_NE(last_error().find("sum[0]"), std::string::npos) << last_error();
  for (double v : decoded) EXPECT_EQ(v, 3.0);
}

// Eight threads encode at once (each with its own seeded stream) and decode at once: every result
// equals the same call made alone.
TEST(FederatedCApi, ConcurrentCallsGiveTheSequentialResults) {
  const exactdp_fl_params p = params_of(100);
  std::vector<double> x(100);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = 0.01 * static_cast<double>(i % 7) - 0.03;
  constexpr unsigned kThreads = 8;
  auto encode = [&](unsigned t, std::vector<std::uint64_t>& out) {
    const Seed seed = test_support::fixed_seed(0xfec, 100 + t);
    return exactdp_fl_client_encode_f64(&p, x.data(), x.size(), seed.data(), out.data(), out.size(), nullptr);
  };
  std::vector<std::vector<std::uint64_t>> alone(kThreads, std::vector<std::uint64_t>(256));
  for (unsigned t = 0; t < kThreads; ++t) ASSERT_EQ(encode(t, alone[t]), EXACTDP_OK) << last_error();
  std::vector<std::vector<std::uint64_t>> together(kThreads, std::vector<std::uint64_t>(256));
  std::vector<std::vector<double>> decoded(kThreads, std::vector<double>(100));
  std::vector<int> codes(2 * kThreads, -1);
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      codes[t] = encode(t, together[t]);
      std::vector<std::uint64_t> work = alone[t];
      codes[kThreads + t] = exactdp_fl_server_decode_f64(&p, work.data(), work.size(), decoded[t].data(), 100);
    });
  }
  for (std::thread& th : threads) th.join();
  for (unsigned t = 0; t < kThreads; ++t) {
    EXPECT_EQ(codes[t], EXACTDP_OK);
    EXPECT_EQ(codes[kThreads + t], EXACTDP_OK);
    EXPECT_EQ(together[t], alone[t]) << "thread " << t;
    std::vector<std::uint64_t> work = alone[t];
    std::vector<double> expected(100);
    ASSERT_EQ(exactdp_fl_server_decode_f64(&p, work.data(), work.size(), expected.data(), 100), EXACTDP_OK);
    EXPECT_EQ(decoded[t], expected) << "thread " << t;
  }
}

}  // namespace
}  // namespace exactdp
