// The Skellam law through every command that reads the registry, in process: it samples (any mu
// up to 10^15), audits, profiles (exactly up to mu = 10^6, by the RDP conversion beyond) and
// composes (the exact profile for one event, RDP and zCDP for several; Poisson-subsampled rounds by
// the rdp route), calibrates a training run, and refuses a bad mu and --hardened with exit 2.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/cli/cli_runner.h"

namespace exactdp::cli {
namespace {
namespace cli_skellam_test {  // this file's own names in a unity build (tests/CMakeLists.txt)

using Result = testing_support::CliRun;
Result run(const std::vector<std::string>& args) { return testing_support::run_cli(args); }
const std::string kSeed(64, '1');

TEST(CliSkellam, WorksInEveryCommandItSupports) {
  const Result l = run({"laws"});
  EXPECT_NE(l.out.find("skellam"), std::string::npos);
  for (const char* mu : {"1/3", "25", "1e12"}) {
    const Result s = run({"sample", "skellam", "--mu", mu, "-n", "20", "--seed", kSeed});
    EXPECT_EQ(s.status, 0) << mu << " " << s.err;
  }
  const Result a = run({"audit", "skellam", "--mu", "2", "--samples", "20000", "--seed", kSeed});
  EXPECT_EQ(a.status, 0) << a.out << a.err;
  const Result p = run({"profile", "skellam", "--mu", "50", "--epsilon", "1"});
  EXPECT_EQ(p.status, 0) << p.err;
  EXPECT_NE(p.out.find("delta_upper = 1.80261264089767922"), std::string::npos) << p.out;  // mpmath's value
  const Result one = run({"compose", "--event", "skellam:mu=5000,sensitivity=10", "--delta", "1e-5"});
  EXPECT_EQ(one.status, 0) << one.err;
  EXPECT_NE(one.out.find("route = profile"), std::string::npos) << one.out;
  // beyond mu = 10^6: the RDP conversion's bound (CKS20 Prop. 12: 0.01828... at mu = 2 10^6,
  // sensitivity 1000; Mironov's conversion gave 0.2231)
  const Result big = run({"profile", "skellam", "--mu", "2000000", "--sensitivity", "1000", "--epsilon", "1"});
  EXPECT_EQ(big.status, 0) << big.err;
  EXPECT_NE(big.out.find("delta_upper = 0.01827883300805"), std::string::npos) << big.out;
  const Result many = run({"compose", "--event", "skellam:mu=5000,sensitivity=10", "--count", "100", "--delta", "1e-5"});
  EXPECT_EQ(many.status, 0) << many.err;
  EXPECT_NE(many.out.find("route = rdp"), std::string::npos) << many.out;
}

TEST(CliSkellam, BadInputIsExitTwoNamingIt) {
  for (const char* mu : {"0", "-2", "1e16"}) {
    const Result r = run({"sample", "skellam", "--mu", mu, "-n", "3", "--seed", kSeed});
    EXPECT_EQ(r.status, 2) << mu;
    EXPECT_NE(r.err.find("mu = "), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
  const Result h = run({"sample", "skellam", "--mu", "2", "--hardened", "-n", "3", "--seed", kSeed});
  EXPECT_EQ(h.status, 2) << h.err;
  const Result sub = run({"compose", "--event", "poisson-skellam:mu=50,q=0.01", "--delta", "1e-5"});
  EXPECT_EQ(sub.status, 0) << sub.err;
  EXPECT_NE(sub.out.find("route = rdp"), std::string::npos) << sub.out;
  const Result cal = run({"calibrate", "skellam", "--epsilon", "1", "--delta", "1e-5", "--rounds", "10"});
  EXPECT_EQ(cal.status, 0) << cal.err;
  EXPECT_NE(cal.out.find("mu = "), std::string::npos) << cal.out;
  const Result bad = run({"calibrate", "skellam", "--epsilon", "1", "--delta", "1e-5", "--rounds", "0"});
  EXPECT_EQ(bad.status, 2) << bad.err;
}

}  // namespace cli_skellam_test
}  // namespace
}  // namespace exactdp::cli
