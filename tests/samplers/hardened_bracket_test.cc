// hardened_bracket_test.cc — the bracket (T_(x-1), w_x) of a table draw
// (samplers/internal/hardened_bracket.h), against the thresholds read with GMP: the masked
// single select for every x, and the group select this CPU runs (AVX2 register permutes where it
// has them) and the portable one on random and extreme index patterns, for tables of 1 to 63
// entries (1 to 8 eight-entry blocks); the scaled planes of the AVX2 rejection group.
#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <vector>

#include <exactdp/samplers/internal/hardened_bracket.h>
#include <exactdp/samplers/internal/hardened_tables.h>
#include <exactdp/samplers/seeded_bits.h>
#include "tests/support/seeds.h"

namespace exactdp::internal {
namespace {

mpz_class to_mpz(uint128 v) {
  mpz_class out = static_cast<unsigned long>(v >> 64);
  out <<= 64;
  out += static_cast<unsigned long>(v);
  return out;
}

// A table of `entries` increasing random 80-bit thresholds.
ThresholdTable random_table(std::size_t entries, BitSource& bits) {
  std::vector<mpz_class> t(entries);
  for (auto& v : t) {
    v = static_cast<unsigned long>(bits.bits(16));
    v <<= 64;
    v += static_cast<unsigned long>(bits.bits(64));
  }
  std::sort(t.begin(), t.end());
  ThresholdTable table;
  table.entries = entries;
  for (const auto& v : t) {
    const mpz_class high = v >> 64;
    table.words.push_back(mpz_class(v - (high << 64)).get_ui());
    table.words.push_back(high.get_ui());
  }
  return table;
}

// The expected (T_(x-1), w_x) for every x = 0 .. K.
std::vector<std::pair<mpz_class, mpz_class>> expected_brackets(const ThresholdTable& table) {
  std::vector<std::pair<mpz_class, mpz_class>> out;
  mpz_class previous = 0;
  for (std::size_t x = 0; x <= table.entries; ++x) {
    const mpz_class next = x < table.entries ? table.threshold(x, 2) : mpz_class(1) << 80;
    out.emplace_back(previous, next - previous);
    previous = next;
  }
  return out;
}

TEST(HardenedBracket, SingleAndGroupSelectsGiveTheTableEntries) {
  SeededBits bits(test_support::fixed_seed(77, 0));
  for (const std::size_t entries : {1U, 7U, 8U, 19U, 41U, 60U, 63U}) {
    const ThresholdTable table = random_table(entries, bits);
    const BracketTable t = make_bracket_table(table, fixed_width(80));
    const auto expected = expected_brackets(table);
    ASSERT_EQ(t.values, entries + 1);
    for (std::size_t x = 0; x <= entries; ++x) {
      uint128 base = 0, width = 0;
      select_bracket(t, static_cast<std::uint32_t>(x), &base, &width);
      ASSERT_EQ(to_mpz(base), expected[x].first) << entries << " entries, x = " << x;
      ASSERT_EQ(to_mpz(width), expected[x].second) << entries << " entries, x = " << x;
    }
    for (int round = 0; round < 200; ++round) {
      std::uint32_t x[kBracketGroup];
      for (std::size_t s = 0; s < kBracketGroup; ++s) {
        // Random, or all 0, or all K, or alternating ends.
        const auto r = static_cast<std::uint32_t>(bits.bits(8) % (entries + 1));
        x[s] = round == 0 ? 0 : round == 1 ? static_cast<std::uint32_t>(entries) : round == 2 ? (s % 2) * static_cast<std::uint32_t>(entries) : r;
      }
      uint128 base[2][kBracketGroup], width[2][kBracketGroup];
      t.select_group(t, x, base[0], width[0]);
      select_bracket_group_portable(t, x, base[1], width[1]);
      for (int way = 0; way < 2; ++way) {
        for (std::size_t s = 0; s < kBracketGroup; ++s) {
          ASSERT_EQ(to_mpz(base[way][s]), expected[x[s]].first) << "way " << way << ", x = " << x[s];
          ASSERT_EQ(to_mpz(width[way][s]), expected[x[s]].second) << "way " << way << ", x = " << x[s];
        }
      }
    }
  }
}

// Word p of v (32 bits, least significant first).
std::uint32_t word_of(const mpz_class& v, unsigned p) {
  return static_cast<std::uint32_t>(mpz_class((v >> (32 * p)) & 0xFFFFFFFFUL).get_ui());
}

// The AVX2 rejection group's planes: 2^16 T_(x-1) and w_x as 32-bit words, for every x, and
// their register-permute select where this CPU has AVX2.
TEST(HardenedBracket, ScaledPlanesHoldTheShiftedBases) {
  SeededBits bits(test_support::fixed_seed(77, 2));
  for (const std::size_t entries : {1U, 8U, 21U, 63U}) {
    const ThresholdTable table = random_table(entries, bits);
    const BracketTable t = make_bracket_table(table, fixed_width(80));
    const auto expected = expected_brackets(table);
    for (std::size_t x = 0; x <= entries; ++x) {
      for (unsigned p = 0; p < 3; ++p) {
        ASSERT_EQ(t.scaled[p][x], word_of(expected[x].first << 16, p)) << entries << " entries, x = " << x;
        ASSERT_EQ(t.scaled[3 + p][x], word_of(expected[x].second, p)) << entries << " entries, x = " << x;
      }
    }
#if defined(__x86_64__)
    if (!__builtin_cpu_supports("avx2")) continue;
    std::uint32_t x[kBracketGroup];
    for (std::size_t s = 0; s < kBracketGroup; ++s) x[s] = static_cast<std::uint32_t>(bits.bits(8) % (entries + 1));
    alignas(32) std::uint32_t out[kBracketPlanes][kBracketGroup];
    select_planes_avx2(t.scaled, t.blocks, x, out);
    for (std::size_t s = 0; s < kBracketGroup; ++s) {
      for (unsigned p = 0; p < kBracketPlanes; ++p) ASSERT_EQ(out[p][s], t.scaled[p][x[s]]) << "x = " << x[s];
    }
#endif
  }
}

TEST(HardenedBracket, RefusesTablesItCannotHold) {
  SeededBits bits(test_support::fixed_seed(77, 1));
  EXPECT_THROW((void)make_bracket_table(random_table(64, bits), fixed_width(80)), std::logic_error);
  EXPECT_THROW((void)make_bracket_table(random_table(4, bits), fixed_width(97)), std::logic_error);
}

}  // namespace
}  // namespace exactdp::internal
