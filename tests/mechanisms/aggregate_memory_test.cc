// The memory estimate of aggregate (contribution_bounder.h, aggregate_cost.h) against the
// measured peak resident size: each case runs aggregate_records in a forked child whose peak
// (VmHWM, reset through /proc/self/clear_refs) is compared with the estimate's peak, within 25 %;
// and the refusals that keep a run under its limit: 1000 --sum columns x 10^5 groups, and a
// state that would pass the limit, are LimitErrors before the memory is used.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include <exactdp/core/errors.h>
#include <exactdp/mechanisms/aggregate/aggregate_release.h>
#include <exactdp/samplers/seeded_bits.h>

#include "tests/mechanisms/release_test_support.h"
#include "tests/support/seeds.h"

// A sanitizer's shadow memory and redzones are not what the estimate counts.
#if defined(__SANITIZE_ADDRESS__)
#define EXACTDP_TEST_SANITIZED_HEAP 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define EXACTDP_TEST_SANITIZED_HEAP 1
#endif
#endif

namespace exactdp {
namespace {
namespace aggregate_memory_test {  // this file's own names in a unity build (tests/CMakeLists.txt)

using test_support::StringReader;
constexpr std::uint32_t kSuite = 0x4D454D31;  // "MEM1"

// A /proc/self/status field in bytes (kB lines), or 0.
std::uint64_t status_bytes(const std::string& field) {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(field + ":", 0) == 0) return std::stoull(line.substr(field.size() + 1)) * 1024;
  }
  return 0;
}

bool reset_peak() {
  std::ofstream out("/proc/self/clear_refs");
  out << "5";
  out.flush();
  return static_cast<bool>(out);
}

// n records of distinct units over `groups` groups, `columns` value columns of 0..9.
std::string records(std::size_t n, std::size_t groups, std::size_t columns) {
  std::string csv = "u,g";
  for (std::size_t c = 0; c < columns; ++c) csv += ",v" + std::to_string(c);
  csv += "\n";
  for (std::size_t i = 0; i < n; ++i) {
    csv += "unit" + std::to_string(i) + ",g" + std::to_string(i % groups);
    for (std::size_t c = 0; c < columns; ++c) csv += "," + std::to_string((i + c) % 10);
    csv += "\n";
  }
  return csv;
}

mechanisms::AggregateRequest request(std::size_t columns) {
  mechanisms::AggregateRequest r;
  r.privacy_unit = "u";
  r.group_by = {"g"};
  r.outputs.push_back({mechanisms::AggregateKind::kCount, ""});
  for (std::size_t c = 0; c < columns; ++c) {
    r.outputs.push_back({mechanisms::AggregateKind::kSum, "v" + std::to_string(c)});
    r.value_columns.push_back({"v" + std::to_string(c), mechanisms::parse_value_bounds("0,10")});
  }
  r.epsilon = 1;
  r.delta = mpq_class(1, 1000000);
  return r;
}

struct Measured {
  double ratio = 0;  // estimated peak growth / measured peak growth
  std::uint64_t estimate = 0, measured = 0;
};

// Runs the release in a child; the child reports (estimate, measured) through a pipe.
Measured measure(std::size_t n, std::size_t groups, std::size_t columns) {
  StringReader in(records(n, groups, columns));
  const mechanisms::AggregateRequest r = request(columns);
  int fds[2];
  EXPECT_EQ(pipe(fds), 0);
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    std::uint64_t out[2] = {0, 0};
    if (reset_peak()) {
      const std::uint64_t before = status_bytes("VmRSS");
      SeededBits bits(test_support::fixed_seed(kSuite, 1));
      const auto release = mechanisms::aggregate_records(in, r, nullptr, bits);
      const std::uint64_t peak = status_bytes("VmHWM");
      // The estimate counts the process's own 8 MiB baseline (contribution_bounder.cc).
      out[0] = release.estimated_peak_bytes - (std::uint64_t{8} << 20);
      out[1] = peak - before;
    }
    if (write(fds[1], out, sizeof out) != sizeof out) _exit(2);
    _exit(0);
  }
  close(fds[1]);
  std::uint64_t got[2] = {0, 0};
  EXPECT_EQ(read(fds[0], got, sizeof got), static_cast<ssize_t>(sizeof got));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  Measured m;
  m.estimate = got[0];
  m.measured = got[1];
  if (got[1] > 0) m.ratio = static_cast<double>(got[0]) / static_cast<double>(got[1]);
  std::printf("n = %zu, groups = %zu, columns = %zu: estimated %llu MiB, measured %llu MiB\n", n, groups, columns,
              static_cast<unsigned long long>(got[0] >> 20), static_cast<unsigned long long>(got[1] >> 20));
  return m;
}

TEST(AggregateMemory, EstimateWithinAQuarterOfThePeak) {
#ifdef EXACTDP_TEST_SANITIZED_HEAP
  GTEST_SKIP() << "the heap of a sanitized build is not glibc's";
#endif
  if (!reset_peak()) GTEST_SKIP() << "/proc/self/clear_refs is not writable here";
  for (const auto& [n, groups, columns] : std::vector<std::array<std::size_t, 3>>{
           {200'000, 1000, 1}, {1'000'000, 1000, 1}, {20'000, 20'000, 100}}) {
    const Measured m = measure(n, groups, columns);
    EXPECT_GT(m.ratio, 0.75) << n << " records, " << groups << " groups, " << columns << " columns";
    EXPECT_LT(m.ratio, 1.25) << n << " records, " << groups << " groups, " << columns << " columns";
  }
}

// 1000 --sum columns over 10^5 groups would hold 10^8 exact totals (about 5 GB): refused naming
// sum while reading, long before that memory is used.
TEST(AggregateMemory, ManySumColumnsTimesManyGroupsIsALimitNamingSum) {
  const std::size_t columns = 1000;
  std::string csv = "u,g";
  for (std::size_t c = 0; c < columns; ++c) csv += ",v" + std::to_string(c);
  csv += "\n";
  std::string values;
  for (std::size_t c = 0; c < columns; ++c) values += ",1";
  for (std::size_t i = 0; i < 100'000; ++i) csv += "u" + std::to_string(i) + ",g" + std::to_string(i) + values + "\n";
  StringReader in(csv);
  SeededBits bits(test_support::fixed_seed(kSuite, 2));
  try {
    (void)mechanisms::aggregate_records(in, request(columns), nullptr, bits);
    FAIL() << "no LimitError";
  } catch (const LimitError& e) {
    EXPECT_EQ(e.parameter(), "sum") << e.what();
    EXPECT_NE(std::string(e.what()).find("input line"), std::string::npos) << e.what();
  }
}

}  // namespace aggregate_memory_test
}  // namespace
}  // namespace exactdp

// Not seen by the next source of a unity build (tests/CMakeLists.txt).
#undef EXACTDP_TEST_SANITIZED_HEAP
