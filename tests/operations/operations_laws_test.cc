// The operation laws (operations/laws.h): one entry per registry law, in its order, with the
// fields `exactdp laws` and exactdp.laws() print.
#include <gtest/gtest.h>

#include <exactdp/laws/registry.h>
#include <exactdp/operations/laws.h>

namespace exactdp::operations {
namespace {

TEST(OperationsLaws, OneEntryPerRegistryLawInOrder) {
  const LawsReport report = list_laws();
  const auto& all = laws::all_laws();
  ASSERT_EQ(report.laws.size(), all.size());
  for (std::size_t i = 0; i < all.size(); ++i) {
    EXPECT_EQ(report.laws[i].name, all[i]->name());
    EXPECT_EQ(report.laws[i].parameters.size(), all[i]->parameters().size());
  }
}

TEST(OperationsLaws, ParametersSayRequiredDefaultOrComputed) {
  const LawsReport report = list_laws();
  const LawEntry* staircase = nullptr;
  for (const auto& law : report.laws) staircase = law.name == "staircase" ? &law : staircase;
  ASSERT_NE(staircase, nullptr);
  EXPECT_EQ(staircase->supports.substr(0, 6), "sample");
  const auto& p = staircase->parameters;
  ASSERT_EQ(p.size(), 4u);
  EXPECT_TRUE(p[0].required);  // gamma
  EXPECT_EQ(p[0].type, "rational");
  EXPECT_EQ(p[0].role, "noise");
  EXPECT_TRUE(p[2].computed());  // r: computed by the law
  EXPECT_FALSE(p[3].required);   // mean: default 0
  EXPECT_EQ(p[3].default_value, "0");
  EXPECT_EQ(p[3].role, "sampling");
  EXPECT_EQ(p[3].type, "integer");
}

}  // namespace
}  // namespace exactdp::operations
