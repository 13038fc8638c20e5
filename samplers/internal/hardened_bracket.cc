#include <exactdp/samplers/internal/hardened_bracket.h>
#include <exactdp/core/cpu_level.h>
#include <exactdp/samplers/internal/lane_words.h>

#include <stdexcept>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace exactdp::internal {

namespace {

// The words of (T_(x-1), w_x) for four x, from the accumulators of the select below: Planes = 6 as
// in BracketTable::planes, Planes = 5 packed (BracketTable::lanes).
template <unsigned Planes>
[[gnu::always_inline]] inline void store_brackets(const WordLanes* acc, uint128* base, uint128* width) noexcept {
  WordLanes top_base = acc[2], top_width;
  if constexpr (Planes == kBracketPlanes) {
    top_width = acc[5];
  } else {
    top_base &= WordLanes{0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF};
    top_width = acc[2] >> 16;
  }
  const WordLanes base_words[4] = {acc[0], acc[1], top_base, WordLanes{}};
  const WordLanes width_words[4] = {acc[3], acc[4], top_width, WordLanes{}};
  store_lane_numbers(base_words, base);
  store_lane_numbers(width_words, width);
}

// 4 Vectors x a pass, one in each 32-bit lane: entry e's words (broadcast to the lanes in t.lanes)
// are kept where x == e (a lane compare: a mask, no branch, no secret address) and ORed into
// Planes accumulators a vector, for e < K + 1 (public), then put together into (T_(x-1), w_x) once
// per x. Packed, two vectors a pass (ten accumulators fit the 16 SSE2 registers) read each entry
// once for eight x: 3547 -> 3347 instructions a group.
template <unsigned Planes, unsigned Vectors>
void select_lanes(const BracketTable& t, const std::uint32_t* x, uint128* base, uint128* width) noexcept {
  constexpr std::size_t kLanes = 4;
  const WordLanes one = {1, 1, 1, 1};
  for (std::size_t first = 0; first < kBracketGroup; first += kLanes * Vectors) {
    WordLanes want[Vectors];
    std::memcpy(want, x + first, sizeof want);
    WordLanes at = {0, 0, 0, 0};
    WordLanes acc[Vectors][Planes];
#pragma GCC unroll 2
    for (unsigned v = 0; v < Vectors; ++v) {
#pragma GCC unroll 6
      for (unsigned p = 0; p < Planes; ++p) acc[v][p] = WordLanes{};
    }
    for (std::size_t e = 0; e < t.values; ++e) {
#pragma GCC unroll 2
      for (unsigned v = 0; v < Vectors; ++v) {
        const WordLanes keep = (WordLanes)(at == want[v]);  // NOLINT: a vector cast of the same size
#pragma GCC unroll 6
        for (unsigned p = 0; p < Planes; ++p) acc[v][p] |= t.lanes[e][p] & keep;
      }
      at += one;
    }
#pragma GCC unroll 2
    for (unsigned v = 0; v < Vectors; ++v) {
      store_brackets<Planes>(acc[v], base + first + kLanes * v, width + first + kLanes * v);
    }
  }
}

}  // namespace

void select_bracket_group_portable(const BracketTable& t, const std::uint32_t* x, uint128* base,
                                   uint128* width) noexcept {
  if (t.packed) {  // public: a property of the table
    select_lanes<kBracketPlanes - 1, 2>(t, x, base, width);
  } else {
    select_lanes<kBracketPlanes, 1>(t, x, base, width);
  }
}

#if defined(__x86_64__)
namespace {
// Entries 8 q .. 8 q + 7 of plane p.
[[gnu::always_inline]] __attribute__((target("avx2"))) inline __m256i plane_block(const BracketPlanes& planes,
                                                                                  unsigned p, std::size_t q) noexcept {
  return _mm256_load_si256(reinterpret_cast<const __m256i*>(&planes[p][8 * q]));
}
}  // namespace

// Eight x at a time: lane s of plane p's result is word p of entry x_s, taken from the eight-entry
// block q = x_s / 8 by a register permute (vpermd uses the low three bits of x_s) and kept by a
// blend where x_s >= 8 q (blocks in increasing order, so the last kept block is x_s's). The loops
// over the planes are unrolled, so that the six words stay in registers.
__attribute__((target("avx2"))) void select_planes_avx2(const BracketPlanes& planes, std::size_t blocks,
                                                        const std::uint32_t* x,
                                                        std::uint32_t (*out)[kBracketGroup]) noexcept {
  for (std::size_t first = 0; first < kBracketGroup; first += 8) {
    const __m256i at = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x + first));
    __m256i word[kBracketPlanes];
#pragma GCC unroll 6
    for (unsigned p = 0; p < kBracketPlanes; ++p) word[p] = _mm256_permutevar8x32_epi32(plane_block(planes, p, 0), at);
    for (std::size_t q = 1; q < blocks; ++q) {
      const __m256i in_block = _mm256_cmpgt_epi32(at, _mm256_set1_epi32(static_cast<int>(8 * q - 1)));
#pragma GCC unroll 6
      for (unsigned p = 0; p < kBracketPlanes; ++p) {
        word[p] = _mm256_blendv_epi8(word[p], _mm256_permutevar8x32_epi32(plane_block(planes, p, q), at), in_block);
      }
    }
#pragma GCC unroll 6
    for (unsigned p = 0; p < kBracketPlanes; ++p) {
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(&out[p][first]), word[p]);
    }
  }
}
#endif

namespace {

#if defined(__x86_64__)
__attribute__((target("avx2"))) void select_bracket_group_avx2(const BracketTable& t, const std::uint32_t* x,
                                                               uint128* base, uint128* width) noexcept {
  alignas(32) std::uint32_t word[kBracketPlanes][kBracketGroup];
  select_planes_avx2(t.planes, t.blocks, x, word);
  const auto number = [&](unsigned first, std::size_t s) {
    return (uint128{word[first + 2][s]} << 64) | (std::uint64_t{word[first + 1][s]} << 32) | word[first][s];
  };
  for (std::size_t s = 0; s < kBracketGroup; ++s) {
    base[s] = number(0, s);
    width[s] = number(3, s);
  }
}
#endif

BracketSelectGroup best_bracket_select_group() noexcept {
#if defined(__x86_64__)
  if (__builtin_cpu_supports("avx2") && cpu_level_allows(CpuLevel::kAvx2)) return select_bracket_group_avx2;
#endif
  return select_bracket_group_portable;
}

void set_entry(BracketPlanes& planes, std::size_t x, unsigned first_plane, const mpz_class& v) {
  for (unsigned p = 0; p < 3; ++p) {
    const mpz_class word = (v >> (32 * p)) & 0xFFFFFFFFUL;
    planes[first_plane + p][x] = static_cast<std::uint32_t>(word.get_ui());
  }
}

// BracketTable::lanes from the planes (packed where every top word is below 2^16).
void fill_lanes(BracketTable& t) noexcept {
  t.packed = true;
  for (std::size_t x = 0; x < t.values; ++x) {
    t.packed = t.packed && t.planes[2][x] < 0x10000 && t.planes[5][x] < 0x10000;
  }
  for (std::size_t x = 0; x < t.values; ++x) {
    std::uint32_t word[kBracketPlanes];
    for (unsigned p = 0; p < kBracketPlanes; ++p) word[p] = t.planes[p][x];
    if (t.packed) {
      word[2] |= word[5] << 16;
      word[5] = 0;
    }
    for (unsigned p = 0; p < kBracketPlanes; ++p) t.lanes[x][p] = WordLanes{word[p], word[p], word[p], word[p]};
  }
}

}  // namespace

BracketTable make_bracket_table(const ThresholdTable& table, const FixedWidth& width) {
  if (width.width_bits > 96 || table.entries + 1 > kMaxBracketEntries) {
    throw std::logic_error("bracket table: at most 96-bit thresholds and 63 entries");
  }
  BracketTable t;
  t.values = table.entries + 1;
  t.blocks = (t.values + 7) / 8;
  const mpz_class top = mpz_class(1) << width.width_bits;
  mpz_class previous = 0;
  for (std::size_t x = 0; x < t.values; ++x) {
    const mpz_class next = x < table.entries ? table.threshold(x, width.limbs) : top;
    set_entry(t.planes, x, 0, previous);
    set_entry(t.planes, x, 3, next - previous);
    set_entry(t.scaled, x, 0, previous << 16);
    set_entry(t.scaled, x, 3, next - previous);
    previous = next;
  }
  fill_lanes(t);
  t.select_group = best_bracket_select_group();
  return t;
}

}  // namespace exactdp::internal
