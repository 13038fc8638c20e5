// cli_audit_test.cc — `exactdp audit` end to end, in process (run_exactdp with string streams):
// our sampler passes (exit 0), samples from the wrong law fail (exit 3), malformed input (a
// non-integer line, an empty line, an empty file) exits 2 naming the line, --json prints one
// object, big integers are read, bad options exit 2 with the parameter named.
// The passing cases use fixed seeds and alpha = 1e-6 (false alarm <= ~1e-6 each).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "cli/commands.h"
#include "tests/cli/cli_runner.h"
#include <exactdp/samplers/discrete_gaussian.h>
#include "tests/support/broken_samplers.h"
#include "tests/support/seeds.h"

namespace exactdp::cli {
namespace {
namespace cli_audit_test {  // this file's own names in a unity build (tests/CMakeLists.txt)

const std::string kSeed = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

using test_support::CliRun;
CliRun run(const std::vector<std::string>& args, const std::string& input = "") {
  return test_support::run_cli(args, input);
}

std::string sample(std::vector<std::string> args) {
  args.insert(args.begin(), "sample");
  const CliRun r = run(args);
  EXPECT_EQ(r.status, 0) << r.err;
  return r.out;
}

TEST(CliAudit, OwnSamplerPasses) {
  const CliRun r = run({"audit", "discrete-gaussian", "--sigma2", "9/4", "--samples", "20000", "--seed", kSeed});
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("verdict: PASS"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("chi-square"), std::string::npos);
  EXPECT_NE(r.out.find("ks-dkw"), std::string::npos);
}

TEST(CliAudit, ExternalSamplesFromStdinPassAndWrongLawFails) {
  const std::string samples = sample({"discrete-laplace", "--scale", "3/2", "-n", "20000", "--seed", kSeed});
  const CliRun ok = run({"audit", "--expect", "discrete-laplace", "--scale", "3/2"}, samples);
  EXPECT_EQ(ok.status, 0) << ok.out << ok.err;
  const CliRun bad = run({"audit", "--expect", "discrete-laplace", "--scale", "2"}, samples);
  EXPECT_EQ(bad.status, 3) << bad.out;
  EXPECT_NE(bad.out.find("verdict: FAIL"), std::string::npos);
  EXPECT_NE(bad.out.find("REJECT"), std::string::npos);
  const CliRun gauss = run({"audit", "--expect", "discrete-gaussian", "--sigma2", "9/2"}, samples);
  EXPECT_EQ(gauss.status, 3) << gauss.out;  // same variance, wrong shape
}

TEST(CliAudit, ReadsFileAndBigIntegers) {
  const std::string mean = "100000000000000000000000000000000000000000";
  const std::string samples =
      sample({"discrete-gaussian", "--sigma2", "1", "--mean", mean, "-n", "5000", "--seed", kSeed});
  const std::string path = ::testing::TempDir() + "exactdp_audit_samples.txt";
  {
    std::ofstream f(path);
    f << samples;
  }
  const CliRun r = run({"audit", "--expect", "discrete-gaussian", "--sigma2", "1", "--mean", mean, path, "--json"});
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_EQ(r.out.front(), '{');
  EXPECT_NE(r.out.find("\"verdict\": \"pass\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"p_value\": {\"lower\""), std::string::npos);
  const CliRun wrong_mean = run({"audit", "--expect", "discrete-gaussian", "--sigma2", "1", path});
  EXPECT_EQ(wrong_mean.status, 3);
  std::remove(path.c_str());
}

TEST(CliAudit, MalformedInputExits2WithLineNumber) {
  const CliRun word = run({"audit", "--expect", "discrete-gaussian", "--sigma2", "1"}, "0\n1\nabc\n2\n");
  EXPECT_EQ(word.status, 2);
  EXPECT_NE(word.err.find("line 3"), std::string::npos) << word.err;
  EXPECT_TRUE(word.out.empty());
  const CliRun decimal = run({"audit", "--expect", "discrete-gaussian", "--sigma2", "1"}, "0\n1.5\n");
  EXPECT_EQ(decimal.status, 2);
  EXPECT_NE(decimal.err.find("line 2"), std::string::npos) << decimal.err;
  const CliRun blank = run({"audit", "--expect", "discrete-gaussian", "--sigma2", "1"}, "0\n\n1\n");
  EXPECT_EQ(blank.status, 2);
  EXPECT_NE(blank.err.find("line 2: empty line"), std::string::npos) << blank.err;
  const CliRun empty = run({"audit", "--expect", "discrete-gaussian", "--sigma2", "1"}, "");
  EXPECT_EQ(empty.status, 2);
  EXPECT_NE(empty.err.find("no samples"), std::string::npos) << empty.err;
  const CliRun sign = run({"audit", "--expect", "discrete-gaussian", "--sigma2", "1"}, "0\n-\n");
  EXPECT_EQ(sign.status, 2);
  const CliRun longline = run({"audit", "--expect", "discrete-gaussian", "--sigma2", "1"}, std::string(200'000, '7') + "\n");
  EXPECT_EQ(longline.status, 2);
  EXPECT_NE(longline.err.find("longer than"), std::string::npos) << longline.err;
  // The boundary: 100,000 characters are accepted (with or without a final newline), 100,001 are
  // not (the reader once accepted 100,001).
  for (const std::string end : {"\n", ""}) {
    const CliRun at_limit =
        run({"audit", "--expect", "discrete-gaussian", "--sigma2", "1"}, "0\n" + std::string(100'000, '7') + end);
    EXPECT_NE(at_limit.status, 2) << at_limit.err.substr(0, 300);
    const CliRun over =
        run({"audit", "--expect", "discrete-gaussian", "--sigma2", "1"}, "0\n" + std::string(100'001, '7') + end);
    EXPECT_EQ(over.status, 2);
    EXPECT_NE(over.err.find("line 2: longer than 100000 characters"), std::string::npos) << over.err.substr(0, 300);
  }
  const CliRun missing = run({"audit", "--expect", "discrete-gaussian", "--sigma2", "1", "/nonexistent/file"});
  EXPECT_EQ(missing.status, 2);
  // blanks around a number and a final line without newline are fine
  const CliRun blanks = run({"audit", "--expect", "bernoulli-exp", "--gamma", "0"}, " 1 \r\n1\t\n1");
  EXPECT_EQ(blanks.status, 0) << blanks.err << blanks.out;
}

// Samples of deliberately broken samplers, as another library would write them: exit 3.
TEST(CliAudit, BrokenSamplersExit3) {
  using test_support::BrokenCks20;
  auto lines = [](auto draw, unsigned long long n, std::uint32_t seed) {
    SeededBits bits(test_support::fixed_seed(71, seed));
    std::string out;
    for (unsigned long long i = 0; i < n; ++i) out += std::to_string(draw(bits)) + "\n";
    return out;
  };
  const std::string rounded = lines([](BitSource& b) { return test_support::rounded_gaussian(b, 1.0); }, 50'000, 1);
  EXPECT_EQ(run({"audit", "--expect", "discrete-gaussian", "--sigma2", "1"}, rounded).status, 3);
  const BrokenCks20 parity(BrokenCks20::Bug::kParityFlipK3);
  const std::string flipped = lines([&](BitSource& b) { return parity.discrete_gaussian(b, 100, 1); }, 5'000, 2);
  EXPECT_EQ(run({"audit", "--expect", "discrete-gaussian", "--sigma2", "100"}, flipped).status, 3);
  // Not in the catalogue: a sampler truncated at 3 standard deviations (resampling outside).
  const auto params = DiscreteGaussianParams::make(mpq_class(100));
  const std::string truncated = lines(
      [&](BitSource& b) {
        for (;;) {
          const std::int64_t x = *sample_discrete_gaussian_int64(b, params);
          if (x >= -30 && x <= 30) return x;
        }
      },
      20'000, 3);
  EXPECT_EQ(run({"audit", "--expect", "discrete-gaussian", "--sigma2", "100"}, truncated).status, 3);
}

TEST(CliAudit, BernoulliImpossibleValueFails) {
  const CliRun r = run({"audit", "--expect", "bernoulli-exp", "--gamma", "1/2"}, "0\n1\n2\n1\n0\n");
  EXPECT_EQ(r.status, 3) << r.out;
  EXPECT_NE(r.out.find("support"), std::string::npos);
}

TEST(CliAudit, BadUsageExits2) {
  EXPECT_EQ(run({"audit"}).status, 2);
  EXPECT_EQ(run({"audit", "discrete-gaussian", "--sigma2", "1"}).status, 2);  // no --samples
  const CliRun n0 = run({"audit", "discrete-gaussian", "--sigma2", "1", "--samples", "0"});
  EXPECT_EQ(n0.status, 2);
  EXPECT_NE(n0.err.find("samples"), std::string::npos) << n0.err;
  const CliRun alpha = run({"audit", "discrete-gaussian", "--sigma2", "1", "--samples", "10", "--alpha", "1"});
  EXPECT_EQ(alpha.status, 2);
  EXPECT_NE(alpha.err.find("alpha"), std::string::npos) << alpha.err;
  EXPECT_EQ(run({"audit", "--expect", "discrete-gaussian", "--sigma2", "1", "--samples", "5"}, "0\n").status, 2);
  EXPECT_EQ(run({"audit", "--expect", "poisson"}, "0\n").status, 2);
  const CliRun sigma = run({"audit", "--expect", "discrete-gaussian", "--sigma2", "-1"}, "0\n");
  EXPECT_EQ(sigma.status, 2);
  EXPECT_NE(sigma.err.find("sigma2"), std::string::npos) << sigma.err;
  EXPECT_EQ(run({"audit", "--help"}).status, 0);
}

TEST(CliAudit, ProgressOnlyOnATerminalAndOnlyOnStderr) {
  const std::vector<std::string> args = {"audit", "bernoulli-exp", "--gamma", "1", "--samples", "1000000", "--seed", kSeed};
  std::istringstream in;
  std::ostringstream out, err, out2, err2;
  Io terminal{in, out, err, true};
  EXPECT_EQ(run_exactdp(args, terminal), 0) << err.str();
  EXPECT_NE(err.str().find("100%"), std::string::npos);
  Io pipe{in, out2, err2, false};
  EXPECT_EQ(run_exactdp(args, pipe), 0);
  // Off a terminal stderr holds only the seeded-source warning (no progress bar).
  EXPECT_EQ(err2.str(),
            "exactdp: warning: --seed gives a reproducible stream: anyone who knows the seed knows the noise "
            "(tests and audits only)\n");
  EXPECT_EQ(out.str(), out2.str());  // the report does not depend on the progress bar
}

TEST(CliAudit, AlphaChangesThresholds) {
  const CliRun r = run({"audit", "bernoulli-exp", "--gamma", "1", "--samples", "2000", "--seed", kSeed, "--alpha", "1/100",
                     "--json"});
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("\"alpha\": \"1/100\""), std::string::npos) << r.out;
}

}  // namespace cli_audit_test
}  // namespace
}  // namespace exactdp::cli
