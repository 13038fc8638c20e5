// system_bits.h — SystemBits: the default BitSource, the operating system's CSPRNG via
// libsodium's randombytes_buf (getrandom(2) on Linux), buffered.
//
// Fork safety: the buffer and the partially used word live in a page marked MADV_WIPEONFORK, so
// in a child created by fork() they read as zero, i.e. as an empty buffer, and the child draws
// fresh bytes. Where the kernel lacks MADV_WIPEONFORK, a pthread_atfork child handler wipes
// every live SystemBits buffer instead (this covers fork(), not a raw clone syscall; SECURITY.md).
// The page is also left out of core dumps (MADV_DONTDUMP) and mlock'ed where RLIMIT_MEMLOCK
// allows; if mlock is refused the source works as before but the page may be swapped out
// (internal/secret_page.h). The buffer is wiped with sodium_memzero, unlocked and unmapped when
// the source is destroyed.
// Entropy failure is fatal: libsodium aborts rather than hand out weak bytes; sodium_init()
// failing makes the constructor abort too (no silent fallback).
#pragma once

#include <memory>

#include <exactdp/samplers/bit_source.h>

namespace exactdp {
namespace internal {
class SecretPage;
}  // namespace internal

class SystemBits final : public BitSource {
 public:
  SystemBits();
  ~SystemBits() override;

  // True when the buffer is protected by MADV_WIPEONFORK (false: the pthread_atfork fallback).
  [[nodiscard]] bool wipe_on_fork() const noexcept { return wipe_on_fork_; }
  // True when the buffer page is mlock'ed (false: RLIMIT_MEMLOCK refused; it may be swapped).
  [[nodiscard]] bool memory_locked() const noexcept;
  // True when the buffer page is marked MADV_DONTDUMP (left out of core dumps).
  [[nodiscard]] bool dump_excluded() const noexcept;

 protected:
  void refill(unsigned char* out, std::size_t n) override;

 private:
  std::unique_ptr<internal::SecretPage> page_;
  bool wipe_on_fork_ = false;
};

}  // namespace exactdp
