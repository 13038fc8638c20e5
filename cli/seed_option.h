// seed_option.h — where `exactdp sample`, `audit`, `audit-timing` and `bits` get their random
// bits, the one place that reads the seed options:
//   --seed HEX         64 hex digits on the command line (visible to every user of the machine
//                      in /proc/PID/cmdline while the command runs)
//   --seed-file FILE   the same 64 hex digits, optionally followed by one newline, in a file
//   --allow-weak-seed  accept the all-zero seed (refused otherwise: a key everyone knows)
// With a seed: the keyed ChaCha20 stream, FOR TESTS AND AUDITS ONLY, and a warning on stderr.
// Without: the system CSPRNG. An environment variable would be no better than argv (readable in
// /proc/PID/environ by the same user), so there is none (SECURITY.md).
#pragma once

#include <cstddef>
#include <iosfwd>
#include <memory>
#include <vector>

#include "cli/args.h"
#include <exactdp/samplers/bit_source.h>

namespace exactdp::cli {

// The specs of --seed, --seed-file and --allow-weak-seed; append them to a command's specs.
[[nodiscard]] std::vector<OptionSpec> seed_option_specs();

// True when --seed or --seed-file was given.
[[nodiscard]] bool has_seed_option(const ParsedArgs& parsed);

// Help text for the three options, the same in every command that takes them.
inline constexpr const char* kSeedOptionsHelp =
    "--seed HEX        64 hex digits (32 bytes): a reproducible keyed ChaCha20 stream,\n"
    "                  FOR TESTS AND AUDITS ONLY: anyone with the seed knows the noise (a warning\n"
    "                  is printed on stderr). On the command line the seed is visible to every\n"
    "                  user of the machine (/proc/PID/cmdline): prefer --seed-file. An environment\n"
    "                  variable would be no better (/proc/PID/environ), so there is none.\n"
    "--seed-file FILE  the same 64 hex digits read from FILE (one trailing newline allowed).\n"
    "--allow-weak-seed accept the all-zero seed (refused otherwise). Without a seed: the OS CSPRNG.\n";

// The longest seed file accepted: 64 hex digits and one newline.
inline constexpr std::size_t kMaxSeedFileBytes = 65;

// SeededBits when --seed or --seed-file is given, else SystemBits. Errors (exit 2):
// UsageError for both options at once; ParameterError naming "seed" unless the value is 64 hex
// digits, naming "seed-file" unless the file can be read and holds 64 hex digits (and an
// optional trailing newline), and naming the option for the all-zero seed without
// --allow-weak-seed. A seeded source prints a warning on `err`. Every copy of the seed made here
// (text, file bytes, parsed key) is wiped with sodium_memzero once the source is built.
[[nodiscard]] std::unique_ptr<BitSource> bit_source_from_seed_option(const ParsedArgs& parsed,
                                                                     std::ostream& err);

}  // namespace exactdp::cli
