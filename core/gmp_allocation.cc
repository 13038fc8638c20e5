#include <exactdp/core/gmp_allocation.h>

#include <gmp.h>

#include <cstdlib>
#include <string>

// GMP's own default functions (exported by libgmp, declared only in its internal gmp-impl.h),
// weak so that a GMP without them links: then the defaults cannot be recognised and the guard
// installs unconditionally, as before.
extern "C" {
void* __gmp_default_allocate(std::size_t) __attribute__((weak));
void* __gmp_default_reallocate(void*, std::size_t, std::size_t) __attribute__((weak));
void __gmp_default_free(void*, std::size_t) __attribute__((weak));
}

namespace exactdp {
namespace {

std::string allocation_message(std::size_t bytes, bool over_cap) {
  if (over_cap) {
    return "memory: one exact number needed " + std::to_string(bytes) +
           " bytes, over the limit of 2^30 bytes (1 GiB) for a single number: the input asks for "
           "numbers far larger than any limit allows (smaller or fewer-digit parameters)";
  }
  return "memory: an exact number of " + std::to_string(bytes) +
         " bytes could not be allocated (the process's memory, e.g. ulimit -v, is exhausted): "
         "give smaller inputs, fewer digits, or more memory";
}

void* guarded_allocate(std::size_t bytes) {
  if (bytes > kMaxGmpBlockBytes) throw GmpAllocationError(bytes, true);
  void* p = std::malloc(bytes);
  if (p == nullptr) throw GmpAllocationError(bytes, false);
  return p;
}

// On a throw the old block is untouched and still owned by the number (GMP stores the new
// pointer only after this returns).
void* guarded_reallocate(void* old, std::size_t /*old_bytes*/, std::size_t bytes) {
  if (bytes > kMaxGmpBlockBytes) throw GmpAllocationError(bytes, true);
  void* p = std::realloc(old, bytes);
  if (p == nullptr) throw GmpAllocationError(bytes, false);
  return p;
}

void guarded_free(void* p, std::size_t /*bytes*/) { std::free(p); }

// At load time, while one thread runs (see the header).
[[maybe_unused]] const bool installed_at_load = (install_gmp_allocation_guard(), true);

}  // namespace

GmpAllocationError::GmpAllocationError(std::size_t bytes, bool over_cap)
    : LimitError("memory", allocation_message(bytes, over_cap)), bytes_(bytes) {}

void install_gmp_allocation_guard() noexcept {
  // A function-local static: initialised exactly once, thread-safely, whatever the order of the
  // static initializers.
  static const bool installed = [] {
    // An application that installed its own functions before (a zeroing or pooled allocator)
    // keeps them: replacing them would free its blocks with std::free.
    if (gmp_allocation_functions_are_defaults()) {
      mp_set_memory_functions(guarded_allocate, guarded_reallocate, guarded_free);
    }
    return true;
  }();
  (void)installed;
}

bool gmp_allocation_functions_are_defaults() noexcept {
  if (__gmp_default_allocate == nullptr || __gmp_default_reallocate == nullptr || __gmp_default_free == nullptr) {
    return true;  // unknown: treated as the defaults (see the declarations above)
  }
  void* (*allocate)(std::size_t) = nullptr;
  void* (*reallocate)(void*, std::size_t, std::size_t) = nullptr;
  void (*release)(void*, std::size_t) = nullptr;
  mp_get_memory_functions(&allocate, &reallocate, &release);
  return allocate == __gmp_default_allocate && reallocate == __gmp_default_reallocate &&
         release == __gmp_default_free;
}

bool gmp_allocation_guard_active() noexcept {
  void* (*allocate)(std::size_t) = nullptr;
  mp_get_memory_functions(&allocate, nullptr, nullptr);
  return allocate == guarded_allocate;
}

}  // namespace exactdp
