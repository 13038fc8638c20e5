// Hostile parameters through every exactdp command, in process (run_exactdp with string
// streams): each case must end with exit 0 or 2 (3 is also a legal verdict for `audit`), never
// a crash, an exception or "internal error" (exit 1). Exit 2 must print a message on stderr that
// names the parameter, and nothing on stdout. SECURITY.md "Limits" lists the bounds enforced.
//
// The hostile values: 1e999999999, 1e-999999999, a 100,000-digit number, a
// denominator of 5,000 nines, 10^12, 10^400, 0, 1, 10^300, 10^9, a NUL byte, Unicode digits, and
// 1 - 10^-29 and 1 - 10^-5000 (delta just below 1), 10^-100000 (the exponent limit's edge) —
// each put into every parameter of every command in turn, the other parameters staying valid.
// Counts (-n, --samples) do not get 10^9 (nor `bits -n` 10^12): within their limits these are
// legitimate, merely long requests. Each command also runs once with valid parameters (baseline).
//
// Every command is implemented: a "not implemented yet" answer (exit 1) is a FAILURE, like any
// other exit 1, never a skip or a pass. No test measures time: a watchdog fails a case that has
// not returned after 60 s (far above the 10 s a command may take at most; durations are printed
// by gtest for each case).
#include <gtest/gtest.h>
#include <mpfr.h>
#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <future>
#include <memory>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "cli/commands.h"
#include "tests/cli/cli_test_helpers.h"

namespace exactdp::cli {
namespace {
namespace cli_hostile_inputs_test {  // this file's own names in a unity build (tests/CMakeLists.txt)

const std::string kSeed(64, '5');  // not all zero: that one is refused without --allow-weak-seed

struct Template {
  std::string name;                 // test-name prefix
  std::vector<std::string> args;    // with "{option}" slots given by `params`
  std::vector<std::pair<std::string, std::string>> params;  // option -> valid default
  bool audit = false;               // exit 3 (audit verdict) is legal
  std::string stdin_text;           // "{line}" is replaced by the hostile value when param is "<stdin>"
};

struct Value {
  std::string name;
  std::string text;
};

std::vector<Value> hostile_values() {
  return {
      {"exp_1e999999999", "1e999999999"},
      {"exp_1e_minus_999999999", "1e-999999999"},
      {"digits_100000", std::string(100000, '9')},
      {"denominator_5000_nines", "1/" + std::string(5000, '9')},
      {"ten_to_12", "1e12"},
      {"ten_to_400", "1e400"},
      {"zero", "0"},
      {"one", "1"},
      {"ten_to_300", "1e300"},
      {"ten_to_9", "1e9"},
      // The smallest magnitude the exponent limit lets through: `convert gdp --epsilon 0` with
      // this delta searched for mu ~ 2.5e-100000 one halving at a time from [0, 1] and never
      // answered (finding 9 in docs/FUZZING.md).
      {"ten_to_minus_100000", "1e-100000"},
      // Just below 1 (a probability's edge): `calibrate gaussian --delta` with 1 - 10^-29 once
      // took 50 s (the profile was compared with the target near 1 instead of 1 - delta with
      // 1 - target); 1 - 10^-5000 is the same at the scale of the digit limits.
      {"one_minus_1e_29", "0." + std::string(29, '9')},
      {"one_minus_1e_5000", "0." + std::string(5000, '9')},
      {"nul_byte", std::string("1\0" "5", 3)},
      {"fullwidth_digit", "\xef\xbc\x91"},      // U+FF11 FULLWIDTH DIGIT ONE
      {"arabic_indic_digit", "\xd9\xa3"},       // U+0663 ARABIC-INDIC DIGIT THREE
  };
}

using Params = std::vector<std::pair<std::string, std::string>>;

Template make(std::string name, std::vector<std::string> args, Params params) {
  Template t;
  t.name = std::move(name);
  t.args = std::move(args);
  t.params = std::move(params);
  return t;
}

std::vector<Template> templates() {
  std::vector<Template> t;
  // sample
  t.push_back(make("sample_discrete_gaussian", {"sample", "discrete-gaussian", "--seed", kSeed},
                   {{"--sigma2", "9/4"}, {"--mean", "0"}, {"-n", "3"}}));
  t.push_back(make("sample_discrete_laplace", {"sample", "discrete-laplace", "--seed", kSeed},
                   {{"--scale", "3/2"}, {"--mean", "0"}, {"-n", "3"}}));
  t.push_back(make("sample_hardened_discrete_gaussian", {"sample", "discrete-gaussian", "--hardened", "--seed", kSeed},
                   {{"--sigma2", "9/4"}, {"--mean", "0"}, {"-n", "3"}, {"--tau-bits", "64"}}));
  t.push_back(make("sample_hardened_discrete_laplace", {"sample", "discrete-laplace", "--hardened", "--seed", kSeed},
                   {{"--scale", "3/2"}, {"--mean", "0"}, {"-n", "3"}, {"--tau-bits", "64"}}));
  t.push_back(make("sample_bernoulli_exp", {"sample", "bernoulli-exp", "--seed", kSeed},
                   {{"--gamma", "1/2"}, {"-n", "3"}}));
  // calibrate
  for (const std::string mech : {"gaussian", "discrete-gaussian"}) {
    t.push_back(make("calibrate_" + mech, {"calibrate", mech},
                     {{"--epsilon", "1"}, {"--delta", "1e-5"}, {"--sensitivity", "1"}}));
  }
  // profile
  t.push_back(make("profile_gaussian", {"profile", "gaussian"},
                   {{"--sigma", "1"}, {"--sensitivity", "1"}, {"--epsilon", "1"}}));
  t.push_back(make("profile_laplace", {"profile", "laplace"},
                   {{"--scale", "1"}, {"--sensitivity", "1"}, {"--epsilon", "1"}}));
  t.push_back(make("profile_discrete_gaussian", {"profile", "discrete-gaussian"},
                   {{"--sigma2", "1"}, {"--sensitivity", "1"}, {"--epsilon", "1"}}));
  t.push_back(make("profile_discrete_laplace", {"profile", "discrete-laplace"},
                   {{"--scale", "1"}, {"--sensitivity", "1"}, {"--epsilon", "1"}}));
  t.push_back(make("profile_gdp", {"profile", "gdp"}, {{"--mu", "1"}, {"--epsilon", "1"}}));
  t.push_back(make("profile_hardened_discrete_gaussian", {"profile", "discrete-gaussian", "--hardened"},
                   {{"--sigma2", "1"}, {"--sensitivity", "1"}, {"--epsilon", "1"}, {"--tau-bits", "64"}}));
  t.push_back(make("profile_hardened_discrete_laplace", {"profile", "discrete-laplace", "--hardened"},
                   {{"--scale", "1"}, {"--sensitivity", "1"}, {"--epsilon", "1"}, {"--tau-bits", "64"}}));
  t.push_back(make("profile_gaussian_digits", {"profile", "gaussian", "--sigma", "1", "--epsilon", "1"},
                   {{"--digits", "20"}}));
  // convert
  t.push_back(make("convert_zcdp", {"convert", "zcdp"}, {{"--rho", "1/2"}, {"--delta", "1e-6"}}));
  t.push_back(make("convert_gdp_mu", {"convert", "gdp"}, {{"--mu", "1"}, {"--delta", "1e-6"}}));
  t.push_back(make("convert_gdp_epsilon", {"convert", "gdp"}, {{"--epsilon", "1"}, {"--delta", "1e-6"}}));
  t.push_back(make("convert_gdp_epsilon_zero", {"convert", "gdp"},
                   {{"--epsilon", "0"}, {"--delta", "1e-6"}}));
  // mu = 10^6 with delta = 1 - 10^-5000 once compared delta itself at ~16,600 bits per step.
  t.push_back(make("convert_gdp_mu_large", {"convert", "gdp"}, {{"--mu", "1e6"}, {"--delta", "1e-6"}}));
  // measure-gdp
  t.push_back(make("measure_gdp_gaussian", {"measure-gdp", "gaussian"},
                   {{"--sigma", "1"}, {"--eps-max", "10"}, {"--tolerance", "1e-3"}}));
  // compose
  for (const std::string method : {"basic", "advanced", "optimal", "gdp", "zcdp"}) {
    t.push_back(make("compose_" + method, {"compose", "pure-dp", "--method", method},
                     {{"--epsilon", "1/10"}, {"--k", "10"}, {"--delta", "1e-6"}}));
  }
  // compose --event: the count and the delta of a Poisson-subsampled Gaussian list.
  t.push_back(make("compose_events", {"compose", "--event", "poisson-gaussian:sigma=1,q=1/100"},
                   {{"--count", "10"}, {"--delta", "1e-5"}}));
  // k = 1 with epsilon = delta tiny: eps* = 0 with the segment's upper end below 0; forming the
  // bracket before clamping exited 1 (the baseline of this template catches it).
  t.push_back(make("compose_optimal_k1_tiny", {"compose", "pure-dp", "--method", "optimal"},
                   {{"--epsilon", "1e-300"}, {"--k", "1"}, {"--delta", "1e-300"}}));
  // audit (our samplers, and anyone's sample file on stdin)
  Template audit_own = make("audit_discrete_gaussian", {"audit", "discrete-gaussian", "--seed", kSeed},
                            {{"--sigma2", "2"}, {"--samples", "1000"}});
  audit_own.audit = true;
  t.push_back(audit_own);
  Template audit_file = make("audit_expect", {"audit", "--expect", "discrete-laplace"},
                             {{"--scale", "1"}, {"<stdin>", "0"}});
  audit_file.audit = true;
  audit_file.stdin_text = "0\n1\n-1\n{line}\n2\n0\n";
  t.push_back(audit_file);
  // audit-timing (1000 calls, the least allowed: a few ms; exit 3 is the plain samplers' verdict)
  Template timing_plain = make("audit_timing_discrete_gaussian", {"audit-timing", "discrete-gaussian", "--seed", kSeed},
                               {{"--sigma2", "9/4"}, {"--mean", "0"}, {"--calls", "1000"}});
  timing_plain.audit = true;
  t.push_back(timing_plain);
  Template timing_hardened =
      make("audit_timing_hardened_discrete_laplace", {"audit-timing", "discrete-laplace", "--hardened", "--seed", kSeed},
           {{"--scale", "3/2"}, {"--mean", "0"}, {"--calls", "1000"}, {"--tau-bits", "64"}});
  timing_hardened.audit = true;
  t.push_back(timing_hardened);
  // select (exact selection; the scores on stdin; report-noisy-max puts them on a common grid;
  // permute-and-flip shares the exponential mechanism's parsing and coins, so it is left out to
  // keep the number of ctest entries down)
  for (const char* mechanism : {"exponential", "report-noisy-max"}) {
    Template sel = make(std::string("select_") + mechanism, {"select", "--mechanism", mechanism, "--seed", kSeed},
                        {{"--epsilon", "1"}, {"--sensitivity", "1"}, {"--top", "2"}, {"-n", "3"},
                         {"--delta", "1e-6"}, {"<stdin>", "2"}});
    sel.stdin_text = "1\n{line}\n-1/3\n";
    t.push_back(sel);
  }
  // bits (raw bytes; the count is its only number)
  t.push_back(make("bits", {"bits", "--seed", kSeed}, {{"-n", "16"}}));
  // release (the table on stdin; the hostile value in each option, and in a noised cell)
  Template release_exact = make("release_discrete_gaussian_exact",
                                {"release", "--mechanism", "discrete-gaussian", "--column", "count", "--seed", kSeed},
                                {{"--epsilon", "1"}, {"--delta", "1e-6"}, {"--sensitivity", "1"},
                                 {"--contributions", "1"}, {"--digits", "20"}, {"--max-input-bytes", "1000"}});
  release_exact.stdin_text = "region,count\nNorth,5\n\"East, coastal\",7\n";
  t.push_back(release_exact);
  Template release_zcdp = make("release_discrete_gaussian_zcdp",
                               {"release", "--mechanism", "discrete-gaussian", "--column", "count", "--column",
                                "sum", "--seed", kSeed},
                               {{"--epsilon", "1"}, {"--delta", "1e-6"}, {"--sensitivity", "1"}, {"--contributions", "2"}});
  release_zcdp.stdin_text = "region,count,sum\nNorth,5,70\n";
  t.push_back(release_zcdp);
  Template release_laplace = make("release_discrete_laplace",
                                  {"release", "--mechanism", "discrete-laplace", "--column", "count", "--seed", kSeed},
                                  {{"--epsilon", "1"}, {"--sensitivity", "1"}, {"--contributions", "1"}});
  release_laplace.stdin_text = "count\n5\n";
  t.push_back(release_laplace);
  Template release_decimal = make("release_decimal",
                                  {"release", "--mechanism", "discrete-laplace", "--column", "price", "--seed", kSeed},
                                  {{"--epsilon", "1"}, {"--granularity", "0.01"}, {"--sensitivity", "1/2"}});
  release_decimal.stdin_text = "price\n12.30\n";
  t.push_back(release_decimal);
  Template release_cell = make("release_cell",
                               {"release", "--mechanism", "discrete-laplace", "--epsilon", "1", "--column", "count",
                                "--seed", kSeed},
                               {{"<stdin>", "5"}});
  release_cell.stdin_text = "id,count\n1,{line}\n";
  t.push_back(release_cell);
  // aggregate (raw records on stdin; the hostile value in each option, and in a value cell)
  Template aggregate = make("aggregate",
                            {"aggregate", "--privacy-unit", "user", "--group-by", "g", "--count", "--sum", "x",
                             "--seed", kSeed},
                            {{"--bounds", "0,10"}, {"--epsilon", "1"}, {"--delta", "1e-6"}, {"--max-groups", "2"},
                             {"--max-rows", "3"}, {"--split", "1/3"}, {"<stdin>", "5"}});
  aggregate.stdin_text = "user,g,x\nu1,a,{line}\nu2,\"b, c\",3\n";
  t.push_back(aggregate);
  // estimate sparse-mean (rows on stdin; the hostile value in each option, and in a cell)
  Template estimate = make("estimate_sparse_mean", {"estimate", "sparse-mean", "--seed", kSeed},
                           {{"--s", "1"}, {"--bound", "4"}, {"--epsilon", "1"}, {"--delta", "1e-6"},
                            {"--digits", "20"}, {"<stdin>", "1.5"}});
  estimate.stdin_text = "a,b\n{line},2\n-1,0.5\n";
  t.push_back(estimate);
  return t;
}

// The arguments are shared, not copied: gtest copies every parameter several times while it
// registers the ~3,700 cases, at every start of this test program (ctest starts it for each of
// the cli suite's entries), and some arguments are 100,000 characters long; under
// AddressSanitizer each freed copy sits in its quarantine, which made every start cost ~0.3 s
// and 240 MB (now ~0.15 s and 96 MB).
using Args = std::shared_ptr<const std::vector<std::string>>;

struct Case {
  std::string name;
  Args args;
  std::string stdin_text;
  std::string parameter;  // without dashes
  std::string other_parameter;  // pairs: an exit-2 message may name either parameter
  bool audit = false;
  bool baseline = false;  // all parameters valid: must exit 0 (or 3 for an audit)
};

std::string sanitize(const std::string& s) {
  std::string out;
  for (char c : s) out += (std::isalnum(static_cast<unsigned char>(c)) != 0) ? c : '_';
  return out;
}

std::vector<Case> cases() {
  std::vector<Case> out;
  for (const auto& t : templates()) {
    // The template itself, every parameter valid: must succeed (exit 0; 0 or 3 for an audit),
    // so that the hostile cases below exit 2 for the hostile value, not for a broken template.
    Case baseline;
    baseline.name = sanitize(t.name) + "__baseline";
    std::vector<std::string> baseline_args = t.args;
    baseline.audit = t.audit;
    baseline.baseline = true;
    baseline.stdin_text = t.stdin_text;
    for (const auto& [option, value] : t.params) {
      if (option == "<stdin>") {
        baseline.stdin_text.replace(baseline.stdin_text.find("{line}"), 6, value);
      } else {
        baseline_args.push_back(option);
        baseline_args.push_back(value);
      }
    }
    baseline.args = std::make_shared<const std::vector<std::string>>(std::move(baseline_args));
    out.push_back(std::move(baseline));
    const std::vector<Value> values = hostile_values();
    for (std::size_t hostile = 0; hostile < t.params.size(); ++hostile) {
      const std::string& option = t.params[hostile].first;
      const bool is_count = option == "-n" || option == "--samples" || option == "--calls";
      for (const auto& v : values) {
        // A count within its limit is a legitimate (long) request, not a hostile one:
        // 10^9 samples, or 10^12 bytes from `bits` (its limit).
        if (is_count && (v.name == "ten_to_9" || (t.name == "bits" && v.name == "ten_to_12"))) continue;
        Case c;
        std::vector<std::string> args = t.args;
        c.audit = t.audit;
        c.parameter = option;
        while (!c.parameter.empty() && c.parameter[0] == '-') c.parameter.erase(0, 1);
        c.name = sanitize(t.name) + "__" + sanitize(c.parameter) + "__" + v.name;
        std::string line = "0";
        for (std::size_t i = 0; i < t.params.size(); ++i) {
          const std::string& value = i == hostile ? v.text : t.params[i].second;
          if (t.params[i].first == "<stdin>") {
            line = value;
          } else {
            args.push_back(t.params[i].first);
            args.push_back(value);
          }
        }
        c.args = std::make_shared<const std::vector<std::string>>(std::move(args));
        c.stdin_text = t.stdin_text;
        if (const auto at = c.stdin_text.find("{line}"); at != std::string::npos) {
          c.stdin_text.replace(at, 6, line);
        }
        out.push_back(std::move(c));
      }
    }
  }
  return out;
}

// Pairs (found 2026-11-23 by a sweep over pairs of values: `convert gdp --mu 1e6 --delta
// 1 - 10^-5000` ran for minutes, `compose pure-dp --method optimal --epsilon 1e-300 --k 1 --delta
// 1e-300` exited 1): for every accounting template, every pair of its parameters takes every
// pair of the edge values below, the other parameters staying valid. The slow-input fixes added
// 10^100000 (and 10^-100000, 10^6 as sensitivities, k = 10^6: commands that once took
// 7-120 s); --k takes 10^6 only with the other value 10^+-100000 (k = 10^6 with
// delta = 1 - 10^-5000 is a legal, ~1 s request, kept out of this test's time budget).
std::vector<Value> edge_values() {
  return {{"zero", "0"},
          {"ten_to_minus_100000", "1e-100000"},
          {"one", "1"},
          {"one_minus_1e_5000", "0." + std::string(5000, '9')},
          {"ten_to_6", "1e6"},
          {"ten_to_100000", "1e100000"}};
}

bool extreme_exponent(const Value& v) {
  return v.name == "ten_to_minus_100000" || v.name == "ten_to_100000";
}

std::vector<Case> pair_cases() {
  std::vector<Case> out;
  std::vector<std::vector<std::string>> seen;  // identical grids from templates with equal args
  for (const auto& t : templates()) {
    const std::string& command = t.args.front();
    if (command != "calibrate" && command != "profile" && command != "convert" &&
        command != "compose") {
      continue;
    }
    for (std::size_t a = 0; a < t.params.size(); ++a) {
      for (std::size_t b = a + 1; b < t.params.size(); ++b) {
        std::vector<std::string> key = t.args;
        key.push_back(t.params[a].first);
        key.push_back(t.params[b].first);
        if (std::find(seen.begin(), seen.end(), key) != seen.end()) continue;
        seen.push_back(key);
        for (const auto& va : edge_values()) {
          for (const auto& vb : edge_values()) {
            if ((t.params[a].first == "--k" && va.name == "ten_to_6" && !extreme_exponent(vb)) ||
                (t.params[b].first == "--k" && vb.name == "ten_to_6" && !extreme_exponent(va))) {
              continue;
            }
            Case c;
            std::vector<std::string> args = t.args;
            for (std::size_t i = 0; i < t.params.size(); ++i) {
              args.push_back(t.params[i].first);
              args.push_back(i == a ? va.text : i == b ? vb.text : t.params[i].second);
            }
            c.args = std::make_shared<const std::vector<std::string>>(std::move(args));
            c.parameter = t.params[a].first.substr(2);
            c.other_parameter = t.params[b].first.substr(2);
            c.name = sanitize(t.name) + "__" + sanitize(c.parameter) + "_" + va.name + "__" +
                     sanitize(c.other_parameter) + "_" + vb.name;
            out.push_back(std::move(c));
          }
        }
      }
    }
  }
  return out;
}

struct Outcome {
  int status = -1;
  std::string out, err;
};

// gtest prints the parameter in test listings (and ctest names): the case name, not its bytes.
void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

class HostileInput : public ::testing::TestWithParam<Case> {};

TEST_P(HostileInput, EndsWithExitZeroOrTwo) {
  const Case& c = GetParam();
  // Watchdog: the command runs on its own thread; if it has not returned after 60 s the whole
  // test program stops with a failure (a hung thread cannot be cancelled).
  std::packaged_task<Outcome()> task([&c] {
    Outcome o;
    std::istringstream in(c.stdin_text);
    std::ostringstream out, err;
    Io io{in, out, err, false};
    o.status = run_exactdp(*c.args, io);
    o.out = out.str();
    o.err = err.str();
    // MPFR keeps per-thread caches (constants such as pi and log 2); free this thread's before
    // it ends, or LeakSanitizer reports them.
    mpfr_free_cache2(MPFR_FREE_LOCAL_CACHE);
    return o;
  });
  auto result = task.get_future();
  std::thread worker(std::move(task));
  if (result.wait_for(std::chrono::seconds(60)) != std::future_status::ready) {
    std::fprintf(stderr, "HostileInput %s: no result after 60 s (hang); stopping\n", c.name.c_str());
    std::fflush(stderr);
    std::_Exit(1);
  }
  worker.join();
  const Outcome o = result.get();
  EXPECT_EQ(o.err.find("not implemented yet"), std::string::npos)
      << "a command answered 'not implemented yet': " << o.err.substr(0, 500);
  if (c.baseline) {
    EXPECT_TRUE(o.status == 0 || (c.audit && o.status == 3))
        << "the valid template exits " << o.status << "\nstderr: " << o.err.substr(0, 2000);
    return;
  }
  const bool allowed = o.status == 0 || o.status == 2 || (c.audit && o.status == 3);
  EXPECT_TRUE(allowed) << "exit " << o.status << "\nstderr: " << o.err.substr(0, 2000);
  if (o.status == 2) {
    EXPECT_FALSE(o.err.empty()) << "exit 2 without a message";
    EXPECT_TRUE(o.out.empty()) << "exit 2 after printing on stdout: " << o.out.substr(0, 500);
    if (c.parameter != "<stdin>") {
      const bool named = o.err.find(c.parameter) != std::string::npos ||
                         (!c.other_parameter.empty() &&
                          o.err.find(c.other_parameter) != std::string::npos);
      EXPECT_TRUE(named) << "the message does not name the parameter '" << c.parameter << "'"
                         << (c.other_parameter.empty() ? "" : " (nor '" + c.other_parameter + "')")
                         << ": " << o.err.substr(0, 2000);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllCommands, HostileInput, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<Case>& param_info) { return param_info.param.name; });
INSTANTIATE_TEST_SUITE_P(AccountingPairs, HostileInput, ::testing::ValuesIn(pair_cases()),
                         [](const ::testing::TestParamInfo<Case>& param_info) { return param_info.param.name; });

// --seed-file with a hostile file: every command that takes a seed exits 2 naming seed-file,
// prints nothing on stdout and never echoes the file's content. A valid file gives the same
// stream as --seed with the same digits.
class SeedFiles {
 public:
  SeedFiles() {
    std::string tmpl = ::testing::TempDir() + "exactdp_seed_files_XXXXXX";
    if (mkdtemp(tmpl.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    dir_ = tmpl;
  }
  ~SeedFiles() {
    for (const auto& f : files_) std::remove(f.c_str());
    std::remove(dir_.c_str());
  }
  SeedFiles(const SeedFiles&) = delete;
  SeedFiles& operator=(const SeedFiles&) = delete;
  std::string write(const std::string& name, const std::string& content) {
    const std::string path = dir_ + "/" + name;
    std::ofstream(path, std::ios::binary) << content;
    files_.push_back(path);
    return path;
  }
  // A named pipe nobody writes to: opening it must not hang, reading it gives nothing.
  std::string fifo(const std::string& name) {
    const std::string path = dir_ + "/" + name;
    if (mkfifo(path.c_str(), 0600) != 0) throw std::runtime_error("mkfifo failed");
    files_.push_back(path);
    return path;
  }
  [[nodiscard]] const std::string& dir() const { return dir_; }

 private:
  std::string dir_;
  std::vector<std::string> files_;
};

Outcome run_args(const std::vector<std::string>& args) {
  std::istringstream in;
  std::ostringstream out, err;
  Io io{in, out, err, false};
  Outcome o;
  o.status = run_exactdp(args, io);
  o.out = out.str();
  o.err = err.str();
  return o;
}

std::vector<std::vector<std::string>> seeded_commands() {
  return {{"sample", "discrete-gaussian", "--sigma2", "9/4", "-n", "3"},
          {"sample", "bernoulli-exp", "--gamma", "1/2", "-n", "3"},
          {"audit", "discrete-gaussian", "--sigma2", "9/4", "--samples", "1000"},
          {"audit-timing", "discrete-laplace", "--scale", "3/2", "--calls", "1000"},
          {"bits", "-n", "16"}};
}

TEST(HostileSeedFile, RefusedWithExitTwoNamingSeedFile) {
  SeedFiles files;
  const std::string secretish = "deadbeef" + std::string(55, 'c');  // 63 digits
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"missing", files.dir() + "/does_not_exist"},
      {"empty", files.write("empty", "")},
      {"newline_only", files.write("newline_only", "\n")},
      {"63_digits", files.write("d63", secretish + "\n")},
      {"65_digits", files.write("d65", std::string(65, 'a'))},
      {"two_newlines", files.write("two_newlines", std::string(64, 'a') + "\n\n")},
      {"crlf", files.write("crlf", std::string(64, 'a') + "\r\n")},
      {"non_hex", files.write("non_hex", std::string(63, 'a') + "g\n")},
      {"nul_byte", files.write("nul_byte", std::string(32, 'a') + std::string(1, '\0') + std::string(31, 'a'))},
      {"all_zero", files.write("all_zero", std::string(64, '0') + "\n")},
      {"directory", files.dir()},
      {"long_garbage", files.write("long_garbage", std::string(1 << 20, 'f'))},
      {"dev_zero", "/dev/zero"},
      {"fifo_without_writer", files.fifo("fifo")},
  };
  for (const auto& command : seeded_commands()) {
    for (const auto& [what, path] : bad) {
      std::vector<std::string> args = command;
      args.insert(args.end(), {"--seed-file", path});
      const Outcome o = run_args(args);
      EXPECT_EQ(o.status, 2) << command[0] << " " << what << ": " << o.err;
      EXPECT_NE(o.err.find("seed-file"), std::string::npos) << command[0] << " " << what << ": " << o.err;
      EXPECT_TRUE(o.out.empty()) << command[0] << " " << what;
      EXPECT_EQ(o.err.find("deadbeef"), std::string::npos) << "the file's content was echoed: " << o.err;
    }
    // Both options at once: a usage error.
    std::vector<std::string> both = command;
    both.insert(both.end(), {"--seed", kSeed, "--seed-file", files.write("ok", kSeed + "\n")});
    const Outcome o = run_args(both);
    EXPECT_EQ(o.status, 2) << command[0] << ": " << o.err;
    EXPECT_NE(o.err.find("--seed-file"), std::string::npos) << o.err;
    EXPECT_TRUE(o.out.empty());
  }
}

TEST(HostileSeedFile, AValidFileEqualsTheSameSeedOnTheCommandLine) {
  SeedFiles files;
  for (const std::string& content : {kSeed, kSeed + "\n"}) {
    const std::string path = files.write("seed", content);
    for (const auto& command : seeded_commands()) {
      if (command[0] == "audit-timing") continue;  // its report holds measured times
      std::vector<std::string> by_file = command, by_arg = command;
      by_file.insert(by_file.end(), {"--seed-file", path});
      by_arg.insert(by_arg.end(), {"--seed", kSeed});
      const Outcome f = run_args(by_file);
      const Outcome a = run_args(by_arg);
      EXPECT_TRUE(f.status == 0 || (command[0] == "audit" && f.status == 3)) << f.err;
      EXPECT_EQ(f.status, a.status);
      EXPECT_EQ(f.out, a.out) << command[0];
      EXPECT_NE(f.err.find("warning: --seed-file gives a reproducible stream"), std::string::npos) << f.err;
      EXPECT_NE(a.err.find("warning: --seed gives a reproducible stream"), std::string::npos) << a.err;
    }
  }
}

// The all-zero seed: refused naming seed, accepted with --allow-weak-seed (still with the warning).
TEST(HostileSeedFile, AllZeroSeedNeedsAllowWeakSeed) {
  const std::string zero(64, '0');
  for (const auto& command : seeded_commands()) {
    std::vector<std::string> args = command;
    args.insert(args.end(), {"--seed", zero});
    const Outcome refused = run_args(args);
    EXPECT_EQ(refused.status, 2) << command[0] << ": " << refused.err;
    EXPECT_NE(refused.err.find("seed"), std::string::npos) << refused.err;
    EXPECT_NE(refused.err.find("--allow-weak-seed"), std::string::npos) << refused.err;
    EXPECT_TRUE(refused.out.empty());
    args.push_back("--allow-weak-seed");
    const Outcome allowed = run_args(args);
    EXPECT_TRUE(allowed.status == 0 || allowed.status == 3) << command[0] << ": " << allowed.err;
    EXPECT_NE(allowed.err.find("warning: --seed gives a reproducible stream"), std::string::npos) << allowed.err;
  }
  // Without a seed there is no warning.
  EXPECT_TRUE(run_args({"bits", "-n", "16"}).err.empty());
}


// The extreme-but-documented inputs of the event composition, DP-SGD calibration and selection
// surfaces: each is refused at once (exit 2 naming the parameter, nothing on stdout) or
// answers; never "internal error" (exit 1) or an abort. The ones listed here are decided by the
// up-front limits (accounting/composition_limits.h, mechanisms/selection/score_budget.h), so they are
// cheap; bench/hostile_limits_bench.sh times them against the binary.
struct SurfaceCase {
  std::vector<std::string> args;
  std::string stdin_text;
  std::string needle;  // the parameter named on exit 2 ("" when the command must answer)
};

TEST(HostileSurfaces, EventsDpSgdAndSelectionAnswerOrAreRefused) {
  const std::string nines = "0." + std::string(5000, '9');
  const std::string long_rational = "1" + std::string(4998, '3') + "/" + std::string(5000, '7');
  std::string huge_scores;
  for (int i = 0; i < 1000; ++i) huge_scores += "1e100000\n";
  std::string spread_scores;
  for (int i = 0; i < 3000; ++i) spread_scores += std::to_string(100 * i) + "\n";
  const std::string seed(64, 'a');
  const std::vector<SurfaceCase> cases = {
      {{"compose", "--event", "discrete-gaussian:sigma2=1e-5000", "--delta", "1e-5"}, "", "sigma2 = "},
      {{"compose", "--event", "discrete-gaussian:sigma2=1e-12", "--delta", "1e-5"}, "", "sigma2 = "},
      {{"compose", "--event", "poisson-gaussian:sigma=1,q=1e-5000", "--count", "100", "--delta", "1e-5"}, "", "q = "},
      {{"compose", "--event", "poisson-gaussian:sigma=1,q=1e-40", "--count", "100", "--delta", "1e-5"}, "", "q = "},
      {{"compose", "--event", "poisson-discrete-gaussian:sigma2=1e-5000,q=0.01", "--count", "100", "--delta", "1e-5"},
       "", "sigma2 = "},
      {{"compose", "--event", "poisson-discrete-gaussian:sigma2=1e-9,q=0.01", "--count", "100", "--delta", "1e-5"},
       "", "sigma2 = "},
      {{"compose", "--event", "poisson-discrete-laplace:scale=1e100000,q=0.01", "--count", "100", "--delta", "1e-5"},
       "", "scale = "},
      {{"compose", "--event", "poisson-gaussian:sigma=" + long_rational + ",q=0.01", "--count", "10", "--delta",
        "1e-5", "--neighbouring", "replace-one"},
       "", "sigma = "},
      {{"compose", "--event", "gaussian:sigma=1e100000", "--delta", "1e-5"}, "", "sigma = "},
      {{"calibrate", "dp-sgd", "--q", nines, "--steps", "1000", "--epsilon", "1", "--delta", "1e-5"}, "", "q = "},
      {{"calibrate", "dp-sgd", "--q", "0.01", "--steps", "1000", "--epsilon", long_rational, "--delta", "1e-5"},
       "", "epsilon = "},
      {{"select", "--mechanism", "exponential", "--epsilon", "1", "--sensitivity", "1", "--seed", seed},
       huge_scores, "scores: over the size limit"},
      {{"select", "--mechanism", "permute-and-flip", "--epsilon", "1", "--sensitivity", "1", "--top", "3000",
        "--seed", seed},
       spread_scores, "top = "},
      // Within the limits: answers.
      {{"compose", "--event", "poisson-discrete-gaussian:sigma2=1e-6,q=0.01", "--count", "10", "--delta", "1e-5"},
       "", ""},
      {{"compose", "--event", "gaussian:sigma=1e30", "--event", "pure-dp:epsilon=1/3", "--delta", "1e-5"}, "", ""},
      {{"select", "--mechanism", "report-noisy-max", "--epsilon", "1", "--sensitivity", "1", "--top", "100",
        "--seed", seed},
       spread_scores, ""},
  };
  for (const auto& c : cases) {
    const auto r = test_support::run_cli(c.args, c.stdin_text);
    const std::string what = c.args[0] + " " + c.args[1] + " " + c.args[2].substr(0, 60);
    EXPECT_EQ(r.err.find("internal error"), std::string::npos) << what << ": " << r.err.substr(0, 300);
    EXPECT_EQ(r.err.find("not implemented yet"), std::string::npos) << what;
    if (c.needle.empty()) {
      EXPECT_EQ(r.status, 0) << what << ": " << r.err.substr(0, 300);
    } else {
      test_support::expect_rejected_naming(r, c.needle);
    }
  }
}

}  // namespace cli_hostile_inputs_test
}  // namespace
}  // namespace exactdp::cli
