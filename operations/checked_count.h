// checked_count.h — a count from its integer text in a closed range, checked once for every face
// (the command line's options, Python's arguments, the operations' own counts); an optional
// rational from its text, when given.
//
// Example:
//   const unsigned long long n = checked_count("points", "120", 2, 2000);
//   const std::optional<mpq_class> delta = optional_rational("delta", request.delta);
#pragma once

#include <gmpxx.h>

#include <optional>
#include <string>
#include <string_view>

namespace exactdp::operations {

// The integer `text` when minimum <= it <= maximum; else ParameterError naming `name`
// ("NAME = TEXT is out of range: MIN <= NAME <= MAX"), or the parse error of parse_integer.
[[nodiscard]] unsigned long long checked_count(const std::string& name, const std::string& text,
                                               unsigned long long minimum, unsigned long long maximum);

// parse_rational(name, *text) when text is given, else nullopt.
[[nodiscard]] std::optional<mpq_class> optional_rational(std::string_view name, const std::optional<std::string>& text);

}  // namespace exactdp::operations
