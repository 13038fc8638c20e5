// exactdp sample|audit ... --hardened, run in process: seeded hardened draws reproduce, match the
// C++ hardened sampler draw for draw (not the plain one), pass the audit against the exact law,
// and a parameter outside the hardened range exits 2 naming it (the plain sampler is never used).
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include <exactdp/samplers/hardened_discrete_gaussian.h>
#include <exactdp/samplers/hardened_discrete_laplace.h>
#include <exactdp/samplers/seeded_bits.h>
#include "tests/cli/cli_runner.h"

namespace exactdp::cli {
namespace {

using testing_support::run_cli;
const std::string kSeedHex(64, '3');

std::vector<long long> integers(const std::string& out) {
  std::vector<long long> v;
  std::istringstream in(out);
  long long x = 0;
  while (in >> x) v.push_back(x);
  return v;
}

TEST(CliHardened, SampleMatchesTheHardenedSamplerDrawForDraw) {
  const auto r = run_cli({"sample", "discrete-gaussian", "--sigma2", "100", "--mean", "7", "-n", "200", "--hardened",
                          "--seed", kSeedHex});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto params = HardenedDiscreteGaussianParams::make(100, 7);
  SeededBits bits(parse_seed_hex("seed", kSeedHex));
  std::vector<long long> expected;
  for (int i = 0; i < 200; ++i) expected.push_back(sample_discrete_gaussian(bits, params));
  EXPECT_EQ(integers(r.out), expected);
  const auto plain = run_cli({"sample", "discrete-gaussian", "--sigma2", "100", "--mean", "7", "-n", "200", "--seed", kSeedHex});
  EXPECT_NE(plain.out, r.out);  // a different algorithm on the same bits
}

TEST(CliHardened, LaplaceWithTauBitsMatchesTheSampler) {
  const auto r = run_cli({"sample", "discrete-laplace", "--scale", "3/2", "-n", "100", "--hardened", "--tau-bits", "128",
                          "--seed", kSeedHex});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto params = HardenedDiscreteLaplaceParams::make(mpq_class(3, 2), 0, {128});
  SeededBits bits(parse_seed_hex("seed", kSeedHex));
  std::vector<long long> expected;
  for (int i = 0; i < 100; ++i) expected.push_back(sample_discrete_laplace(bits, params));
  EXPECT_EQ(integers(r.out), expected);
}

TEST(CliHardened, AuditOfHardenedDrawsPasses) {
  for (const auto& law : std::vector<std::vector<std::string>>{{"discrete-gaussian", "--sigma2", "1e6"},
                                                               {"discrete-laplace", "--scale", "10"}}) {
    std::vector<std::string> args = {"audit"};
    args.insert(args.end(), law.begin(), law.end());
    args.insert(args.end(), {"--hardened", "--samples", "200000", "--seed", std::string(64, '4')});
    const auto r = run_cli(args);
    EXPECT_EQ(r.status, 0) << law[0] << "\n" << r.out << r.err;
  }
}

TEST(CliHardened, OutOfRangeExitsTwoNamingTheParameterWithNothingOnStdout) {
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"sample", "discrete-gaussian", "--sigma2", "1/1000", "-n", "1", "--hardened"},
           {"sample", "discrete-laplace", "--scale", "2e15", "-n", "1", "--hardened"},
           {"audit", "discrete-gaussian", "--sigma2", "1e31", "--samples", "10", "--hardened"}}) {
    const auto r = run_cli(args);
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_TRUE(r.out.empty());
    EXPECT_NE(r.err.find(args[2].substr(2)), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("hardened"), std::string::npos) << r.err;
  }
}

std::string field(const std::string& out, const std::string& name) {
  const auto at = out.find(name + " = ");
  if (at == std::string::npos) return "";
  const auto start = at + name.size() + 3;
  return out.substr(start, out.find('\n', start) - start);
}

// profile --hardened charges (1 + e^eps) tau: the reported delta is the plain one plus a charge
// between (1 + e^eps) 2^-80 (tau is at least the rounding of the tables, docs/HARDENED.md) and
// (1 + e^eps) 2^-64, and tau_upper is reported.
TEST(CliHardened, ProfileChargesTau) {
  for (const auto& law : std::vector<std::vector<std::string>>{{"discrete-gaussian", "--sigma2", "9/4"},
                                                               {"discrete-laplace", "--scale", "2"}}) {
    std::vector<std::string> plain_args = {"profile"};
    plain_args.insert(plain_args.end(), law.begin(), law.end());
    plain_args.insert(plain_args.end(), {"--epsilon", "1/2", "--digits", "30"});
    std::vector<std::string> hardened_args = plain_args;
    hardened_args.push_back("--hardened");
    const auto plain = run_cli(plain_args);
    const auto hardened = run_cli(hardened_args);
    ASSERT_EQ(plain.status, 0) << plain.err;
    ASSERT_EQ(hardened.status, 0) << hardened.err;
    const mpf_class one(1, 64);
    const mpf_class plain_upper(field(plain.out, "delta_upper"), 256);
    const mpf_class hardened_upper(field(hardened.out, "delta_upper"), 256);
    const mpf_class tau(field(hardened.out, "tau_upper"), 256);
    const mpf_class charge = hardened_upper - plain_upper;
    EXPECT_GT(tau, 0) << hardened.out;
    EXPECT_LE(tau, mpf_class(1, 256) / mpf_class(mpz_class(1) << 64, 256));
    EXPECT_GE(charge, (one + 1.648) * tau * mpf_class(0.999, 64)) << hardened.out;
    EXPECT_LE(charge, (one + 1.649) * tau * mpf_class(1.001, 64)) << hardened.out;
    EXPECT_NE(hardened.out.find("tau_bits = 64"), std::string::npos);
  }
}

TEST(CliHardened, ProfileRefusesWhatItCannotCharge) {
  EXPECT_EQ(run_cli({"profile", "gaussian", "--sigma", "1", "--epsilon", "1", "--hardened"}).status, 2);
  EXPECT_EQ(run_cli({"profile", "discrete-gaussian", "--sigma2", "1e31", "--epsilon", "1", "--hardened"}).status, 2);
  EXPECT_EQ(run_cli({"profile", "discrete-gaussian", "--sigma2", "1", "--epsilon", "1", "--tau-bits", "64"}).status, 2);
  EXPECT_EQ(run_cli({"measure-gdp", "discrete-gaussian", "--sigma2", "1", "--hardened"}).status, 2);
}

}  // namespace
}  // namespace exactdp::cli
