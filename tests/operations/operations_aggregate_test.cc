// The operation aggregate (operations/aggregate.h) called directly: the request's texts become the
// library's request with every check before any record is read, each named in the spelling of the
// face that built it, the limits the same for every face; the report derives each printed value
// (a sum's scale in its column's units, a centred sum's centre) once. tests/operations/test_faces.py
// runs the over-limit requests through the command line and Python.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include <exactdp/core/errors.h>
#include <exactdp/mechanisms/aggregate/aggregate_input.h>
#include <exactdp/operations/aggregate.h>
#include <exactdp/samplers/seeded_bits.h>
#include "tests/operations/thrown.h"
#include "tests/support/seeds.h"

namespace exactdp::operations {
namespace {

AggregateRequest visits(const Spelling& spelling) {
  AggregateRequest r{.privacy_unit = "user", .group_by = {"region"}, .epsilon = "1", .delta = "1/1000000"};
  r.outputs = {{"count"}, {"mean", "amount", "10,20"}, {"sum", "amount", "10,20"}};
  r.spelling = spelling;
  return r;
}

TEST(OperationsAggregate, PlansTheLibrarysRequest) {
  AggregateRequest r = visits(kPythonSpelling);
  r.max_groups = "2";
  r.max_input_bytes = "1000";
  const AggregatePlan plan = plan_aggregate(r);
  EXPECT_EQ(plan.request.bounding.max_groups, 2u);
  EXPECT_EQ(plan.request.bounding.max_rows, 1u);  // the default
  EXPECT_EQ(plan.request.mechanism, "discrete-laplace");
  ASSERT_EQ(plan.request.outputs.size(), 3u);
  ASSERT_EQ(plan.request.value_columns.size(), 1u);  // one column, named twice with the same bounds
  EXPECT_EQ(plan.limits.csv.max_input_bytes, 1000u);
}

TEST(OperationsAggregate, BoundingLimitIsNamedInEitherSpelling) {
  AggregateRequest r = visits(kCommandLineSpelling);
  r.max_rows = "1000001";
  const auto cli = thrown<ParameterError>([&] { (void)plan_aggregate(r); });
  EXPECT_EQ(cli.parameter(), "max-rows");
  EXPECT_STREQ(cli.what(), "max-rows = 1000001 is out of range: allowed 1 <= max-rows <= 1000000");
  r.spelling = kPythonSpelling;
  r.max_rows.reset();
  r.max_groups = "0";
  const auto py = thrown<ParameterError>([&] { (void)plan_aggregate(r); });
  EXPECT_EQ(py.parameter(), "max_groups");
  EXPECT_STREQ(py.what(), "max_groups = 0 is out of range: allowed 1 <= max_groups <= 1000000");
}

TEST(OperationsAggregate, QuantileGridLimitIsALimitError) {
  AggregateRequest r = visits(kPythonSpelling);
  r.outputs = {{"quantile", "amount", "0,100000", {"1/2"}}};
  const auto e = thrown<LimitError>([&] { (void)plan_aggregate(r); });
  EXPECT_EQ(e.parameter(), "bounds");
  EXPECT_NE(std::string(e.what()).find("100001 grid points: allowed at most 100000"), std::string::npos);
  r.outputs = {{"quantile", "amount", "0,99999", {"1/2"}}};
  EXPECT_NO_THROW((void)plan_aggregate(r));
}

TEST(OperationsAggregate, OutputChecksNameTheFacesParameter) {
  AggregateRequest r = visits(kCommandLineSpelling);
  r.outputs = {{"quantile", "amount", "0,10", {"1/2", "3/2"}}};
  EXPECT_STREQ(thrown<ParameterError>([&] { (void)plan_aggregate(r); }).what(),
               "q = 3/2 is out of range: allowed 0 <= q <= 1");
  r.spelling = kPythonSpelling;
  EXPECT_EQ(thrown<ParameterError>([&] { (void)plan_aggregate(r); }).parameter(), "quantile");
  r.outputs = {{"sum", "amount", "0,10"}, {"mean", "amount", "0,11"}};
  EXPECT_STREQ(thrown<ParameterError>([&] { (void)plan_aggregate(r); }).what(),
               "column 'amount' is given two different --bounds");
  r.outputs = {{"median", "amount", "0,10"}};
  EXPECT_EQ(thrown<ParameterError>([&] { (void)plan_aggregate(r); }).parameter(), "aggregate");
  r = visits(kPythonSpelling);
  r.group_by = {"region", ""};
  EXPECT_STREQ(thrown<ParameterError>([&] { (void)plan_aggregate(r); }).what(), "group-by has an empty column name");
  r = visits(kPythonSpelling);
  r.mechanism = "gaussian";
  EXPECT_EQ(thrown<ParameterError>([&] { (void)plan_aggregate(r); }).parameter(), "mechanism");
  r = visits(kCommandLineSpelling);
  r.max_input_bytes = "0";
  EXPECT_EQ(thrown<ParameterError>([&] { (void)plan_aggregate(r); }).parameter(), "max-input-bytes");
}

TEST(OperationsAggregate, ReportDerivesUnitsAndCentre) {
  AggregateRequest r = visits(kPythonSpelling);
  r.outputs = {{"mean", "amount", "10.0,20.0"}};
  const AggregateReport report = aggregate_guarantee(plan_aggregate(r));
  EXPECT_TRUE(report.pure_epsilon);
  ASSERT_EQ(report.quantities.size(), 2u);  // the centred sum and the count
  const AggregateQuantityReport& centred = report.quantities[0];
  EXPECT_EQ(centred.noise.quantity.name(), "centred_sum_amount");
  EXPECT_EQ(*centred.grid, mpq_class(1, 10));
  EXPECT_EQ(*centred.centre, 15);
  EXPECT_EQ(*centred.scale_in_units, centred.noise.scale / 10);
  EXPECT_FALSE(report.quantities[1].grid);  // the count has no units
  r.mechanism = "discrete-gaussian";
  const AggregateReport gaussian = aggregate_guarantee(plan_aggregate(r));
  EXPECT_FALSE(gaussian.pure_epsilon);
  EXPECT_EQ(*gaussian.quantities[0].scale_in_units, gaussian.quantities[0].noise.sigma2 / 100);
}

TEST(OperationsAggregate, RunsOnRecordsWithPublicKeys) {
  AggregateRequest r = visits(kPythonSpelling);
  r.outputs = {{"count"}};
  r.public_keys = true;
  r.delta.reset();
  const AggregatePlan plan = plan_aggregate(r);
  std::istringstream keys_csv("region\nnorth\nsouth\n");
  mechanisms::StreamByteReader keys_reader(keys_csv);
  const auto keys = read_aggregate_keys(keys_reader, plan.request, "keys");
  std::istringstream records_csv("user,region\n1,north\n2,north\n");
  mechanisms::StreamByteReader records(records_csv);
  SeededBits bits(test_support::fixed_seed(9401, 1));
  const AggregateReport report = aggregate_records(plan, records, &keys, bits);
  EXPECT_EQ(report.header, "region,count");
  EXPECT_EQ(report.rows.size(), 2u);
  EXPECT_EQ(report.public_keys, 2u);
  std::istringstream bad("town\nnorth\n");
  mechanisms::StreamByteReader bad_reader(bad);
  const auto e = thrown<ParameterError>([&] { (void)read_aggregate_keys(bad_reader, plan.request, "keys"); });
  EXPECT_EQ(e.parameter(), "keys");
  EXPECT_EQ(std::string(e.what()).rfind("keys: ", 0), 0u);
}

}  // namespace
}  // namespace exactdp::operations
