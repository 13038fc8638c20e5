// The operation estimate sparse-mean (operations/estimate.h) called directly: the request's
// checks name the parameter as the face spells it (s / sparsity, bound / radius, --delta / delta),
// the peeling's work limit is refused once d is known, and the typed columns (text, int, a
// float's exact m 2^e) give the CSV path's sums, so the same estimate with the same bits.
// tests/operations/test_faces.py runs the over-limit request through the command line and Python.
// The other estimators' requests (private_max, peeling, noisy_ols, dp_lasso): their checks name
// the parameter, and columns give the doubles' answer with the same bits.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>

#include <exactdp/core/errors.h>
#include <exactdp/mechanisms/aggregate/aggregate_input.h>
#include <exactdp/mechanisms/estimation/grid_data.h>
#include <exactdp/operations/estimate.h>
#include <exactdp/samplers/seeded_bits.h>
#include "tests/operations/thrown.h"
#include "tests/support/seeds.h"

namespace exactdp::operations {
namespace {
namespace operations_estimate_test {  // this file's own names in a unity build (tests/CMakeLists.txt)

constexpr unsigned kSuite = 9402;

EstimateRequest request(const Spelling& spelling) {
  return {.sparsity = "2", .radius = "3", .epsilon = "1", .spelling = spelling};
}

TEST(OperationsEstimate, ChecksNameTheFacesParameter) {
  EstimateRequest r = request(kCommandLineSpelling);
  r.sparsity = "100001";
  EXPECT_STREQ(thrown<ParameterError>([&] { (void)plan_estimate(r); }).what(),
               "s = 100001 is out of range: allowed 1 <= s <= 100000");
  r.spelling = kPythonSpelling;
  EXPECT_EQ(thrown<ParameterError>([&] { (void)plan_estimate(r); }).parameter(), "sparsity");
  r = request(kCommandLineSpelling);
  r.route = "kov";
  EXPECT_STREQ(thrown<ParameterError>([&] { (void)plan_estimate(r); }).what(),
               "route = kov needs --delta (only basic is pure DP)");
  r.spelling = kPythonSpelling;
  EXPECT_STREQ(thrown<ParameterError>([&] { (void)plan_estimate(r); }).what(),
               "route = kov needs delta (only basic is pure DP)");
  r = request(kCommandLineSpelling);
  r.radius = "0";
  EXPECT_EQ(thrown<ParameterError>([&] { (void)plan_estimate(r); }).parameter(), "bound");
  r.spelling = kPythonSpelling;
  EXPECT_EQ(thrown<ParameterError>([&] { (void)plan_estimate(r); }).parameter(), "radius");
}

TEST(OperationsEstimate, PeelingWorkIsRefusedOnceTheColumnsAreKnown) {
  EstimateRequest r = request(kPythonSpelling);
  r.sparsity = "100";
  const EstimatePlan plan = plan_estimate(r);
  EXPECT_NO_THROW(check_estimate_columns(plan, 1000));
  const auto e = thrown<LimitError>([&] { check_estimate_columns(plan, 100'000); });
  EXPECT_EQ(e.parameter(), "sparsity");
  EXPECT_EQ(thrown<ParameterError>([&] { check_estimate_columns(plan, 50); }).parameter(), "sparsity");
  // A header of d = 100,000 columns is refused before any row is read (the names need not parse).
  std::string header;
  for (int j = 0; j < 100'000; ++j) header += (j ? ",c" : "c") + std::to_string(j);
  std::istringstream csv(header + "\n");
  mechanisms::StreamByteReader reader(csv);
  SeededBits bits(test_support::fixed_seed(kSuite, 1));
  EXPECT_EQ(thrown<LimitError>([&] { (void)estimate_sparse_mean(plan, reader, bits); }).parameter(), "sparsity");
}

// The columns a, b, c of the CSV below, typed three ways.
mechanisms::RecordColumns typed_columns() {
  mechanisms::RecordColumns cs;
  cs.columns.push_back({"a", mechanisms::ColumnKind::kText, {"0.1", "1e-3", "-2.675", "1.0000000001"}, {}, {}});
  cs.columns.push_back({"b", mechanisms::ColumnKind::kInteger, {}, {3, -7, 0, 9}, {}});
  // 2^-32, 3 2^-32, -2^-32 (ties on the grid 2^-31 of R = 3) and 2.5 = 5 2^-1
  cs.columns.push_back({"c", mechanisms::ColumnKind::kDyadic, {}, {1, 3, -1, 5}, {-32, -32, -32, -1}});
  return cs;
}

TEST(OperationsEstimate, TypedColumnsGiveTheCsvEstimate) {
  EstimateRequest r = request(kPythonSpelling);
  r.sparsity = "3";  // every coordinate released: each column's sum shows in the estimate
  const EstimatePlan plan = plan_estimate(r);
  std::istringstream csv("a,b,c\n0.1,3,2.3283064365386962890625e-10\n1e-3,-7,6.9849193096160888671875e-10\n"
                         "-2.675,0,-2.3283064365386962890625e-10\n1.0000000001,9,2.5\n");
  mechanisms::StreamByteReader reader(csv);
  SeededBits csv_bits(test_support::fixed_seed(kSuite, 2));
  const EstimateReport from_csv = estimate_sparse_mean(plan, reader, csv_bits);
  SeededBits column_bits(test_support::fixed_seed(kSuite, 2));
  const EstimateReport from_columns = estimate_sparse_mean(plan, typed_columns(), column_bits);
  EXPECT_EQ(from_columns.names, from_csv.names);
  EXPECT_EQ(from_columns.rows, 4u);
  EXPECT_EQ(from_columns.result.support, from_csv.result.support);
  EXPECT_EQ(from_columns.result.estimate, from_csv.result.estimate);
}

TEST(OperationsEstimate, DyadicValuesMapAsTheLibraryMapsDoubles) {
  const EstimatePlan plan = plan_estimate(request(kPythonSpelling));
  const long k = plan.grid.exponent;
  const double values[] = {0.0, 0x1p-32, 0x1.8p-31, -0x1p-32, 2.5, -3.0000001, 1e300, -1e-300, 0x1.fffffffffffffp-1};
  for (const double v : values) {
    int e = 0;
    const double f = std::frexp(v, &e);
    const auto m = static_cast<std::int64_t>(std::ldexp(f, 53));
    mechanisms::RecordColumns one;
    one.columns.push_back({"a", mechanisms::ColumnKind::kDyadic, {}, {m}, {e - 53}});
    SeededBits bits(test_support::fixed_seed(kSuite, 3));
    EstimateRequest r = request(kPythonSpelling);
    r.sparsity = "1";
    const EstimateReport report = estimate_sparse_mean(plan_estimate(r), one, bits);
    const std::int64_t expected = mechanisms::truncated_grid_value(v, k, plan.grid.bound, "x", 0);
    SeededBits again(test_support::fixed_seed(kSuite, 3));
    const mechanisms::EstimateResult library = mechanisms::sparse_mean_from_column_sums(
        {mpz_class(static_cast<long>(expected))}, 1, plan_estimate(r).options, again);
    EXPECT_EQ(report.result.estimate, library.estimate) << v;
  }
}

TEST(OperationsEstimate, ColumnErrorsNameX) {
  const EstimatePlan plan = plan_estimate(request(kPythonSpelling));
  SeededBits bits(test_support::fixed_seed(kSuite, 4));
  mechanisms::RecordColumns cs = typed_columns();
  cs.columns[0].texts[1] = "nan";
  const auto bad = thrown<ParameterError>([&] { (void)estimate_sparse_mean(plan, cs, bits); });
  EXPECT_EQ(bad.parameter(), "x");
  EXPECT_NE(std::string(bad.what()).find("column 'a', row 1: 'nan' is not a decimal number"), std::string::npos);
  cs = typed_columns();
  cs.columns[1].integers.pop_back();
  EXPECT_EQ(thrown<ParameterError>([&] { (void)estimate_sparse_mean(plan, cs, bits); }).parameter(), "x");
  EXPECT_EQ(thrown<ParameterError>([&] { (void)estimate_sparse_mean(plan, mechanisms::RecordColumns{}, bits); })
                .parameter(),
            "x");
}

mechanisms::RecordColumn text_column(const std::string& name, std::vector<std::string> texts) {
  return {name, mechanisms::ColumnKind::kText, std::move(texts), {}, {}};
}

TEST(OperationsEstimate, PrivateMaxAndPeelingOfColumnsAreTheDoublesOnes) {
  const double v[] = {0.5, -3.0, 1.0, 7.0, 2.5};
  const mechanisms::RecordColumn texts = text_column("v", {"0.5", "-3", "1/1", "7e0", "2.50"});
  const auto max_options = plan_private_max({.epsilon = "1", .sensitivity = "1/10"});
  SeededBits a(test_support::fixed_seed(kSuite, 5)), b(test_support::fixed_seed(kSuite, 5));
  const auto from_columns = estimate_private_max(max_options, texts, a);
  const auto from_doubles = mechanisms::private_max(v, max_options, b);
  EXPECT_EQ(from_columns.index, from_doubles.index);
  EXPECT_EQ(from_columns.value, from_doubles.value);
  const auto peel_options = plan_peeling({.sparsity = "2", .epsilon = "1", .delta = "1e-6", .sensitivity = "1/10"});
  SeededBits c(test_support::fixed_seed(kSuite, 6)), d(test_support::fixed_seed(kSuite, 6));
  const auto peeled_columns = estimate_peeling(peel_options, texts, c);
  const auto peeled_doubles = mechanisms::peeling(v, peel_options, d);
  EXPECT_EQ(peeled_columns.indices, peeled_doubles.indices);
  EXPECT_EQ(peeled_columns.values, peeled_doubles.values);
}

TEST(OperationsEstimate, RegressionColumnsAreTheDoublesOnes) {
  constexpr std::size_t n = 64;
  std::vector<double> x(2 * n), y(n);
  mechanisms::RecordColumns columns;
  columns.columns = {{"a", mechanisms::ColumnKind::kInteger, {}, {}, {}}, text_column("b", {})};
  mechanisms::RecordColumn y_column{"y", mechanisms::ColumnKind::kDyadic, {}, {}, {}};
  for (std::size_t i = 0; i < n; ++i) {
    const long a = static_cast<long>(i % 3) - 1, b = static_cast<long>(i % 5) - 2;  // x in {-1, 0, 1} x {-2..2}/4
    x[2 * i] = static_cast<double>(a);
    x[2 * i + 1] = static_cast<double>(b) / 4;
    y[i] = static_cast<double>(3 * a - b) / 8;  // exactly (3 a - b) 2^-3
    columns.columns[0].integers.push_back(a);
    columns.columns[1].texts.push_back(std::to_string(b * 25) + "e-2");
    y_column.integers.push_back(3 * a - b);
    y_column.exponents.push_back(-3);
  }
  const mechanisms::MatrixView view{x, n, 2};
  const auto ols = plan_noisy_ols({.epsilon = "1", .delta = "1e-6", .coordinate_bound = "1", .response_bound = "1",
                                   .eigen_bound = "100"});
  SeededBits a(test_support::fixed_seed(kSuite, 7)), b(test_support::fixed_seed(kSuite, 7));
  EXPECT_EQ(estimate_noisy_ols(ols, columns, y_column, a).estimate, mechanisms::noisy_ols(view, y, ols, b).estimate);
  const auto lasso = plan_dp_lasso({.sparsity = "1", .epsilon = "1", .coordinate_bound = "1", .response_bound = "1",
                                    .coefficient_bound = "2"});
  SeededBits c(test_support::fixed_seed(kSuite, 8)), d(test_support::fixed_seed(kSuite, 8));
  EXPECT_EQ(estimate_dp_lasso(lasso, columns, y_column, c).estimate, mechanisms::dp_lasso(view, y, lasso, d).estimate);
}

TEST(OperationsEstimate, EstimatorChecksNameTheParameterBeforeAnyValue) {
  EXPECT_EQ(thrown<ParameterError>([] { (void)plan_private_max({.epsilon = "1", .sensitivity = "0"}); }).parameter(),
            "sensitivity");
  EXPECT_EQ(thrown<ParameterError>([] {
              (void)plan_peeling({.sparsity = "1", .epsilon = "1", .route = "kov", .sensitivity = "1"});
            }).parameter(),
            "route");
  EXPECT_EQ(thrown<ParameterError>([] {
              (void)plan_noisy_ols({.epsilon = "1", .delta = "1", .coordinate_bound = "1", .response_bound = "1",
                                    .eigen_bound = "1"});
            }).parameter(),
            "delta");
  EXPECT_EQ(thrown<ParameterError>([] {
              (void)plan_dp_lasso({.sparsity = "1", .epsilon = "1", .iterations = "0", .coordinate_bound = "1",
                                   .response_bound = "1", .coefficient_bound = "1"});
            }).parameter(),
            "iterations");
  // The sparsity is refused (one column) before the bad value in x is read.
  const auto lasso = plan_dp_lasso({.sparsity = "2", .epsilon = "1", .coordinate_bound = "1", .response_bound = "1",
                                    .coefficient_bound = "1"});
  mechanisms::RecordColumns x;
  x.columns = {text_column("a", {"1", "nan"})};
  SeededBits bits(test_support::fixed_seed(kSuite, 9));
  EXPECT_EQ(thrown<ParameterError>([&] { (void)estimate_dp_lasso(lasso, x, text_column("y", {"1", "2"}), bits); })
                .parameter(),
            "sparsity");
  const auto peel = plan_peeling({.sparsity = "1", .epsilon = "1", .sensitivity = "1"});
  const auto big = thrown<ParameterError>([&] { (void)estimate_peeling(peel, text_column("v", {"1e400"}), bits); });
  EXPECT_EQ(big.parameter(), "v");
}

}  // namespace operations_estimate_test
}  // namespace
}  // namespace exactdp::operations
