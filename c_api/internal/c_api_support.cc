#include <exactdp/c_api/internal/c_api_support.h>

#include <algorithm>
#include <cstring>

#include <exactdp/core/rational.h>

namespace exactdp::internal {
namespace {

constexpr std::size_t kMessageBytes = 1024;
// Plain storage with no destructor: usable from any thread at any time, never allocates.
thread_local char t_message[kMessageBytes] = {0};

}  // namespace

void set_last_error(std::string_view message) noexcept { set_last_error("", message); }

void set_last_error(std::string_view prefix, std::string_view message) noexcept {
  const std::size_t p = std::min(prefix.size(), kMessageBytes - 1);
  std::memcpy(t_message, prefix.data(), p);
  const std::size_t n = std::min(message.size(), kMessageBytes - 1 - p);
  std::memcpy(t_message + p, message.data(), n);
  t_message[p + n] = '\0';
}

void clear_last_error() noexcept { t_message[0] = '\0'; }

const char* last_error() noexcept { return t_message; }

int code_of_current_exception() noexcept {
  // Most derived first: LimitError is a ParameterError, ParameterError a std::invalid_argument.
  try {
    throw;
  } catch (const CApiError& e) {
    set_last_error(e.what());
    return e.code();
  } catch (const LimitError& e) {
    set_last_error(e.what());
    return EXACTDP_E_LIMIT;
  } catch (const ParameterError& e) {
    set_last_error(e.what());
    return EXACTDP_E_PARAM;
  } catch (const std::bad_alloc&) {
    set_last_error("out of memory");
    return EXACTDP_E_NOMEM;
  } catch (const std::invalid_argument& e) {
    set_last_error(e.what());  // a library precondition not yet phrased as a ParameterError
    return EXACTDP_E_PARAM;
  } catch (const std::exception& e) {
    set_last_error("internal error: ", e.what());
    return EXACTDP_E_INTERNAL;
  } catch (...) {
    set_last_error("internal error: unknown exception");
    return EXACTDP_E_INTERNAL;
  }
}

mpq_class rational_argument(const char* parameter, const char* text) {
  require_non_null(text, parameter);
  return parse_rational(parameter, text);
}

void write_text(std::string_view text, char* buf, std::size_t len, const char* argument) {
  require_non_null(buf, argument);
  if (text.size() >= len) {
    if (len > 0) buf[0] = '\0';
    throw CApiError(EXACTDP_E_BUFFER, std::string(argument) + ": buffer too small: " +
                                          std::to_string(text.size() + 1) + " bytes needed, len = " +
                                          std::to_string(len));
  }
  std::memcpy(buf, text.data(), text.size());
  buf[text.size()] = '\0';
}

}  // namespace exactdp::internal
