#include "cli/seed_option.h"

#include "samplers/seeded_bits.h"
#include "samplers/system_bits.h"

namespace exactdp::cli {

std::unique_ptr<BitSource> bit_source_from_seed_option(const ParsedArgs& parsed) {
  if (const auto seed = parsed.get("--seed")) {
    return std::make_unique<SeededBits>(parse_seed_hex("seed", *seed));
  }
  return std::make_unique<SystemBits>();
}

}  // namespace exactdp::cli
