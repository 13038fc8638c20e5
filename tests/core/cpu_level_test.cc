// EXACTDP_CPU_LEVEL's values (core/cpu_level.h). The environment is read once per process, so the
// refusal of a bad value and the equal outputs at every level are tested across processes
// (python/tests/test_cpu_level.py); here the parsing and the order of the levels.
#include <gtest/gtest.h>

#include <exactdp/core/cpu_level.h>

namespace exactdp {
namespace {

TEST(CpuLevel, ParsesTheNamedLevels) {
  EXPECT_EQ(parse_cpu_level(""), CpuLevel::kAvx512Ifma);
  EXPECT_EQ(parse_cpu_level("native"), CpuLevel::kAvx512Ifma);
  EXPECT_EQ(parse_cpu_level("avx512ifma"), CpuLevel::kAvx512Ifma);
  EXPECT_EQ(parse_cpu_level("avx512"), CpuLevel::kAvx512);
  EXPECT_EQ(parse_cpu_level("avx2"), CpuLevel::kAvx2);
  EXPECT_EQ(parse_cpu_level("baseline"), CpuLevel::kBaseline);
}

TEST(CpuLevel, RefusesEverythingElse) {
  for (const char* bad : {"AVX2", "avx", "sse2", "avx2 ", " native", "0", "avx512f"}) {
    EXPECT_FALSE(parse_cpu_level(bad).has_value()) << bad;
  }
}

TEST(CpuLevel, TheBaselineIsAlwaysAllowed) {
  // Whatever this process's EXACTDP_CPU_LEVEL, the baseline paths may run, and a cap allows the
  // levels below it.
  EXPECT_TRUE(cpu_level_allows(CpuLevel::kBaseline));
  EXPECT_TRUE(!cpu_level_allows(CpuLevel::kAvx512) || cpu_level_allows(CpuLevel::kAvx2));
  EXPECT_TRUE(!cpu_level_allows(CpuLevel::kAvx512Ifma) || cpu_level_allows(CpuLevel::kAvx512));
  EXPECT_FALSE(cpu_level_setting_problem().has_value());  // ctest sets no bad value
}

}  // namespace
}  // namespace exactdp
