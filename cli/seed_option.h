// seed_option.h — where `exactdp sample`, `audit` and `bits` get their random bits: the keyed
// ChaCha20 stream for "--seed HEX" (64 hex digits; FOR TESTS AND AUDITS ONLY), else the system
// CSPRNG.
#pragma once

#include <memory>

#include "cli/args.h"
#include "samplers/bit_source.h"

namespace exactdp::cli {

// SeededBits(--seed) when the option is given (ParameterError naming "seed" unless it is 64 hex
// digits), else SystemBits.
[[nodiscard]] std::unique_ptr<BitSource> bit_source_from_seed_option(const ParsedArgs& parsed);

}  // namespace exactdp::cli
