// cmd_aggregate_report.h — the guarantee of `exactdp aggregate`, for stderr and for --json
// (docs/AGGREGATE.md, "The report"), from the operation's report (operations/aggregate.h).
#pragma once

#include <iosfwd>

#include "cli/json.h"
#include <exactdp/operations/aggregate.h>

namespace exactdp::cli {

[[nodiscard]] JsonValue aggregate_guarantee_json(const mechanisms::AggregateRequest& request,
                                                 const operations::AggregateReport& report,
                                                 bool seeded, int digits);

void print_aggregate_guarantee(std::ostream& err, const mechanisms::AggregateRequest& request,
                               const operations::AggregateReport& report, bool seeded, int digits);

}  // namespace exactdp::cli
