// cli_fuzzer — the whole exactdp command line, in process, through run_exactdp.
//
// Input: the arguments separated by NUL bytes (two NULs in a row give an empty argument); the
// first run of three NULs ends the arguments and the rest is standard input (read by
// `exactdp audit --expect ...`). A dictionary (fuzz/cli.dict) gives libFuzzer the command,
// law and option names.
// Invariants:
//   * run_exactdp returns, never throws, never crashes (ASan/UBSan watch memory and UB);
//   * the exit status is 0, 2 or 3; never 1 ("internal error", and "not implemented yet" is a
//     failure too: every command is implemented);
//   * exit 2 prints a message on stderr and nothing on stdout (docs/DESIGN.md, "Command-line
//     contract": bad input produces no partial output).
// Inputs that ask for more than kMaxCount samples or bytes (-n, --samples, --bytes, --count),
// audit-timing runs of more than kMaxTimingCalls calls and calibrate dp-sgd's pld search are
// skipped so one input stays fast;
// the limits themselves are tested in tests/cli/cli_hostile_inputs_test.cc and
// tests/cli/cli_cost_limits_test.cc.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "cli/commands.h"
#include "fuzz/fuzz_support.h"
#include <exactdp/core/rational.h>

namespace {

constexpr long kMaxCount = 256;

bool is_count_option(std::string_view name) {
  return name == "-n" || name == "--n" || name == "--samples" || name == "--bytes" || name == "--count";
}

// True when the value asks for more than kMaxCount (a value that does not parse is left to the
// command, which must refuse it).
bool too_large(std::string_view value) {
  try {
    const mpz_class n = exactdp::parse_integer("n", value);
    return n > kMaxCount;
  } catch (...) {
    return false;
  }
}

// audit-timing times --calls draws (default 10^6, at least 1,000) after up to 10^4 warm-up calls:
// only inputs that ask for at most kMaxTimingCalls run (its cost limit is tested in
// tests/cli/cli_cost_limits_test.cc).
constexpr long kMaxTimingCalls = 2000;

bool timing_calls_too_many(const std::vector<std::string>& args) {
  if (args.empty() || args[0] != "audit-timing") return false;
  for (std::size_t i = 0; i + 1 < args.size(); ++i) {
    if (args[i] != "--calls") continue;
    try {
      return exactdp::parse_integer("calls", args[i + 1]) > kMaxTimingCalls;
    } catch (...) {
      return false;  // refused by the command
    }
  }
  return true;  // the default, 10^6 calls
}

// calibrate dp-sgd searches sigma through the pld route by default: a run is bounded by its cost
// model (about 10 s, by design), not by the size of the input. Only its --route rdp runs here
// (the pld search is tested in tests/cli/cli_calibrate_dp_sgd_test.cc, also under sanitizers).
bool pld_calibration(const std::vector<std::string>& args) {
  if (args.size() < 2 || args[0] != "calibrate" || args[1] != "dp-sgd") return false;
  for (std::size_t i = 2; i + 1 < args.size(); ++i) {
    if (args[i] == "--route" && args[i + 1] == "rdp") return false;
  }
  return true;
}

bool asks_too_much(const std::vector<std::string>& args) {
  if (timing_calls_too_many(args) || pld_calibration(args)) return true;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (is_count_option(a) && i + 1 < args.size() && too_large(args[i + 1])) return true;
    if (const auto eq = a.find('='); eq != std::string::npos &&
                                     is_count_option(std::string_view(a).substr(0, eq)) &&
                                     too_large(std::string_view(a).substr(eq + 1))) {
      return true;
    }
  }
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t stdin_mark = input.find(std::string_view("\0\0\0", 3));
  const std::string_view arg_text = input.substr(0, stdin_mark);
  const std::string stdin_text =
      stdin_mark == std::string_view::npos ? std::string() : std::string(input.substr(stdin_mark + 3));
  std::vector<std::string> args;
  if (!arg_text.empty()) {
    std::size_t begin = 0;
    for (;;) {
      const std::size_t nul = arg_text.find('\0', begin);
      args.emplace_back(arg_text.substr(begin, nul == std::string_view::npos ? std::string_view::npos : nul - begin));
      if (nul == std::string_view::npos) break;
      begin = nul + 1;
    }
  }
  if (args.size() > 64 || asks_too_much(args)) return 0;

  std::istringstream in(stdin_text);
  std::ostringstream out, err;
  exactdp::cli::Io io{in, out, err, false};
  const int status = exactdp::cli::run_exactdp(args, io);
  const std::string err_text = err.str();
  FUZZ_CHECK(status == 0 || status == 2 || status == 3,
             "exit status %d; stderr: %s", status, err_text.substr(0, 500).c_str());
  // (Messages quote the user's input: the text only counts when the input does not contain it.)
  const bool input_says_it = input.find("not implemented") != std::string_view::npos;
  FUZZ_CHECK(input_says_it || err_text.find("not implemented yet") == std::string::npos,
             "a command answered 'not implemented yet': %s", err_text.substr(0, 500).c_str());
  if (status == 2) {
    FUZZ_CHECK(!err_text.empty(), "exit 2 without a message on stderr");
    FUZZ_CHECK(out.str().empty(), "exit 2 after printing on stdout: %s", out.str().substr(0, 200).c_str());
  }
  return 0;
}
