// The zeroing GMP allocator SECURITY.md describes: GMP frees the limbs of sampled values (and of
// every intermediate) without wiping them; an application that wants them wiped installs
// allocation functions whose free and realloc call sodium_memzero first. This test is the
// example: it installs such functions, draws a few plain samples (fast path and GMP path), checks
// that the wiping free was used, and restores the previous functions.
#include <gmp.h>
#include <gtest/gtest.h>
#include <sodium.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <new>

#include <exactdp/samplers/discrete_gaussian.h>
#include <exactdp/samplers/discrete_laplace.h>
#include <exactdp/samplers/seeded_bits.h>

namespace exactdp {
namespace {

std::atomic<unsigned long> wiped_frees{0};

// --- the example: three functions with GMP's signatures (gmp.h, "Custom Allocation") ---
void* zeroing_alloc(std::size_t n) {
  void* p = std::malloc(n);
  if (p == nullptr) throw std::bad_alloc();  // GMP expects allocation never to fail
  return p;
}

void zeroing_free(void* p, std::size_t n) {
  if (p == nullptr) return;
  sodium_memzero(p, n);  // GMP passes the block's size: wipe all of it before giving it back
  std::free(p);
  wiped_frees.fetch_add(1, std::memory_order_relaxed);
}

// realloc must not leave a copy behind: allocate, copy, wipe and free the old block.
void* zeroing_realloc(void* old, std::size_t old_size, std::size_t new_size) {
  void* p = zeroing_alloc(new_size);
  if (old != nullptr) {
    std::memcpy(p, old, old_size < new_size ? old_size : new_size);
    zeroing_free(old, old_size);
  }
  return p;
}
// --- end of the example ---

TEST(ZeroingGmpAllocator, InstallSampleAndRestore) {
  void* (*saved_alloc)(std::size_t) = nullptr;
  void* (*saved_realloc)(void*, std::size_t, std::size_t) = nullptr;
  void (*saved_free)(void*, std::size_t) = nullptr;
  mp_get_memory_functions(&saved_alloc, &saved_realloc, &saved_free);

  // Install before creating GMP values, so no block allocated by one allocator is freed by the
  // other (here both are malloc-based, so mixing would be harmless, but an application whose
  // allocator is not must install it first).
  mp_set_memory_functions(zeroing_alloc, zeroing_realloc, zeroing_free);
  wiped_frees = 0;
  {
    SeededBits bits(Seed{19});
    const auto small = DiscreteGaussianParams::make(mpq_class(9, 4));
    const auto huge = DiscreteGaussianParams::make(mpq_class("1" + std::string(200, '0')));  // GMP path
    const auto laplace = DiscreteLaplaceParams::make(mpq_class(3, 2), mpz_class("123456789012345678901234567890"));
    mpz_class sum = 0;
    for (int i = 0; i < 20; ++i) {
      sum += sample_discrete_gaussian(bits, small);
      sum += sample_discrete_gaussian(bits, huge);
      sum += sample_discrete_laplace(bits, laplace);
    }
    EXPECT_NE(sum, 0);  // false failure probability: negligible (the huge draws are ~10^100)
  }
  const unsigned long frees = wiped_frees.load();
  mp_set_memory_functions(saved_alloc, saved_realloc, saved_free);

  EXPECT_GT(frees, 0u) << "the samples freed no GMP block through the zeroing allocator";
  // Restored: later GMP values no longer go through the zeroing functions.
  const unsigned long before = wiped_frees.load();
  { mpz_class x("123456789012345678901234567890123456789"); x *= x; }
  EXPECT_EQ(wiped_frees.load(), before);
}

}  // namespace
}  // namespace exactdp
