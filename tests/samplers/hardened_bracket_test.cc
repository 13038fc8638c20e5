// hardened_bracket_test.cc — the bracket (T_(x-1), w_x) of a table draw
// (samplers/internal/hardened_bracket.h), against the thresholds read with GMP: the masked
// single select for every x, and the group select this CPU runs (AVX2 register permutes where it
// has them) and the portable one on random and extreme index patterns, for tables of 1 to 63
// entries (1 to 8 eight-entry blocks); the portable one also at every size from 1 to 63 entries,
// 80-bit thresholds (packed top words) and 96-bit ones, every x in every lane; the scaled planes
// of the AVX2 rejection group.
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

// A table of `entries` increasing random thresholds of `top_bits` + 64 bits (at most 96).
ThresholdTable random_table(std::size_t entries, BitSource& bits, unsigned top_bits = 16) {
  std::vector<mpz_class> t(entries);
  for (auto& v : t) {
    v = static_cast<unsigned long>(bits.bits(top_bits));
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

// The expected (T_(x-1), w_x) for every x = 0 .. K (W-bit thresholds).
std::vector<std::pair<mpz_class, mpz_class>> expected_brackets(const ThresholdTable& table, unsigned width_bits = 80) {
  std::vector<std::pair<mpz_class, mpz_class>> out;
  mpz_class previous = 0;
  for (std::size_t x = 0; x <= table.entries; ++x) {
    const mpz_class next = x < table.entries ? table.threshold(x, 2) : mpz_class(1) << width_bits;
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

// The 32 x of a group select test: the same x in every lane (each x = 0 .. K in turn, so that every
// entry is taken in every lane), x = s mod (K + 1) and its reverse (every lane next to every
// other x), then random.
void fill_pattern(int round, std::size_t entries, BitSource& bits, std::uint32_t* x) {
  const auto values = static_cast<std::uint32_t>(entries + 1);
  for (std::uint32_t s = 0; s < kBracketGroup; ++s) {
    const auto r = static_cast<std::uint32_t>(round);
    if (r < values) {
      x[s] = r;
    } else if (r == values) {
      x[s] = s % values;
    } else if (r == values + 1) {
      x[s] = values - 1 - s % values;
    } else {
      x[s] = static_cast<std::uint32_t>(bits.bits(8) % values);
    }
  }
}

// The portable group select (four x in the lanes of 16-byte vectors, what CPUs without AVX2 run)
// for every table size, 80-bit thresholds (the brackets' top words packed into one plane) and
// 96-bit ones (not packed): every x in every lane, next to every other x.
TEST(HardenedBracket, PortableGroupSelectGivesTheTableEntriesAtEverySize) {
  SeededBits bits(test_support::fixed_seed(77, 3));
  for (const unsigned width_bits : {80U, 96U}) {
    for (std::size_t entries = 1; entries < kMaxBracketEntries; ++entries) {
      const ThresholdTable table = random_table(entries, bits, width_bits - 64);
      const BracketTable t = make_bracket_table(table, fixed_width(width_bits));
      ASSERT_EQ(t.packed, width_bits == 80) << entries << " entries";
      const auto expected = expected_brackets(table, width_bits);
      for (int round = 0; round < static_cast<int>(entries) + 12; ++round) {
        std::uint32_t x[kBracketGroup];
        fill_pattern(round, entries, bits, x);
        uint128 base[kBracketGroup], width[kBracketGroup];
        select_bracket_group_portable(t, x, base, width);
        for (std::size_t s = 0; s < kBracketGroup; ++s) {
          ASSERT_EQ(to_mpz(base[s]), expected[x[s]].first) << width_bits << " bits, " << entries << " entries, lane "
                                                           << s << ", x = " << x[s];
          ASSERT_EQ(to_mpz(width[s]), expected[x[s]].second) << width_bits << " bits, " << entries
                                                             << " entries, lane " << s << ", x = " << x[s];
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
