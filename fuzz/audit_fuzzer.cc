// audit_fuzzer — the sample-file reader of `exactdp audit --expect`, in process.
//
// Input: one byte choosing the law, its parameters and output format; the rest is the sample
// file given on standard input to
//   exactdp audit --expect <law> <parameters> [--json]
// through run_exactdp with string streams. Invariants:
//   * run_exactdp returns (no crash, no uncaught exception, no sanitizer report);
//   * the exit status is 0 (the samples pass), 3 (they fail the test) or 2 (malformed input:
//     a message on stderr naming the line, nothing on stdout); never 1 (internal error).
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::uint8_t choice = data[0];
  static const std::vector<std::vector<std::string>> kLaws = {
      {"discrete-gaussian", "--sigma2", "2"},
      {"discrete-gaussian", "--sigma2", "1/3", "--mean", "-5"},
      {"discrete-gaussian", "--sigma2", "1e6"},
      {"discrete-laplace", "--scale", "1"},
      {"discrete-laplace", "--scale", "7/2", "--mean", "100"},
      {"bernoulli-exp", "--gamma", "1/2"},
      {"bernoulli-exp", "--gamma", "0"},
      {"discrete-gaussian", "--sigma2", "1e-3"},
  };
  std::vector<std::string> args = {"audit", "--expect"};
  const auto& law = kLaws[choice % kLaws.size()];
  args.insert(args.end(), law.begin(), law.end());
  if ((choice & 0x80) != 0) args.emplace_back("--json");

  std::istringstream in(std::string(reinterpret_cast<const char*>(data) + 1, size - 1));
  std::ostringstream out, err;
  exactdp::cli::Io io{in, out, err, false};
  const int status = exactdp::cli::run_exactdp(args, io);
  const std::string err_text = err.str();
  FUZZ_CHECK(status == 0 || status == 2 || status == 3, "audit exit status %d; stderr: %s", status,
             err_text.substr(0, 500).c_str());
  if (status == 2) {
    FUZZ_CHECK(!err_text.empty(), "exit 2 without a message on stderr");
    FUZZ_CHECK(out.str().empty(), "exit 2 after printing on stdout: %s", out.str().substr(0, 200).c_str());
  }
  return 0;
}
