// secret_page.h — SecretPage: anonymous, page-aligned memory for random bytes and keys.
//
// The pages are mapped privately and anonymously (so they start zeroed), marked MADV_DONTDUMP
// (left out of core dumps) and mlock'ed so that they are not written to swap, as libsodium's
// sodium_mlock does. mlock is best effort: when RLIMIT_MEMLOCK (or the kernel) refuses it the
// page stays usable but may be swapped out; nothing aborts and nothing is thrown for that
// (locked() says which happened; SECURITY.md). On destruction the pages are wiped with
// sodium_memzero, unlocked and unmapped.
//
// Fork behaviour is the owner's choice: SystemBits adds MADV_WIPEONFORK on data()/size();
// SeededBits does not (a child continues the same reproducible stream).
// Throws std::bad_alloc when mmap fails. Not copyable or movable.
#pragma once

#include <cstddef>

namespace exactdp::internal {

class SecretPage {
 public:
  // At least `bytes` bytes (rounded up to whole pages), zeroed.
  explicit SecretPage(std::size_t bytes);
  ~SecretPage();
  SecretPage(const SecretPage&) = delete;
  SecretPage& operator=(const SecretPage&) = delete;

  [[nodiscard]] void* data() const noexcept { return data_; }
  // The mapped length: a whole number of pages.
  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  // True when mlock succeeded (the pages cannot be swapped out).
  [[nodiscard]] bool locked() const noexcept { return locked_; }
  // True when madvise(MADV_DONTDUMP) succeeded (the pages are left out of core dumps).
  [[nodiscard]] bool dump_excluded() const noexcept { return dump_excluded_; }

 private:
  void* data_ = nullptr;
  std::size_t size_ = 0;
  bool locked_ = false;
  bool dump_excluded_ = false;
};

}  // namespace exactdp::internal
