// allocation_count_test.cc — no heap allocation per sample on the machine-integer path
// (BENCHMARKS.md). This file replaces the global operator new/delete of the samplers test program with
// counting versions (they forward to malloc/free, so nothing else changes) and, around the
// measured loop only, installs counting GMP memory functions (GMP and MPFR allocate through
// them). Parameters and bit sources are made before counting starts.
// GCC 12 with the sanitizer flags inlines gtest's `new TestClass` as the built-in operator new and
// then flags the replacement delete's free() as mismatched; both ends are the replacements below
// (malloc and free), so the warning is a false positive here.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

#include <gmp.h>
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>

#include <exactdp/samplers/bernoulli_exp.h>
#include <exactdp/samplers/discrete_gaussian.h>
#include <exactdp/samplers/discrete_laplace.h>
#include <exactdp/samplers/seeded_bits.h>
#include "tests/support/seeds.h"

namespace {
std::atomic<unsigned long> g_news{0};
std::atomic<unsigned long> g_gmp{0};
int* volatile g_sink = nullptr;  // keeps the power check's new/delete from being elided
}  // namespace

void* operator new(std::size_t n) {
  g_news.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) {
  g_news.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

namespace exactdp {
namespace {

void* (*g_alloc)(size_t) = nullptr;
void* (*g_realloc)(void*, size_t, size_t) = nullptr;
void (*g_free)(void*, size_t) = nullptr;
void* counting_alloc(size_t n) {
  g_gmp.fetch_add(1, std::memory_order_relaxed);
  return g_alloc(n);
}
void* counting_realloc(void* p, size_t old_n, size_t n) {
  g_gmp.fetch_add(1, std::memory_order_relaxed);
  return g_realloc(p, old_n, n);
}

// Allocations (operator new + GMP) made by `draws` calls of f.
template <class F>
unsigned long allocations(F f, int draws) {
  mp_get_memory_functions(&g_alloc, &g_realloc, &g_free);
  mp_set_memory_functions(counting_alloc, counting_realloc, g_free);
  const unsigned long news0 = g_news.load(), gmp0 = g_gmp.load();
  for (int i = 0; i < draws; ++i) f();
  const unsigned long total = (g_news.load() - news0) + (g_gmp.load() - gmp0);
  mp_set_memory_functions(g_alloc, g_realloc, g_free);
  return total;
}

TEST(AllocationCount, CounterSeesAllocations) {  // the hook's power
  EXPECT_GT(allocations(
                [] {
                  g_sink = new int(1);
                  delete g_sink;
                },
                10),
            0U);
  EXPECT_GT(allocations([] { mpz_class big("123456789012345678901234567890"); }, 10), 0U);
}

TEST(AllocationCount, MachineIntegerPathAllocatesNothingPerSample) {
  for (const char* s : {"1/100", "1", "100", "10000", "1000000", "1000000000000"}) {
    const auto params = DiscreteGaussianParams::make(mpq_class(s), -3);
    SeededBits bits(test_support::fixed_seed(154, 1));
    EXPECT_EQ(allocations([&] { (void)sample_discrete_gaussian_int64(bits, params); }, 20000), 0U)
        << "sigma2 = " << s;
    std::int64_t out[256];
    EXPECT_EQ(allocations([&] { (void)sample_n(bits, params, out, 256); }, 100), 0U) << "batch, sigma2 = " << s;
  }
  for (const char* s : {"1", "10", "1000000"}) {
    const auto params = DiscreteLaplaceParams::make(mpq_class(s));
    SeededBits bits(test_support::fixed_seed(154, 2));
    EXPECT_EQ(allocations([&] { (void)sample_discrete_laplace_int64(bits, params); }, 20000), 0U)
        << "scale = " << s;
  }
}

}  // namespace
}  // namespace exactdp
