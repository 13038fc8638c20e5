// gmp_allocation.h — GMP's allocation functions replaced, once per process, by ones that throw
// instead of aborting: the last-resort guard behind the up-front cost limits.
//
// Why. GMP (and MPFR, which allocates through GMP's functions) calls abort() when an allocation
// fails ("GNU MP: Cannot allocate memory"): no caller can catch that, and the process dies with
// SIGABRT whatever face it was reached through (the command line, a C program, the Python
// interpreter). Every path whose numbers grow with the input is bounded BEFORE it allocates
// (score_budget.h, selection_cost.h, the aggregate and estimator limits, SECURITY.md "Limits");
// this guard is for what slips past an estimate and for a process whose memory is limited from
// outside (ulimit -v, a container): the allocation throws GmpAllocationError, a LimitError
// naming "memory", which every boundary turns into its error (exit status 2, EXACTDP_E_LIMIT,
// exactdp.LimitError).
//
// The functions. allocate = malloc, reallocate = realloc, free = free, so a block allocated by
// GMP's default functions before the switch (a static mpz_class of another translation unit) is
// freed or grown correctly by ours, and the other way round. Two differences only: a request
// above kMaxGmpBlockBytes throws without asking malloc, and a null answer throws instead of
// aborting. realloc throws before GMP stores anything, so the number keeps its old, valid block.
//
// When. Once per process: a static initializer of this file at load time (before main and
// before other threads, in the executable, libexactdp.so and the Python module) and, to cover
// the initialization order of a static library, install_gmp_allocation_guard() at the entry
// points (cli/run.cc, the C interface's barrier, the Python module); the second and later calls
// do nothing, so an application that installs its own functions afterwards (e.g. the zeroing
// allocator of SECURITY.md) keeps them; and the first call installs only over GMP's defaults,
// so one that installed its own before keeps them too.
//
// Throwing through GMP. GMP's manual leaves it undefined; what it means for Debian's libgmp
// 6.2.1 and libmpfr 4.2.0 (both built with unwind tables, .eh_frame) and the residual risks are
// in SECURITY.md ("GMP allocation failures"). In short: the unwinding is defined by the ABI, the
// numbers being written keep valid blocks, and what may be lost is GMP's and MPFR's temporary
// heap blocks of the failing call (a leak, not corruption).
// Thread-safety: installing is a thread-safe one-time initialization; the functions are as
// thread-safe as malloc.
#pragma once

#include <cstddef>

#include <exactdp/core/errors.h>

namespace exactdp {

// 2^30 bytes (1 GiB): no valid input may use more in all (the resource rule), so one number of
// that size is never legitimate; above it GMP's request throws before malloc is asked.
inline constexpr std::size_t kMaxGmpBlockBytes = std::size_t{1} << 30;

// A GMP or MPFR allocation that failed or exceeded kMaxGmpBlockBytes: a LimitError naming
// "memory" whose message gives the size asked for.
class GmpAllocationError : public LimitError {
 public:
  GmpAllocationError(std::size_t bytes, bool over_cap);
  [[nodiscard]] std::size_t bytes() const noexcept { return bytes_; }

 private:
  std::size_t bytes_;
};

// Installs the guarded functions the first time it is called in the process; does nothing after.
void install_gmp_allocation_guard() noexcept;

// Whether GMP's current allocation functions are GMP's own defaults (recognised by libgmp's
// exported __gmp_default_* functions; true when those are not available). The guard is
// installed only over the defaults: an application's own functions, installed before or after,
// are never replaced.
[[nodiscard]] bool gmp_allocation_functions_are_defaults() noexcept;

// Whether GMP's current allocation functions are the guarded ones (false after an application
// installed its own).
[[nodiscard]] bool gmp_allocation_guard_active() noexcept;

}  // namespace exactdp
