// cmd_estimate_report.h — what `exactdp estimate sparse-mean` prints: the estimate as CSV on
// stdout, and its guarantee (the library's EstimationGuarantee, mechanisms/estimation/
// estimation_guarantee.h) on stderr and as one JSON object for --json (docs/ESTIMATION.md,
// "From the command line").
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "cli/json.h"
#include <exactdp/mechanisms/estimation/sparse_mean.h>

namespace exactdp::cli {

// What the report states beside the library's result.
struct EstimateContext {
  std::vector<std::string> names;  // the coordinates, in input order
  std::uint64_t rows = 0;          // n (public under replace-one neighbours)
  bool seeded = false;
  int digits = 20;
};

// "coordinate,estimate" then one line per coordinate in input order: its name (quoted per RFC
// 4180 when needed) and the estimate as the shortest decimal that reads back as the double
// nearest to the exact value (0 off the support).
void write_estimate_csv(std::ostream& out, const mechanisms::EstimateResult& result, const EstimateContext& context);

[[nodiscard]] JsonValue estimate_guarantee_json(const mechanisms::EstimateResult& result, const EstimateContext& context);

void print_estimate_guarantee(std::ostream& err, const mechanisms::EstimateResult& result,
                              const EstimateContext& context);

}  // namespace exactdp::cli
