// commands.h — the exactdp subcommands, one file each: cmd_<name>.cc (their common contract:
// docs/DESIGN.md, "Command-line contract").
// Each takes the arguments after its name and returns the exit status:
//   0 success, 2 bad usage or bad parameter (message on stderr), 3 audit failed, 1 internal error.
// They throw UsageError / ParameterError for bad input; run_exactdp maps those to exit 2.
#pragma once

#include <iosfwd>
#include <span>
#include <string>
#include <vector>

namespace exactdp::cli {

struct Io {
  std::istream& in;
  std::ostream& out;
  std::ostream& err;
  bool err_is_terminal = false;  // progress bars only on a terminal
};

using Args = std::span<const std::string>;

int cmd_sample(Args args, Io& io);       // samplers
int cmd_calibrate(Args args, Io& io);    // accounting
int cmd_profile(Args args, Io& io);      // accounting
int cmd_convert(Args args, Io& io);      // accounting
int cmd_compose(Args args, Io& io);      // accounting
int cmd_measure_gdp(Args args, Io& io);  // accounting
int cmd_audit(Args args, Io& io);        // verification
int cmd_audit_timing(Args args, Io& io); // verification (timing leaks)
int cmd_bits(Args args, Io& io);         // verification
int cmd_release(Args args, Io& io);      // mechanisms: the main job (noisy CSV table)
int cmd_select(Args args, Io& io);       // mechanisms (exact private selection)
int cmd_aggregate(Args args, Io& io);    // mechanisms: releases from raw records
int cmd_estimate(Args args, Io& io);     // mechanisms: the cost-of-privacy estimators (sparse mean)
int cmd_laws(Args args, Io& io);         // laws (the registry)

// The whole command line minus argv[0]; never throws.
int run_exactdp(const std::vector<std::string>& args, Io& io);

}  // namespace exactdp::cli
