// cli_test_helpers.h — what the CLI tests read and check in a command's output: fields of its
// one-line JSON object, a file it wrote, and the bad-input contract (exit 2, the parameter named
// on stderr, nothing on stdout).
#pragma once

#include <gmpxx.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <exactdp/core/rational.h>
#include "tests/cli/cli_runner.h"

namespace exactdp::test_support {

// The text of "key": "value" in a one-line JSON object, the first at or after `from`; a test
// failure when there is none.
inline std::string json_string_field(const std::string& json, const std::string& key,
                                     std::size_t from = 0) {
  const std::size_t at = json.find("\"" + key + "\": \"", from);
  EXPECT_NE(at, std::string::npos) << key << " in " << json;
  const std::size_t v0 = at + key.size() + 5;
  return json.substr(v0, json.find('"', v0) - v0);
}

// The exact ends of "key": {"lower": "L", "upper": "U"} in a one-line JSON object; a test
// failure when there is none.
inline std::pair<mpq_class, mpq_class> json_interval_field(const std::string& json,
                                                           const std::string& key) {
  const std::size_t at = json.find("\"" + key + "\": {\"lower\": \"");
  EXPECT_NE(at, std::string::npos) << key << " in " << json;
  const std::size_t l0 = json.find("\"lower\": \"", at) + 10;
  const std::size_t l1 = json.find('"', l0);
  const std::size_t u0 = json.find("\"upper\": \"", l1) + 10;
  const std::size_t u1 = json.find('"', u0);
  return {parse_rational("lower", json.substr(l0, l1 - l0)),
          parse_rational("upper", json.substr(u0, u1 - u0))};
}

// The whole of a file a command wrote ("" if it cannot be read).
inline std::string read_text_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// A bad command line and what its error message must contain (the parameter, or the complaint).
struct BadInput {
  std::vector<std::string> args;
  std::string needle;
};

// Bad input is refused: exit status 2, `needle` on stderr, nothing on stdout.
inline void expect_rejected_naming(const CliRun& r, const std::string& needle) {
  EXPECT_EQ(r.status, 2) << needle << ": " << r.out << r.err;
  EXPECT_NE(r.err.find(needle), std::string::npos) << needle << ": " << r.err;
  EXPECT_TRUE(r.out.empty()) << needle << ": " << r.out;
}

}  // namespace exactdp::test_support
