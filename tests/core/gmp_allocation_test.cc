// The guarded GMP allocation functions (core/gmp_allocation.h): installed once per process, a
// request over the per-number cap throws GmpAllocationError (a LimitError naming "memory")
// through GMP's and MPFR's own frames instead of aborting, and the numbers involved stay usable.
#include <gmpxx.h>
#include <gtest/gtest.h>
#include <mpfr.h>

#include <cstdlib>
#include <string>

#include <exactdp/core/gmp_allocation.h>

namespace exactdp {
namespace {

// More bits than kMaxGmpBlockBytes holds: GMP asks for more than the cap, so the guard throws
// before malloc is asked (nothing of this size is ever allocated).
constexpr mp_bitcnt_t kOverCapBits = static_cast<mp_bitcnt_t>(kMaxGmpBlockBytes) * 8 + 64;

TEST(GmpAllocationGuard, InstalledAtLoad) {
  // No call here has installed it: the static initializer of core/gmp_allocation.cc did.
  EXPECT_TRUE(gmp_allocation_guard_active());
  install_gmp_allocation_guard();  // idempotent
  EXPECT_TRUE(gmp_allocation_guard_active());
}

// The guard is installed only over GMP's own defaults, so an application's functions (installed
// before exactdp's first call) are never replaced: the defaults are recognised, and functions of
// one's own are not taken for them. The guarded functions are put back afterwards.
void* counting_allocate(std::size_t n) { return std::malloc(n); }
void* counting_reallocate(void* p, std::size_t, std::size_t n) { return std::realloc(p, n); }
void counting_free(void* p, std::size_t) { std::free(p); }

TEST(GmpAllocationGuard, RecognisesTheDefaultsAndNothingElse) {
  void* (*allocate)(std::size_t) = nullptr;
  void* (*reallocate)(void*, std::size_t, std::size_t) = nullptr;
  void (*release)(void*, std::size_t) = nullptr;
  mp_get_memory_functions(&allocate, &reallocate, &release);
  EXPECT_FALSE(gmp_allocation_functions_are_defaults());  // the guard's own functions
  mp_set_memory_functions(counting_allocate, counting_reallocate, counting_free);
  EXPECT_FALSE(gmp_allocation_functions_are_defaults());
  mp_set_memory_functions(nullptr, nullptr, nullptr);  // GMP's defaults
  EXPECT_TRUE(gmp_allocation_functions_are_defaults());
  mp_set_memory_functions(allocate, reallocate, release);
  EXPECT_TRUE(gmp_allocation_guard_active());
}

TEST(GmpAllocationGuard, OverCapThrowsThroughGmpAndTheNumberStaysValid) {
  mpz_class x = 12345;
  try {
    mpz_mul_2exp(x.get_mpz_t(), x.get_mpz_t(), kOverCapBits);  // GMP's realloc of x's limbs
    FAIL() << "no exception: the result would need more than 2^30 bytes";
  } catch (const GmpAllocationError& e) {
    EXPECT_EQ(e.parameter(), "memory");
    EXPECT_GT(e.bytes(), kMaxGmpBlockBytes);
    EXPECT_NE(std::string(e.what()).find("2^30 bytes"), std::string::npos) << e.what();
  }
  // x kept its old block (the throw came before GMP stored anything): it still computes.
  x = 7;
  x *= 6;
  EXPECT_EQ(x, 42);
}

TEST(GmpAllocationGuard, OverCapIsALimitErrorThroughMpfr) {
  mpfr_t y;
  mpfr_init2(y, 64);
  EXPECT_THROW(mpfr_set_prec(y, static_cast<mpfr_prec_t>(kOverCapBits)), LimitError);
  // mpfr_set_prec failed before it changed y: y is still a 64-bit number.
  mpfr_set_ui(y, 3, MPFR_RNDN);
  EXPECT_EQ(mpfr_get_ui(y, MPFR_RNDN), 3u);
  mpfr_clear(y);
}

TEST(GmpAllocationGuard, ReallocateKeepsBlocksOfEitherAllocator) {
  // Blocks grown, shrunk and freed by the guarded functions are plain malloc blocks (GMP's
  // defaults use the same), so numbers made before the switch stay compatible.
  mpz_class z("1" + std::string(5000, '0'));
  for (int i = 0; i < 8; ++i) z *= z;  // several reallocations
  mpz_realloc2(z.get_mpz_t(), 64);     // shrink: the value did not fit, so z becomes 0
  z = 99;
  EXPECT_EQ(z, 99);
}

}  // namespace
}  // namespace exactdp
