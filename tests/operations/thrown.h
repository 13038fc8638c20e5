// thrown.h — the exception a call throws, for the operations' tests: thrown<ParameterError>(f).
#pragma once

#include <gtest/gtest.h>

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

}  // namespace exactdp::operations
