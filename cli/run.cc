#include <iostream>
#include <map>
#include <new>

#include "cli/args.h"
#include "cli/commands.h"
#include <exactdp/core/cpu_level.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/gmp_allocation.h>

namespace exactdp::cli {
namespace {

constexpr const char* kUsage =
    "usage: exactdp <command> [options]\n"
    "\n"
    "commands:\n"
    "  release      add calibrated exact noise to integer columns of a CSV table (main job)\n"
    "  aggregate    counts, sums and means per group from raw records, bounding done for you\n"
    "  estimate     private estimators of \"The cost of privacy\": sparse-mean of CSV rows\n"
    "  sample       draw exact noise: discrete-gaussian, discrete-laplace, bernoulli-exp, staircase\n"
    "  laws         every noise law of the registry, its parameters and what it supports\n"
    "  calibrate    certified noise calibration (gaussian, discrete-gaussian, dp-sgd)\n"
    "  profile      certified privacy profile delta(epsilon) of a mechanism\n"
    "  convert      zCDP / mu-GDP to (epsilon, delta) and back, certified\n"
    "  compose      composition: pure-dp methods, or --event lists (incl. poisson-gaussian)\n"
    "  measure-gdp  mu-GDP bracket of a mechanism by the GDP transformation\n"
    "  audit        goodness-of-fit audit of our samplers or of anyone's sample file\n"
    "  audit-timing timing-leak test (dudect) of the plain or the --hardened sampler\n"
    "  bits         raw CSPRNG or keyed ChaCha20 bytes (for external test batteries)\n"
    "  select       exact private selection: exponential, permute-and-flip, report-noisy-max\n"
    "\n"
    "'exactdp <command> --help' describes a command. Exit status: 0 success, 2 bad usage or\n"
    "parameter, 3 audit failed, 1 internal error.\n";

using Command = int (*)(Args, Io&);

}  // namespace

int run_exactdp(const std::vector<std::string>& args, Io& io) {
  static const std::map<std::string, Command> commands = {
      {"sample", cmd_sample},   {"calibrate", cmd_calibrate},     {"profile", cmd_profile},
      {"convert", cmd_convert}, {"compose", cmd_compose},         {"measure-gdp", cmd_measure_gdp},
      {"audit", cmd_audit},     {"bits", cmd_bits},               {"audit-timing", cmd_audit_timing},
      {"release", cmd_release},  {"aggregate", cmd_aggregate}, {"estimate", cmd_estimate},
      {"select", cmd_select},   {"laws", cmd_laws},
  };
  install_gmp_allocation_guard();  // GMP failures throw (core/gmp_allocation.h); once per process
  try {
    if (args.empty()) {
      io.err << kUsage;
      return 2;
    }
    if (args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
      io.out << kUsage;
      return 0;
    }
    const auto it = commands.find(args[0]);
    if (it == commands.end()) {
      io.err << "exactdp: unknown command '" << args[0] << "'\n\n" << kUsage;
      return 2;
    }
    if (const auto problem = cpu_level_setting_problem()) {  // the environment's cap (core/cpu_level.h)
      io.err << "exactdp: " << *problem << "\n";
      return 2;
    }
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    return it->second(Args(rest), io);
  } catch (const UsageError& e) {
    io.err << "exactdp: " << e.what() << "\n";
    return 2;
  } catch (const ParameterError& e) {
    io.err << "exactdp: " << e.what() << "\n";
    return 2;
  } catch (const std::bad_alloc&) {
    // A resource limit, like GmpAllocationError (a ParameterError, above): the input needs more
    // memory than the process may have.
    io.err << "exactdp: memory: out of memory (the input needs more memory than this process may "
              "use: give smaller inputs, or more memory)\n";
    return 2;
  } catch (const std::exception& e) {
    io.err << "exactdp: internal error: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace exactdp::cli
