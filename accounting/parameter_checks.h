// parameter_checks.h — the named range checks of accounting parameters, written once.
//
// Each check throws ParameterError (core/errors.h; exit 2 in the CLI) whose message names the
// parameter, the value given (abbreviated) and the allowed range, e.g.
//   require_open_unit("delta", d)   ->  "delta = 0 is out of range: allowed 0 < delta < 1".
// The library validates its inputs with these; the CLI does not repeat them (it may call a
// library validate_* function first, to report a bad parameter before reading its own options).
//
// Thread-safety: pure functions.
#pragma once

#include <gmpxx.h>

#include <string>

namespace exactdp::accounting {

// value >= 0: "name >= 0".
void require_nonnegative(const char* name, const mpq_class& value);
// value > 0: "name > 0".
void require_positive(const char* name, const mpq_class& value);
// 0 < value < 1: "0 < name < 1" (a delta, a sampling rate).
void require_open_unit(const char* name, const mpq_class& value);
// 0 < value <= maximum: "0 < name <= maximum_text".
void require_positive_at_most(const char* name, const mpq_class& value, const mpq_class& maximum,
                              const std::string& maximum_text);
// 0 <= value <= maximum: "0 <= name <= maximum_text".
void require_nonnegative_at_most(const char* name, const mpq_class& value,
                                 const mpq_class& maximum, const std::string& maximum_text);
// An integer sensitivity >= 1: "an integer sensitivity >= 1".
void require_integer_sensitivity(const mpz_class& sensitivity);

}  // namespace exactdp::accounting
