// The exception barrier of the C interface (c_api/internal/c_api_support.h): every kind of
// exception becomes its code and a message, never an unwinding into C; the message buffer is
// thread-local and bounded. Failures that the public calls cannot provoke on demand (out of
// memory, an unexpected exception) are thrown here directly.
#include <gtest/gtest.h>

#include <new>
#include <stdexcept>
#include <string>
#include <thread>

#include <exactdp/exactdp.h>
#include <exactdp/c_api/internal/c_api_support.h>
#include <exactdp/core/errors.h>

namespace exactdp::internal {
namespace {

TEST(CApiBarrier, MapsEveryExceptionToItsCode) {
  EXPECT_EQ(guard([] { return EXACTDP_OK; }), EXACTDP_OK);
  EXPECT_STREQ(exactdp_last_error(), "");

  EXPECT_EQ(guard([]() -> int { throw std::bad_alloc(); }), EXACTDP_E_NOMEM);
  EXPECT_STREQ(exactdp_last_error(), "out of memory");

  EXPECT_EQ(guard([]() -> int { throw ParameterError::out_of_range("x", "-1", "x > 0"); }),
            EXACTDP_E_PARAM);
  EXPECT_STREQ(exactdp_last_error(), "x = -1 is out of range: allowed x > 0");

  EXPECT_EQ(guard([]() -> int { throw LimitError("digits", "digits: over the limit"); }),
            EXACTDP_E_LIMIT);
  EXPECT_EQ(guard([]() -> int { throw std::invalid_argument("digits = 0"); }), EXACTDP_E_PARAM);
  EXPECT_EQ(guard([]() -> int { throw CApiError(EXACTDP_E_BUFFER, "buf: small"); }),
            EXACTDP_E_BUFFER);
  EXPECT_STREQ(exactdp_last_error(), "buf: small");

  EXPECT_EQ(guard([]() -> int { throw std::domain_error("log of a negative interval"); }),
            EXACTDP_E_INTERNAL);
  EXPECT_STREQ(exactdp_last_error(), "internal error: log of a negative interval");
  EXPECT_EQ(guard([]() -> int { throw 42; }), EXACTDP_E_INTERNAL);
  EXPECT_STREQ(exactdp_last_error(), "internal error: unknown exception");
}

TEST(CApiBarrier, MessagesAreThreadLocalAndBounded) {
  const std::string long_text(5000, 'm');
  EXPECT_EQ(guard([&]() -> int { throw std::invalid_argument(long_text); }), EXACTDP_E_PARAM);
  EXPECT_EQ(std::string(exactdp_last_error()), long_text.substr(0, 1023));
  std::string other;
  std::thread t([&] {
    other = exactdp_last_error();  // a new thread starts with no message
    (void)guard([]() -> int { throw std::invalid_argument("in the thread"); });
  });
  t.join();
  EXPECT_EQ(other, "");
  EXPECT_EQ(std::string(exactdp_last_error()), long_text.substr(0, 1023));
}

TEST(CApiBarrier, WriteTextFitsOrFailsCleanly) {
  char buf[4] = {'x', 'x', 'x', 'x'};
  EXPECT_EQ(guard([&] { write_text("abc", buf, sizeof buf, "buf"); return EXACTDP_OK; }), EXACTDP_OK);
  EXPECT_STREQ(buf, "abc");
  EXPECT_EQ(guard([&] { write_text("abcd", buf, sizeof buf, "buf"); return EXACTDP_OK; }),
            EXACTDP_E_BUFFER);
  EXPECT_STREQ(buf, "");
  EXPECT_STREQ(exactdp_last_error(), "buf: buffer too small: 5 bytes needed, len = 4");
}

}  // namespace
}  // namespace exactdp::internal
