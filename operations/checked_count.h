// checked_count.h — a count from its integer text in a closed range, checked once for every face
// (the command line's options, Python's arguments, the operations' own counts).
//
// Example:
//   const unsigned long long n = checked_count("points", "120", 2, 2000);
#pragma once

#include <string>

namespace exactdp::operations {

// The integer `text` when minimum <= it <= maximum; else ParameterError naming `name`
// ("NAME = TEXT is out of range: MIN <= NAME <= MAX"), or the parse error of parse_integer.
[[nodiscard]] unsigned long long checked_count(const std::string& name, const std::string& text,
                                               unsigned long long minimum, unsigned long long maximum);

}  // namespace exactdp::operations
