// c_api_support.h — what every function of the C interface (<exactdp/exactdp.h>) shares: the
// thread-local error message, the exception barrier, argument checks and text output.
//
// The barrier: every extern "C" entry point is `return internal::guard([&] { ...; return 0; });`.
// guard clears this thread's message, runs the body, and maps every exception to a code and a
// message (ParameterError -> EXACTDP_E_PARAM, LimitError -> EXACTDP_E_LIMIT, std::bad_alloc ->
// EXACTDP_E_NOMEM, CApiError -> its own code, anything else -> EXACTDP_E_INTERNAL), so nothing
// unwinds into C. GMP's allocation functions are the guarded ones of core/gmp_allocation.h
// (installed on the first call at the latest): a GMP allocation that fails or is over the
// per-number cap throws GmpAllocationError, a LimitError, so it returns EXACTDP_E_LIMIT with a
// message naming "memory" instead of aborting the C caller. The message lives in a fixed thread-local buffer: recording it never
// allocates, so it works while handling std::bad_alloc.
#pragma once

#include <gmpxx.h>

#include <cstddef>
#include <exception>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <optional>
#include <utility>
#include <vector>
#include <string_view>

#include <exactdp/exactdp.h>
#include <exactdp/c_api/internal/law_calls.h>
#include <exactdp/laws/law.h>
#include <exactdp/samplers/bit_source.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/gmp_allocation.h>
#include <exactdp/operations/spelling.h>

// The opaque handles of exactdp.h (global names: the C header declares them at file scope).
struct exactdp_bits {
  std::unique_ptr<exactdp::BitSource> source;
};

// Every sampler handle is a sampler of the law registry (laws/registry.h): the law, its validated
// parameters and its ready laws::Sampler (plain or hardened, fixed when made). exactdp_sampler_new
// makes any of them by name; the per-law constructors (exactdp_discrete_gaussian_new, ...) are
// that call at a fixed law (c_api_sampler.cc).
struct exactdp_sampler : exactdp::internal::LawSampler {};

namespace exactdp::internal {

// An error of the C interface itself (a NULL pointer, a small buffer, an unsupported call).
class CApiError : public std::runtime_error {
 public:
  CApiError(int code, const std::string& message) : std::runtime_error(message), code_(code) {}
  [[nodiscard]] int code() const noexcept { return code_; }

 private:
  int code_;
};

// This thread's message ("" after a successful call). Truncated to the buffer (1 KiB).
void set_last_error(std::string_view message) noexcept;
void set_last_error(std::string_view prefix, std::string_view message) noexcept;
void clear_last_error() noexcept;
[[nodiscard]] const char* last_error() noexcept;

// Maps the exception being handled (inside a catch block) to a code, recording its message.
[[nodiscard]] int code_of_current_exception() noexcept;

template <class Body>
[[nodiscard]] int guard(Body&& body) noexcept {
  clear_last_error();
  install_gmp_allocation_guard();  // once per process (core/gmp_allocation.h)
  try {
    return body();
  } catch (...) {
    return code_of_current_exception();
  }
}

// EXACTDP_E_NULL naming `argument` unless p is non-null.
template <class T>
void require_non_null(const T* p, const char* argument) {
  if (p == nullptr) throw CApiError(EXACTDP_E_NULL, std::string(argument) + ": null pointer");
}

// Reads decimal text exactly (core/rational.h); NULL is EXACTDP_E_NULL naming it.
[[nodiscard]] mpq_class rational_argument(const char* parameter, const char* text);

// Copies text and its NUL into buf[0..len); EXACTDP_E_BUFFER naming `argument` (and writing ""
// when len > 0) when it does not fit.
void write_text(std::string_view text, char* buf, std::size_t len, const char* argument);

}  // namespace exactdp::internal

namespace exactdp::internal {

// flags of a sampler constructor: true for EXACTDP_HARDENED, false for 0; EXACTDP_E_PARAM naming
// "flags" for unknown bits. Defined in c_api_sampler.cc.
[[nodiscard]] bool hardened_flag(int flags);

// How the C interface names parameters in the operations' messages (operations/spelling.h): as
// its arguments ("tau_bits", "missing required parameter sigma2"), the hardened flag as
// "hardened (EXACTDP_HARDENED)".
inline const operations::Spelling kCSpelling{"", "parameter", "", false, " (EXACTDP_HARDENED)"};

// The generic sampler constructor (c_api_law.cc): the operation `sample` (operations/sample.h,
// the command line's and Python's checks, in the C spelling) in a handle. tau_bits: its decimal
// text, or nullopt for the default.
[[nodiscard]] std::unique_ptr<exactdp_sampler> make_sampler(const char* law,
                                                            const std::vector<std::pair<std::string, std::string>>& given,
                                                            bool hardened, const std::optional<std::string>& tau_bits);

// For the accounting calls: a hardened sampler's certified tau_upper (nullptr for a plain
// sampler). Defined in c_api_sampler.cc.
[[nodiscard]] const mpq_class* tau_upper_or_null(const exactdp_sampler& s) noexcept;

// The (name, value) pairs of a registry call (exactdp_sampler_new, exactdp_law_delta,
// exactdp_law_calibrate), each pointer checked (EXACTDP_E_NULL naming "names[i]").
[[nodiscard]] std::vector<std::pair<std::string, std::string>> named_values(const char* const* names,
                                                                            const char* const* values,
                                                                            std::size_t count);

}  // namespace exactdp::internal
