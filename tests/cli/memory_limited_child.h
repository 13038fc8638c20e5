// memory_limited_child.h — runs a piece of a test in a forked child whose address space is
// limited (setrlimit RLIMIT_AS, what `ulimit -v` sets), for the tests that GMP's allocation
// failures reach the caller as errors (core/gmp_allocation.h) instead of abort().
#pragma once

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstddef>
#include <fstream>

// A sanitizer reserves terabytes of shadow memory: an address-space limit cannot apply to it.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define EXACTDP_TEST_NO_ADDRESS_LIMIT 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define EXACTDP_TEST_NO_ADDRESS_LIMIT 1
#endif
#endif

namespace exactdp::test_support {

// The address space this process holds now, in bytes (/proc/self/statm), or 0.
inline std::size_t address_space_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::size_t pages = 0;
  statm >> pages;
  return pages * static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
}

// Forks; the child limits its address space to what it holds now plus `extra_bytes`, runs
// body() and exits with its result (0-125). Returns the child's wait status (WIFEXITED /
// WIFSIGNALED tell an exit from a SIGABRT). 126: the limit could not be set.
template <class Body>
int run_in_memory_limited_child(std::size_t extra_bytes, Body body) {
  const std::size_t limit = address_space_bytes() + extra_bytes;
  const pid_t pid = ::fork();
  if (pid == 0) {
    const rlimit r{limit, limit};
    if (::setrlimit(RLIMIT_AS, &r) != 0) ::_exit(126);
    ::_exit(body());
  }
  int status = 0;
  if (pid > 0) ::waitpid(pid, &status, 0);
  return status;
}

}  // namespace exactdp::test_support
