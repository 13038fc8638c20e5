// cmd_estimate_report.h — what `exactdp estimate sparse-mean` prints of the operation's report
// (operations/estimate.h): the estimate as CSV on stdout, and its guarantee (the library's
// EstimationGuarantee, mechanisms/estimation/estimation_guarantee.h) on stderr and as one JSON
// object for --json (docs/ESTIMATION.md, "From the command line").
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "cli/json.h"
#include <exactdp/operations/estimate.h>

namespace exactdp::cli {

// How the report is printed.
struct EstimateContext {
  bool seeded = false;
  int digits = 20;
};

// "coordinate,estimate" then one line per coordinate in input order: its name (quoted per RFC
// 4180 when needed) and the estimate as the shortest decimal that reads back as the double
// nearest to the exact value (0 off the support).
void write_estimate_csv(std::ostream& out, const operations::EstimateReport& report);

[[nodiscard]] JsonValue estimate_guarantee_json(const operations::EstimateReport& report, const EstimateContext& context);

void print_estimate_guarantee(std::ostream& err, const operations::EstimateReport& report,
                              const EstimateContext& context);

}  // namespace exactdp::cli
