#include "cli/seed_option.h"

#include <fcntl.h>
#include <sodium.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <ostream>
#include <string>
#include <string_view>

#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/samplers/seeded_bits.h>
#include <exactdp/samplers/system_bits.h>

namespace exactdp::cli {
namespace {

// Wipes a fixed buffer when it goes out of scope, whatever path leaves the scope.
template <std::size_t N>
struct WipedBytes {
  std::array<char, N> bytes{};
  ~WipedBytes() { sodium_memzero(bytes.data(), bytes.size()); }
};

struct WipedSeed {
  Seed seed{};
  ~WipedSeed() { sodium_memzero(seed.data(), seed.size()); }
};

struct WipedString {
  std::string text;
  ~WipedString() { sodium_memzero(text.data(), text.size()); }
};

// Reads at most kMaxSeedFileBytes + 1 bytes of `path` into `buf` (so an over-long file, a device
// or a FIFO is refused after a bounded read) and returns how many.
std::size_t read_seed_file(const std::string& path, WipedBytes<kMaxSeedFileBytes + 1>& buf) {
  // O_NONBLOCK: opening a named pipe that has no writer must not hang; reads are then made
  // blocking again (a pipe with no writer reads as empty, so the file is refused).
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  if (fd < 0) {
    throw ParameterError("seed-file", "seed-file: cannot open '" + abbreviate(path) + "': " + std::strerror(errno));
  }
  if (const int flags = fcntl(fd, F_GETFL); flags >= 0) (void)fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  std::size_t got = 0;
  while (got < buf.bytes.size()) {
    const ssize_t r = read(fd, buf.bytes.data() + got, buf.bytes.size() - got);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) {
      const int e = errno;
      close(fd);
      throw ParameterError("seed-file", "seed-file: cannot read '" + abbreviate(path) + "': " + std::strerror(e));
    }
    if (r == 0) break;
    got += static_cast<std::size_t>(r);
  }
  close(fd);
  return got;
}

void parse_seed_file(const std::string& path, Seed& out) {
  WipedBytes<kMaxSeedFileBytes + 1> buf;
  std::size_t n = read_seed_file(path, buf);
  if (n > 0 && buf.bytes[n - 1] == '\n') --n;  // one optional trailing newline
  const auto all_hex = std::all_of(buf.bytes.begin(), buf.bytes.begin() + static_cast<std::ptrdiff_t>(n),
                                   [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; });
  if (n != 64 || !all_hex) {
    // Never echo the file's content: it is meant to be secret.
    throw ParameterError("seed-file", "seed-file: '" + abbreviate(path) +
                                          "' must hold exactly 64 hex digits (0-9, a-f), optionally "
                                          "followed by one newline" +
                                          (n != 64 ? " (it holds " + std::string(n > 64 ? "more than 64" : std::to_string(n)) +
                                                         " characters)"
                                                   : std::string(" (it holds a non-hex character)")));
  }
  out = parse_seed_hex("seed-file", std::string_view(buf.bytes.data(), 64));
}

}  // namespace

std::vector<OptionSpec> seed_option_specs() {
  return {{"--seed", true}, {"--seed-file", true}, {"--allow-weak-seed", false}};
}

bool has_seed_option(const ParsedArgs& parsed) { return parsed.has("--seed") || parsed.has("--seed-file"); }

std::unique_ptr<BitSource> bit_source_from_seed_option(const ParsedArgs& parsed, std::ostream& err) {
  const bool inline_seed = parsed.has("--seed");
  const bool file_seed = parsed.has("--seed-file");
  if (inline_seed && file_seed) throw UsageError("--seed and --seed-file exclude each other (see --help)");
  if (!inline_seed && !file_seed) return std::make_unique<SystemBits>();

  const char* const parameter = inline_seed ? "seed" : "seed-file";
  WipedSeed key;
  if (inline_seed) {
    WipedString text{*parsed.get("--seed")};
    key.seed = parse_seed_hex("seed", text.text);
  } else {
    parse_seed_file(*parsed.get("--seed-file"), key.seed);
  }
  // sodium_is_zero reads all 32 bytes whatever they are (constant time, as in the C interface):
  // the refusal reveals only whether the seed is all-zero.
  const bool all_zero = sodium_is_zero(key.seed.data(), key.seed.size()) == 1;
  if (all_zero && !parsed.has("--allow-weak-seed")) {
    throw ParameterError(parameter, std::string(parameter) +
                                        ": the all-zero seed is refused (a key everyone knows); pass "
                                        "--allow-weak-seed if a test really needs it");
  }
  auto source = std::make_unique<SeededBits>(key.seed);
  err << "exactdp: warning: --" << parameter
      << " gives a reproducible stream: anyone who knows the seed knows the noise (tests and audits only)\n";
  return source;
}

}  // namespace exactdp::cli
