// The operation sample (operations/sample.h) called directly: every check runs before a sampler
// is built, names the parameter in the spelling of the face that built the request, and the
// count limit (10^10 draws) is the same for every face. tests/operations/test_faces.py runs the
// same requests through the command line and Python.
#include <gtest/gtest.h>

#include <string>

#include <exactdp/core/errors.h>
#include <exactdp/operations/sample.h>
#include "tests/operations/thrown.h"

namespace exactdp::operations {
namespace {

SampleRequest gaussian(const Spelling& spelling) {
  return {.law = "discrete-gaussian", .parameters = {{"sigma2", "9/4"}}, .spelling = spelling};
}

TEST(OperationsSample, PlansTheLawsOwnSampler) {
  const SamplePlan plan = plan_sample(gaussian(kPythonSpelling));
  ASSERT_NE(plan.law, nullptr);
  EXPECT_EQ(plan.law->name(), "discrete-gaussian");
  EXPECT_FALSE(plan.sampler->hardened());
  EXPECT_EQ(plan.sampler->describe(), "discrete-gaussian sigma2=9/4 mean=0");
  SampleRequest hardened = gaussian(kPythonSpelling);
  hardened.hardened = true;
  hardened.tau_bits = "48";
  EXPECT_EQ(plan_sample(hardened).sampler->tau_bits(), 48u);
}

TEST(OperationsSample, LawWithoutASamplerIsRefusedNotReplaced) {
  SampleRequest r{.law = "gaussian", .parameters = {{"sigma", "1"}}};
  const auto e = thrown<ParameterError>([&] { (void)plan_sample(r); });
  EXPECT_EQ(e.parameter(), "law");
  EXPECT_NE(std::string(e.what()).find("unknown law 'gaussian' here: it has no sampler"), std::string::npos);
  r.law = "poisson";
  EXPECT_EQ(thrown<ParameterError>([&] { (void)plan_sample(r); }).parameter(), "law");
}

TEST(OperationsSample, TauBitsNamedInEitherSpelling) {
  SampleRequest r = gaussian(kCommandLineSpelling);
  r.tau_bits = "64";
  EXPECT_STREQ(thrown<ParameterError>([&] { (void)plan_sample(r); }).what(), "--tau-bits applies only with --hardened");
  r.spelling = kPythonSpelling;
  EXPECT_STREQ(thrown<ParameterError>([&] { (void)plan_sample(r); }).what(), "tau_bits applies only with hardened=True");
  r.hardened = true;
  r.tau_bits = "200";
  const auto py = thrown<ParameterError>([&] { (void)plan_sample(r); });
  EXPECT_EQ(py.parameter(), "tau_bits");
  EXPECT_STREQ(py.what(), "tau_bits = 200 is out of range: allowed 40 <= tau_bits <= 128");
  r.spelling = kCommandLineSpelling;
  EXPECT_STREQ(thrown<ParameterError>([&] { (void)plan_sample(r); }).what(),
               "tau-bits = 200 is out of range: allowed 40 <= tau-bits <= 128");
}

TEST(OperationsSample, ParametersOfTheLawOnly) {
  SampleRequest r = gaussian(kPythonSpelling);
  r.parameters.emplace_back("scale", "1");
  const auto foreign = thrown<ParameterError>([&] { (void)plan_sample(r); });
  EXPECT_EQ(foreign.parameter(), "scale");
  EXPECT_STREQ(foreign.what(), "argument scale does not apply to discrete-gaussian");
  r.parameters = {{"mean", "3"}};
  r.spelling = kCommandLineSpelling;
  const auto missing = thrown<ParameterError>([&] { (void)plan_sample(r); });
  EXPECT_EQ(missing.parameter(), "sigma2");
  EXPECT_STREQ(missing.what(), "missing required option --sigma2 (see --help)");
}

TEST(OperationsSample, HardenedOnlyWhereTheLawHasIt) {
  SampleRequest r{.law = "bernoulli-exp", .parameters = {{"gamma", "1"}}, .hardened = true,
                  .spelling = kPythonSpelling};
  const auto e = thrown<ParameterError>([&] { (void)plan_sample(r); });
  EXPECT_EQ(e.parameter(), "hardened");
  EXPECT_TRUE(message_contains(e, "hardened=True applies to discrete-gaussian"));
  SampleRequest narrow = gaussian(kPythonSpelling);  // below the hardened range: never a fallback
  narrow.parameters = {{"sigma2", "1/1000"}};
  narrow.hardened = true;
  EXPECT_EQ(thrown<ParameterError>([&] { (void)plan_sample(narrow); }).parameter(), "sigma2");
}

TEST(OperationsSample, CountLimitNamesTheFacesParameter) {
  EXPECT_EQ(checked_sample_count("n", "10000000000"), kMaxSamples);
  EXPECT_EQ(checked_sample_count("size", "0"), 0u);
  const auto over = thrown<ParameterError>([] { (void)checked_sample_count("size", "10000000001"); });
  EXPECT_EQ(over.parameter(), "size");
  EXPECT_STREQ(over.what(), "size = 10000000001 is out of range: allowed 0 <= size <= 10000000000");
  EXPECT_EQ(thrown<ParameterError>([] { (void)checked_sample_count("n", "-1"); }).parameter(), "n");
}

// The count of draws of a law whose sample is several draws (one discrete Gaussian per surviving
// client) is charged every draw; a one-draw law's stream is bounded by the count alone.
TEST(OperationsSample, CountChargesEverySurvivorsDraw) {
  const SamplePlan ddg = plan_sample({.law = "distributed-discrete-gaussian",
                                      .parameters = {{"sigma2", "1/4"}, {"clients", "10000"}},
                                      .spelling = kPythonSpelling});
  EXPECT_EQ(checked_sample_count(*ddg.law, ddg.params, "size", "11428"), 11428u);
  const auto e = thrown<LimitError>([&] { (void)checked_sample_count(*ddg.law, ddg.params, "size", "11429"); });
  EXPECT_EQ(e.parameter(), "size");
  EXPECT_TRUE(message_contains(e, "size = 11429 is over the cost limit of distributed-discrete-gaussian: a sample "
                                  "is 10000 draws"));
  EXPECT_TRUE(message_contains(e, "allowed at most 11428 samples"));
  const SamplePlan one_draw = plan_sample(gaussian(kCommandLineSpelling));
  EXPECT_EQ(checked_sample_count(*one_draw.law, one_draw.params, "n", "10000000000"), 10'000'000'000ULL);
}

}  // namespace
}  // namespace exactdp::operations
