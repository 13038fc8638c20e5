// exactdp bits — raw bytes from the system CSPRNG (default) or the keyed ChaCha20 stream (--seed),
// for external test batteries (scripts/dieharder):
//   exactdp bits -n BYTES [--seed HEX | --seed-file FILE] > file      (0 <= BYTES <= 10^12; binary on stdout)
// The bytes are exactly the BitSource's stream (bit_source.h): byte i holds stream bits 8i..8i+7,
// most significant first. Streams in 64 KiB chunks; stops early (without error) if stdout closes.
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "cli/args.h"
#include "cli/commands.h"
#include "cli/seed_option.h"

namespace exactdp::cli {
namespace {

const std::string kHelp = std::string(
    "usage: exactdp bits -n BYTES [--seed HEX | --seed-file FILE] [--allow-weak-seed]\n"
    "\n"
    "Writes BYTES raw random bytes to stdout (binary), 0 <= BYTES <= 1000000000000:\n"
    "the system CSPRNG (libsodium) by default, or the keyed ChaCha20 stream with a seed\n"
    "(FOR TESTS AND AUDITS ONLY). For external batteries, e.g.\n"
    "  exactdp bits -n 10000000000 | dieharder -g 200 -a     (see scripts/dieharder)\n") +
    kSeedOptionsHelp + "Exit status: 0 success, 2 bad usage or parameter.\n";

constexpr unsigned long long kMaxBytes = 1'000'000'000'000ULL;  // as the help says

}  // namespace

int cmd_bits(Args args, Io& io) {
  std::vector<OptionSpec> specs = {{"-n", true}, {"--help", false}, {"-h", false}};
  for (const auto& s : seed_option_specs()) specs.push_back(s);
  const ParsedArgs parsed(args, specs);
  if (print_help_if_asked(parsed, kHelp.c_str(), io.out)) return 0;
  if (!parsed.positionals().empty()) {
    throw UsageError("bits takes no positional arguments (got '" + parsed.positionals()[0] + "'; see --help)");
  }
  if (!parsed.has("-n")) throw UsageError("missing required option -n (number of bytes)");
  const unsigned long long n = *parsed.count("-n", 0, kMaxBytes);
  const std::unique_ptr<BitSource> bits = bit_source_from_seed_option(parsed, io.err);
  constexpr std::size_t kChunk = 1 << 16;
  std::vector<char> buffer(kChunk);
  unsigned long long left = n;
  while (left > 0 && io.out) {
    const std::size_t len = left < kChunk ? static_cast<std::size_t>(left) : kChunk;
    std::size_t i = 0;
    for (; i + 8 <= len; i += 8) {
      const std::uint64_t w = bits->bits(64);
      for (int b = 0; b < 8; ++b) buffer[i + static_cast<std::size_t>(b)] = static_cast<char>((w >> (56 - 8 * b)) & 0xff);
    }
    for (; i < len; ++i) buffer[i] = static_cast<char>(bits->bits(8));
    io.out.write(buffer.data(), static_cast<std::streamsize>(len));
    left -= len;
  }
  return 0;
}

}  // namespace exactdp::cli
