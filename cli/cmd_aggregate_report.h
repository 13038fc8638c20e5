// cmd_aggregate_report.h — the guarantee of `exactdp aggregate`, for stderr and for --json
// (docs/AGGREGATE.md, "The report").
#pragma once

#include <iosfwd>

#include "cli/json.h"
#include <exactdp/mechanisms/aggregate/aggregate_release.h>

namespace exactdp::cli {

[[nodiscard]] JsonValue aggregate_guarantee_json(const mechanisms::AggregateRequest& request,
                                                 const mechanisms::AggregateRelease& release,
                                                 bool seeded, int digits);

void print_aggregate_guarantee(std::ostream& err, const mechanisms::AggregateRequest& request,
                               const mechanisms::AggregateRelease& release, bool seeded, int digits);

}  // namespace exactdp::cli
