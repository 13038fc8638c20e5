// system_bits.h — SystemBits: the default BitSource, the operating system's CSPRNG, expanded.
//
// Every 3 KiB of the stream is the ChaCha20 keystream (internal/chacha20.h, AVX-512/AVX2 where
// the CPU has them) under a fresh 256-bit key read from the OS with libsodium's randombytes_buf
// (getrandom(2) on Linux), nonce 0; the key is wiped as soon as its 3 KiB are made, and each byte
// is wiped from the page's stash when it moves into the bit buffer. So no key outlives its 3 KiB
// and the page never holds more than 3 KiB of unread output plus the 512-byte buffer: the same
// construction as the kernel's own getrandom output (ChaCha20 expansion of a random key), with a
// key per 3 KiB instead of a system call per 256 bytes (BENCHMARKS.md: 7.3x less CPU a byte).
//
// Fork safety: the buffer, the stash and the key live in a page marked MADV_WIPEONFORK, so
// in a child created by fork() they read as zero, i.e. as an empty buffer and stash, and the child
// draws from a fresh OS key. Where the kernel lacks MADV_WIPEONFORK, a pthread_atfork child handler
// wipes every live SystemBits page instead (this covers fork(), not a raw clone syscall; SECURITY.md).
// The page is also left out of core dumps (MADV_DONTDUMP) and mlock'ed where RLIMIT_MEMLOCK
// allows; if mlock is refused the source works as before but the page may be swapped out
// (internal/secret_page.h). The page is wiped with sodium_memzero, unlocked and unmapped when
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
  // Fills the page's stash: 3 KiB of keystream under a fresh OS key.
  void make_stream();

  std::unique_ptr<internal::SecretPage> page_;
  bool wipe_on_fork_ = false;
};

}  // namespace exactdp
