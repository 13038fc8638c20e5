// The C interface's selection under the cost limits (selection_cost.h) and under an exhausted
// address space (core/gmp_allocation.h): an epsilon of 100,001 digits with 50,000 scores is
// EXACTDP_E_LIMIT naming epsilon, up front; a selection that passes the estimates while the
// memory runs out is EXACTDP_E_LIMIT naming memory, returned to the C caller, never abort().
#include <gtest/gtest.h>

#include <iostream>
#include <string>
#include <vector>

#include <exactdp/exactdp.h>

#include "tests/cli/memory_limited_child.h"

namespace exactdp {
namespace {

struct Scores {
  std::vector<std::string> text;
  std::vector<const char*> pointers;
  explicit Scores(int n) {
    for (int i = 1; i <= n; ++i) text.push_back(std::to_string(i));
    for (const auto& t : text) pointers.push_back(t.c_str());
  }
};

int make(const char* mechanism, const char* epsilon, const Scores& s, exactdp_selection** out) {
  return exactdp_selection_new(mechanism, nullptr, epsilon, "1", 0, s.pointers.data(), s.pointers.size(), out);
}

TEST(CApiSelectionCost, TinyEpsilonIsALimitNamingEpsilon) {
  const Scores scores(50000);
  for (const char* m : {"exponential", "permute-and-flip", "report-noisy-max"}) {
    SCOPED_TRACE(m);
    exactdp_selection* s = nullptr;
    EXPECT_EQ(make(m, "1e-100000", scores, &s), EXACTDP_E_LIMIT);
    EXPECT_EQ(s, nullptr);
    EXPECT_EQ(std::string(exactdp_last_error()).rfind("epsilon: ", 0), 0u) << exactdp_last_error();
  }
  exactdp_selection* s = nullptr;
  EXPECT_EQ(make("exponential", "1e-10000", scores, &s), EXACTDP_E_LIMIT);
  ASSERT_EQ(make("exponential", "1e-1000", scores, &s), EXACTDP_OK) << exactdp_last_error();
  exactdp_selection_free(s);
}

TEST(CApiSelectionCost, MemoryExhaustedIsALimitNotAbort) {
#ifdef EXACTDP_TEST_NO_ADDRESS_LIMIT
  GTEST_SKIP() << "an address-space limit does not apply under a sanitizer";
#else
  const Scores scores(31000);  // passes the estimate (about 2^31 bits), needs ~270 MB
  const int status = test_support::run_in_memory_limited_child(std::size_t{64} << 20, [&] {
    exactdp_selection* s = nullptr;
    const int code = make("exponential", "1e-10000", scores, &s);
    std::cerr << code << ": " << exactdp_last_error() << "\n";
    return code == EXACTDP_E_LIMIT && std::string(exactdp_last_error()).rfind("memory: ", 0) == 0 ? 0 : 1;
  });
  ASSERT_FALSE(WIFSIGNALED(status)) << "killed by signal " << WTERMSIG(status);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "the C call did not return EXACTDP_E_LIMIT naming memory";
#endif
}

}  // namespace
}  // namespace exactdp
