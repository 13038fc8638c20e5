# Dependencies, found the standard way (Debian packages; scripts/setup installs them).
find_package(PkgConfig REQUIRED)
pkg_check_modules(GMP REQUIRED IMPORTED_TARGET gmp gmpxx)
pkg_check_modules(MPFR REQUIRED IMPORTED_TARGET mpfr)
pkg_check_modules(SODIUM REQUIRED IMPORTED_TARGET libsodium)
if(EXACTDP_BUILD_TESTS)
  find_package(GTest REQUIRED)
  find_package(rapidcheck REQUIRED)   # Debian's librapidcheck-dev; rapidcheck/gtest.h is header-only
endif()
if(EXACTDP_BUILD_BENCH)
  find_package(benchmark REQUIRED)
endif()
