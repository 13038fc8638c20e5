// exactdp laws and the staircase through every command that reads the registry, in process: the
// listing names every law, the staircase samples, audits, profiles and composes, and a law an
// interface cannot serve is refused with exit 2 (never treated as another law).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/cli/cli_runner.h"

namespace exactdp::cli {
namespace {
namespace cli_laws_test {  // this file's own names in a unity build (tests/CMakeLists.txt)

using Result = testing_support::CliRun;
Result run(const std::vector<std::string>& args) { return testing_support::run_cli(args); }
const std::string kSeed(64, '1');

TEST(CliLaws, ListsEveryRegistryLawWithItsParameters) {
  const Result r = run({"laws"});
  ASSERT_EQ(r.status, 0) << r.err;
  for (const char* name : {"discrete-gaussian", "discrete-laplace", "bernoulli-exp", "staircase", "gaussian",
                           "laplace", "gdp", "pure-dp", "zcdp", "--sigma2", "--gamma", "--r"}) {
    EXPECT_NE(r.out.find(name), std::string::npos) << name;
  }
  const Result j = run({"laws", "--json"});
  ASSERT_EQ(j.status, 0) << j.err;
  EXPECT_NE(j.out.find("\"staircase\""), std::string::npos) << j.out.substr(0, 80);
}

TEST(CliLaws, StaircaseWorksInEveryCommand) {
  const Result s = run({"sample", "staircase", "--gamma", "1", "--sensitivity", "3", "-n", "20", "--seed", kSeed});
  EXPECT_EQ(s.status, 0) << s.err;
  const Result a = run({"audit", "staircase", "--gamma", "1/2", "--sensitivity", "4", "--samples", "20000", "--seed",
                        kSeed});
  EXPECT_EQ(a.status, 0) << a.out << a.err;
  const Result p = run({"profile", "staircase", "--gamma", "1", "--sensitivity", "3", "--epsilon", "1"});
  EXPECT_EQ(p.status, 0) << p.err;
  EXPECT_NE(p.out.find("delta = [0, 0]"), std::string::npos) << p.out;  // delta = 0 at eps = gamma
  const Result c = run({"compose", "--event", "poisson-staircase:gamma=1,sensitivity=3,q=0.01", "--count", "100",
                        "--delta", "1e-5"});
  EXPECT_EQ(c.status, 0) << c.err;
  EXPECT_NE(c.out.find("route = pld"), std::string::npos) << c.out;
}

TEST(CliLaws, ALawAnInterfaceCannotServeIsRefusedNamingIt) {
  const Result h = run({"sample", "staircase", "--gamma", "1", "--sensitivity", "3", "-n", "1", "--hardened"});
  EXPECT_EQ(h.status, 2);
  EXPECT_NE(h.err.find("--hardened applies to discrete-gaussian and discrete-laplace, not staircase"),
            std::string::npos) << h.err;
  const Result t = run({"audit-timing", "bernoulli-exp", "--gamma", "1"});
  EXPECT_EQ(t.status, 2);
  EXPECT_NE(t.err.find("not bernoulli-exp"), std::string::npos) << t.err;
  const Result g = run({"sample", "gaussian", "-n", "1"});
  EXPECT_EQ(g.status, 2);
  EXPECT_NE(g.err.find("has no sampler"), std::string::npos) << g.err;
  const Result e = run({"compose", "--event", "poisson-gdp:mu=1,q=0.1", "--delta", "1e-5"});
  EXPECT_EQ(e.status, 2);
  EXPECT_TRUE(h.out.empty() && t.out.empty() && g.out.empty() && e.out.empty());
}

}  // namespace cli_laws_test
}  // namespace
}  // namespace exactdp::cli
