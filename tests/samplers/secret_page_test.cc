// Secret pages (samplers/internal/secret_page.h): the memory of SystemBits and SeededBits is left
// out of core dumps and mlock'ed where allowed; with RLIMIT_MEMLOCK = 0 the sources are built and
// work all the same (mlock is best effort, never fatal). The fork tests are in bit_source_test.cc.
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include <exactdp/samplers/internal/secret_page.h>
#include <exactdp/samplers/seeded_bits.h>
#include <exactdp/samplers/system_bits.h>

// AddressSanitizer intercepts mlock and munlock as no-ops that report success (it cannot lock its
// shadow memory), so whether a page is really locked is observable only in builds without it.
#if defined(__SANITIZE_ADDRESS__)
#define EXACTDP_TEST_MLOCK_IS_INTERCEPTED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define EXACTDP_TEST_MLOCK_IS_INTERCEPTED 1
#endif
#endif
#ifdef EXACTDP_TEST_MLOCK_IS_INTERCEPTED
constexpr bool kMlockObservable = false;
#else
constexpr bool kMlockObservable = true;
#endif

namespace exactdp {
namespace {

// The VmFlags line of /proc/self/smaps for the mapping that contains `p` ("" if not found).
// The kernel prints "dd" for MADV_DONTDUMP, "lo" for mlock'ed, "wf" for MADV_WIPEONFORK.
std::string vm_flags_of(const void* p) {
  const auto addr = reinterpret_cast<std::uintptr_t>(p);
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    unsigned long lo = 0, hi = 0;
    if (std::sscanf(line.c_str(), "%lx-%lx ", &lo, &hi) == 2 && line.find('-') < 17) {
      inside = addr >= lo && addr < hi;
      continue;
    }
    if (inside && line.rfind("VmFlags:", 0) == 0) return line.substr(8) + " ";
  }
  return "";
}

TEST(SecretPage, IsZeroedDumpExcludedAndReportsItsLock) {
  internal::SecretPage page(100);
  ASSERT_GE(page.size(), 100u);
  const auto* bytes = static_cast<const unsigned char*>(page.data());
  for (std::size_t i = 0; i < page.size(); ++i) ASSERT_EQ(bytes[i], 0) << i;
  EXPECT_TRUE(page.dump_excluded());
  const std::string flags = vm_flags_of(page.data());
  if (flags.empty()) GTEST_SKIP() << "/proc/self/smaps not readable";
  EXPECT_NE(flags.find(" dd "), std::string::npos) << "VmFlags:" << flags;
  // mlock may be refused by RLIMIT_MEMLOCK; the flag must agree with what the page reports.
  if (kMlockObservable) {
    EXPECT_EQ(flags.find(" lo ") != std::string::npos, page.locked()) << "VmFlags:" << flags;
  }
}

TEST(SecretPage, SourcesReportDumpExclusion) {
  SystemBits system;
  SeededBits seeded(Seed{1});
  EXPECT_TRUE(system.dump_excluded());
  EXPECT_TRUE(seeded.dump_excluded());
  (void)system.bits(64);
  (void)seeded.bits(64);
}

// In a forked child with RLIMIT_MEMLOCK = 0 (so mlock fails for an unprivileged process), both
// sources are still built and produce bits; the seeded one the same bits as in the parent.
TEST(SecretPage, SourcesWorkWhenMlockIsRefused) {
  const Seed seed{7, 7, 7};
  SeededBits reference(seed);
  const std::uint64_t expected = reference.bits(64);
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    const rlimit zero{0, 0};
    if (setrlimit(RLIMIT_MEMLOCK, &zero) != 0) _exit(10);
    // Root (CAP_IPC_LOCK) ignores RLIMIT_MEMLOCK: drop to nobody so that mlock really fails.
    bool unprivileged = geteuid() != 0;
    if (!unprivileged) unprivileged = setgid(65534) == 0 && setuid(65534) == 0;
    SystemBits a, b;
    if (a.bits(64) == b.bits(64) && a.bits(64) == b.bits(64)) _exit(11);  // 2^-128
    SeededBits seeded(seed);
    if (seeded.bits(64) != expected) _exit(12);
    if (!a.dump_excluded() || !seeded.dump_excluded()) _exit(13);
    // The path under test: mlock refused, the sources built and working all the same.
    if (kMlockObservable && unprivileged && (a.memory_locked() || seeded.memory_locked())) _exit(14);
    _exit(0);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status)) << "child died (signal " << WTERMSIG(status) << ")";
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

}  // namespace
}  // namespace exactdp

// Not seen by the next source of a unity build (tests/CMakeLists.txt).
#undef EXACTDP_TEST_MLOCK_IS_INTERCEPTED
