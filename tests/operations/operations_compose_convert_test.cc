// The operations compose pure-dp and convert (operations/compose.h, convert.h) called directly:
// the checks name the parameter in the spelling of the face that built the request, and the
// limits (k epsilon^2 / 2 <= 10^9 for the zcdp method, the tolerance's cost limits) hold for
// every face. tests/operations/test_faces.py runs the same requests through the command line
// and Python.
#include <gtest/gtest.h>
#include <mpfr.h>

#include <string>

#include <exactdp/core/errors.h>
#include <exactdp/operations/compose.h>
#include <exactdp/operations/convert.h>

#include "tests/operations/thrown.h"

namespace exactdp::operations {
namespace {

ComposePureDpRequest over_the_zcdp_limit(const Spelling& spelling) {
  ComposePureDpRequest r;
  r.epsilon = 1000;
  r.k = 10000;  // rho = k epsilon^2 / 2 = 5 10^9 > 10^9
  r.delta = mpq_class(1, 1000000);
  r.method = "zcdp";
  r.spelling = spelling;
  return r;
}

TEST(OperationsCompose, ZcdpLimitNamesEpsilonInEitherSpelling) {
  const auto cli = thrown<ParameterError>([] { (void)compose_pure_dp(over_the_zcdp_limit(kCommandLineSpelling)); });
  const auto py = thrown<ParameterError>([] { (void)compose_pure_dp(over_the_zcdp_limit(kPythonSpelling)); });
  EXPECT_EQ(cli.parameter(), "epsilon");
  EXPECT_EQ(py.parameter(), "epsilon");
  EXPECT_NE(std::string(cli.what()).find("k * epsilon^2 / 2 <= 10^9 for --method zcdp"), std::string::npos) << cli.what();
  EXPECT_NE(std::string(py.what()).find("k * epsilon^2 / 2 <= 10^9 for method zcdp"), std::string::npos) << py.what();
}

TEST(OperationsCompose, ZcdpLimitAppliesOnlyToTheZcdpMethod) {
  ComposePureDpRequest r = over_the_zcdp_limit(kPythonSpelling);
  r.method = "basic";
  const ComposePureDpReport report = compose_pure_dp(r);
  ASSERT_EQ(report.results.size(), 1u);
  EXPECT_EQ(report.results[0].method, "basic");
  EXPECT_EQ(mpfr_cmp_ui(report.results[0].epsilon.upper(), 10'000'000), 0);  // k epsilon, exact
  r.method = "all";  // includes zcdp: refused before any method runs
  EXPECT_EQ(thrown<ParameterError>([&] { (void)compose_pure_dp(r); }).parameter(), "epsilon");
}

TEST(OperationsCompose, ToleranceCostLimitIsALimitErrorForGdpAndAll) {
  ComposePureDpRequest r{.epsilon = 1, .k = 2, .delta = mpq_class(1, 100000), .method = "gdp",
                         .tolerance = mpq_class(1, mpz_class(1) << 601), .spelling = kPythonSpelling};
  EXPECT_EQ(thrown<LimitError>([&] { (void)compose_pure_dp(r); }).parameter(), "tolerance");
  r.method = "all";
  EXPECT_EQ(thrown<LimitError>([&] { (void)compose_pure_dp(r); }).parameter(), "tolerance");
}

TEST(OperationsCompose, RangesAndMethodNamed) {
  ComposePureDpRequest r{.epsilon = 1, .k = 0, .delta = mpq_class(1, 100000)};
  EXPECT_EQ(thrown<ParameterError>([&] { (void)compose_pure_dp(r); }).parameter(), "k");
  r.k = 2;
  r.method = "best";
  EXPECT_EQ(thrown<ParameterError>([&] { (void)compose_pure_dp(r); }).parameter(), "method");
  r.method = "all";
  EXPECT_EQ(compose_pure_dp(r).results.size(), 5u);
}

TEST(OperationsConvert, InputsNamedInTheFacesSpelling) {
  ConvertRequest r{.source = "zcdp", .rho = 1, .mu = 1, .delta = mpq_class(1, 100000),
                   .spelling = kPythonSpelling};
  const auto extra = thrown<ParameterError>([&] { (void)convert(r); });
  EXPECT_EQ(extra.parameter(), "mu");
  EXPECT_STREQ(extra.what(), "convert zcdp takes rho, not mu");
  r.spelling = kCommandLineSpelling;
  EXPECT_STREQ(thrown<ParameterError>([&] { (void)convert(r); }).what(), "convert zcdp takes --rho, not --mu");
  r.mu.reset();
  r.rho.reset();
  EXPECT_STREQ(thrown<ParameterError>([&] { (void)convert(r); }).what(),
               "missing required option --rho (see --help)");
  r.source = "renyi";
  EXPECT_EQ(thrown<ParameterError>([&] { (void)convert(r); }).parameter(), "source");
}

TEST(OperationsConvert, ReportsTheRouteAndTheSafeEnd) {
  const ConvertReport z = convert({.source = "zcdp", .rho = mpq_class(1, 2), .delta = mpq_class(1, 1000000)});
  EXPECT_EQ(z.result, "epsilon");
  ASSERT_TRUE(z.alpha.has_value());
  EXPECT_NE(z.route.find("CKS20 Corollary 13"), std::string::npos);
  const ConvertReport p = convert({.source = "pure-dp", .epsilon = 1});
  EXPECT_EQ(p.result, "mu");
  EXPECT_EQ(p.rho, mpq_class(1, 2));
  const ConvertReport g = convert({.source = "gdp", .epsilon = 1, .delta = mpq_class(1, 100000)});
  EXPECT_EQ(g.result, "mu");
  EXPECT_FALSE(g.meaning.empty());
  ConvertRequest fine{.source = "gdp", .mu = 1, .delta = mpq_class(1, 100000),
                      .tolerance = mpq_class(1, mpz_class(1) << 2001)};
  EXPECT_EQ(thrown<LimitError>([&] { (void)convert(fine); }).parameter(), "tolerance");
}

}  // namespace
}  // namespace exactdp::operations
