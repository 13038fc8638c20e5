// test_names.h — readable names for value-parameterised tests.
//
// gtest names instances /0, /1, ... unless given a name generator; ctest then shows nothing of the
// parameters (tests/CMakeLists.txt discovers tests with NO_PRETTY_VALUES). test_name_part turns a
// parameter's text into the characters gtest allows in a name: "9/4" -> "9over4",
// "-7" -> "minus7", anything else that is not a letter or digit -> '_'.
#pragma once

#include <cctype>
#include <string>

namespace exactdp::test_support {

inline std::string test_name_part(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (std::isalnum(static_cast<unsigned char>(c)) != 0) {
      out += c;
    } else if (c == '/') {
      out += "over";
    } else if (c == '-') {
      out += "minus";
    } else {
      out += '_';
    }
  }
  return out;
}

}  // namespace exactdp::test_support
