// The registry questions of operations/law_queries.h, which stand where the operations and the
// command line kept lists of law names: every law of the registry is asked, so a law added later
// is classified by what it supports, not by its name.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include <exactdp/laws/registry.h>
#include <exactdp/operations/law_queries.h>

namespace exactdp::operations {
namespace {

std::set<std::string> laws_where(bool (*query)(const laws::Law&)) {
  std::set<std::string> out;
  for (const laws::Law* law : laws::all_laws()) {
    if (query(*law)) out.insert(law->name());
  }
  return out;
}

TEST(OperationsLawQueries, ClosedFormCalibrationsAreTheLaplaceLaws) {
  EXPECT_EQ(laws_where(calibration_is_closed_form), (std::set<std::string>{"laplace", "discrete-laplace"}));
}

TEST(OperationsLawQueries, PureDpEventsWithoutAProfileArePureDp) {
  EXPECT_EQ(laws_where(events_are_pure_dp), (std::set<std::string>{"pure-dp"}));
}

TEST(OperationsLawQueries, DefinitionLawsOfConvert) {
  ASSERT_NE(definition_law("rho"), nullptr);
  EXPECT_EQ(definition_law("rho")->name(), "zcdp");
  EXPECT_EQ(definition_law("mu")->name(), "gdp");
  EXPECT_EQ(definition_law("epsilon")->name(), "pure-dp");
  EXPECT_EQ(definition_law("sigma2"), nullptr);  // the discrete Gaussian has a sampler
}

}  // namespace
}  // namespace exactdp::operations
