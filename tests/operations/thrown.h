// thrown.h — the exception a call throws, for the operations' tests: thrown<ParameterError>(f);
// whether its message contains a text: EXPECT_TRUE(message_contains(e, "allowed at most")).
#pragma once

#include <gtest/gtest.h>

#include <string>

namespace exactdp::operations {

template <typename Error, typename F>
Error thrown(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "no error thrown";
  return Error("", "");
}

// Success when e.what() contains `part`; the failure prints the whole message.
template <typename Error>
::testing::AssertionResult message_contains(const Error& e, const std::string& part) {
  const std::string what = e.what();
  if (what.find(part) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "\"" << part << "\" is not in: " << what;
}

}  // namespace exactdp::operations
