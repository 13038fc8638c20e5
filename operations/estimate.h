// estimate.h — the operation `estimate sparse-mean`: the private s-sparse mean of Cai, Wang and
// Zhang (Algorithm 3; mechanisms/estimation/sparse_mean.h) of rows given as an RFC 4180 CSV
// (the command line, cli/cmd_estimate.cc) or as typed columns (Python's exactdp.estimators.
// sparse_mean of a DataFrame, python/src/estimation.cc). plan_estimate checks the request before
// any row is read; check_estimate_columns, once d is known (the CSV's header, the columns given),
// refuses a sparsity over d and work over the library's limit (estimation_cost.h) before any
// value is mapped; the EstimateReport holds every value a report prints.
//
// Example:
//   const EstimatePlan plan = plan_estimate({.sparsity = "1", .radius = "10", .epsilon = "1"});
//   const EstimateReport report = estimate_sparse_mean(plan, csv_reader, bits);
#pragma once

#include <gmpxx.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <exactdp/mechanisms/aggregate/aggregate_columns.h>
#include <exactdp/mechanisms/estimation/dp_lasso.h>
#include <exactdp/mechanisms/estimation/noisy_ols.h>
#include <exactdp/mechanisms/estimation/peeling.h>
#include <exactdp/mechanisms/estimation/private_max.h>
#include <exactdp/mechanisms/estimation/sparse_mean.h>
#include <exactdp/mechanisms/release/byte_source.h>
#include <exactdp/mechanisms/release/csv_reader.h>
#include <exactdp/operations/spelling.h>

namespace exactdp::operations {

// The most columns (coordinates) of the rows: the CSV reader's field limit.
inline constexpr unsigned long long kMaxEstimateColumns = 100'000;

// The texts of a request. The sparsity is named s on the command line and sparsity in Python;
// the radius bound and radius.
struct EstimateRequest {
  std::string sparsity{};                          // integer text, 1 <= s <= d (d <= 10^5)
  std::string radius{};                            // R > 0, exact text
  std::string epsilon{};                           // 0 < epsilon <= 1000, at most 1024 bits
  std::optional<std::string> delta{};              // 0 < delta < 1
  std::optional<std::string> route{};              // basic, advanced or kov (not basic: needs delta)
  std::optional<long> granularity_exponent{};      // k (default 32 - floor(log2 R))
  std::optional<std::string> max_input_bytes{};    // CSV input limit (default and most 64 GiB)
  Spelling spelling = kCommandLineSpelling;
};

struct EstimatePlan {
  mechanisms::SparseMeanOptions options;
  mechanisms::SparseMeanGrid grid;
  mechanisms::CsvLimits limits;
  std::string sparsity_name;  // s or sparsity, for check_estimate_columns
};

// Checks, in this order: the sparsity's range, epsilon and delta (0 < epsilon <= 1000, 0 < delta
// < 1, epsilon's size), the route (and that a route other than basic has a delta), the radius and
// its grid, max_input_bytes. ParameterError / LimitError naming the parameter as the face spells it.
[[nodiscard]] EstimatePlan plan_estimate(const EstimateRequest& request);

// Once the number of columns d is known: ParameterError naming the sparsity unless s <= d;
// LimitError naming it when the peeling's work is over mechanisms::kMaxPeelingWork.
void check_estimate_columns(const EstimatePlan& plan, std::size_t columns);

// What every face prints of an estimate.
struct EstimateReport {
  mechanisms::EstimateResult result;
  std::vector<std::string> names;  // the coordinates, in input order
  std::uint64_t rows = 0;          // n (public under replace-one neighbours)
  // Per route of the guarantee, in order: its noise over the advanced route's (the paper's);
  // none when the advanced route was not computed.
  std::vector<std::optional<mpq_class>> noise_relative_to_advanced;
};

// The estimate of the rows of an RFC 4180 CSV (estimate_input.h: a header naming the d
// coordinates, then rows of exact decimals); check_estimate_columns runs on the header.
[[nodiscard]] EstimateReport estimate_sparse_mean(const EstimatePlan& plan, mechanisms::ByteReader& rows,
                                                  BitSource& bits);

// The estimate of typed columns (mechanisms/aggregate/aggregate_columns.h: exact decimal texts,
// int64 values, or binary floats' exact values m 2^e), one column per coordinate, every column of
// the same length n >= 1; each value mapped exactly as a CSV cell is (the same sums, so the same
// estimate with the same bits). ParameterError naming x for a value that is not a number or
// columns of different lengths.
[[nodiscard]] EstimateReport estimate_sparse_mean(const EstimatePlan& plan, const mechanisms::RecordColumns& columns,
                                                  BitSource& bits);

// The other estimators of typed columns (Python's exactdp.estimators on a DataFrame / Series /
// non-float64 array), in Python's spelling: each request holds texts, each plan_* checks them
// (ParameterError / LimitError naming the parameter) and returns the mechanism's options; each
// estimate_* checks the data's shape and work before any value is mapped, then maps every value
// exactly (decimal text, int64, a float's exact value m 2^e) to the grid the options give, as
// the float64 array path maps a double of the same value: the same result with the same bits.
// ParameterError naming v / x / y for a value that is not a number, columns of different lengths,
// or (v) a value of magnitude 2^1024 or more (past every float64; its grid integer would be huge).

// The most magnitude of a v value read from text or int64: below 2^kMaxEstimateValueLog2.
inline constexpr long kMaxEstimateValueLog2 = 1024;

struct PrivateMaxRequest {
  std::string epsilon{};                       // 0 < epsilon <= 1000
  std::string sensitivity{};                   // lambda > 0, exact text
  std::optional<long> granularity_exponent{};  // k (default 20 - floor(log2 lambda))
};

struct PeelingRequest {
  std::string sparsity{};  // integer text, 1 <= s <= d
  std::string epsilon{};
  std::optional<std::string> delta{};
  std::optional<std::string> route{};  // basic, advanced or kov (not basic: needs delta)
  std::string sensitivity{};
  std::optional<long> granularity_exponent{};
};

struct NoisyOlsRequest {
  std::string epsilon{};
  std::string delta{};  // required
  std::string coordinate_bound{}, response_bound{}, eigen_bound{};
  std::optional<long> granularity_exponent{};  // data grid (default 32 - floor(log2 min(c, R)))
};

struct DpLassoRequest {
  std::string sparsity{};
  std::string epsilon{};
  std::optional<std::string> delta{};
  std::optional<std::string> route{};
  std::optional<std::string> iterations{};  // integer text, 1 <= T <= n (default max(1, floor(log2 n)))
  std::string step_size{"1/2"}, coordinate_bound{}, response_bound{}, coefficient_bound{};
  std::optional<long> granularity_exponent{};
};

[[nodiscard]] mechanisms::PrivateMaxOptions plan_private_max(const PrivateMaxRequest& request);
[[nodiscard]] mechanisms::PeelingOptions plan_peeling(const PeelingRequest& request);
[[nodiscard]] mechanisms::NoisyOlsOptions plan_noisy_ols(const NoisyOlsRequest& request);
[[nodiscard]] mechanisms::DpLassoOptions plan_dp_lasso(const DpLassoRequest& request);

// v: one column of d >= 1 values.
[[nodiscard]] mechanisms::PrivateMaxResult estimate_private_max(const mechanisms::PrivateMaxOptions& options,
                                                                const mechanisms::RecordColumn& v, BitSource& bits);
[[nodiscard]] mechanisms::PeelingResult estimate_peeling(const mechanisms::PeelingOptions& options,
                                                         const mechanisms::RecordColumn& v, BitSource& bits);
// x: p >= 1 columns of n >= 1 values each; y: one column of n values.
[[nodiscard]] mechanisms::EstimateResult estimate_noisy_ols(const mechanisms::NoisyOlsOptions& options,
                                                            const mechanisms::RecordColumns& x,
                                                            const mechanisms::RecordColumn& y, BitSource& bits);
[[nodiscard]] mechanisms::EstimateResult estimate_dp_lasso(const mechanisms::DpLassoOptions& options,
                                                           const mechanisms::RecordColumns& x,
                                                           const mechanisms::RecordColumn& y, BitSource& bits);

}  // namespace exactdp::operations
