#include <exactdp/samplers/internal/hardened_bracket.h>
#include <exactdp/core/cpu_level.h>

#include <stdexcept>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace exactdp::internal {

void select_bracket_group_portable(const BracketTable& t, const std::uint32_t* x, uint128* base,
                                   uint128* width) noexcept {
  for (std::size_t s = 0; s < kBracketGroup; ++s) select_bracket(t, x[s], base + s, width + s);
}

#if defined(__x86_64__)
namespace {

// to[0 .. 7] = the eight 64-bit words low + high 2^32 of two planes' lanes (unpack: entries 0, 1,
// 4, 5 and 2, 3, 6, 7, then the 128-bit halves put back in order).
[[gnu::always_inline]] __attribute__((target("avx2"))) inline void store_pairs(std::uint64_t* to, __m256i low,
                                                                               __m256i high) noexcept {
  const __m256i a = _mm256_unpacklo_epi32(low, high);
  const __m256i b = _mm256_unpackhi_epi32(low, high);
  _mm256_store_si256(reinterpret_cast<__m256i*>(to), _mm256_permute2x128_si256(a, b, 0x20));
  _mm256_store_si256(reinterpret_cast<__m256i*>(to + 4), _mm256_permute2x128_si256(a, b, 0x31));
}

// to[0 .. 7] = a plane's eight lanes, zero-extended.
[[gnu::always_inline]] __attribute__((target("avx2"))) inline void store_widened(std::uint64_t* to,
                                                                                 __m256i plane) noexcept {
  _mm256_store_si256(reinterpret_cast<__m256i*>(to), _mm256_cvtepu32_epi64(_mm256_castsi256_si128(plane)));
  _mm256_store_si256(reinterpret_cast<__m256i*>(to + 4), _mm256_cvtepu32_epi64(_mm256_extracti128_si256(plane, 1)));
}

}  // namespace

// Eight x at a time: lane s of plane p's result is word p of entry x_s, taken from the eight-entry
// block q = x_s / 8 by a register permute (vpermd uses the low three bits of x_s) and kept by a
// blend where x_s >= 8 q (blocks in increasing order, so the last kept block is x_s's); the 32-bit
// planes then paired into 64-bit words, the top words zero-extended.
__attribute__((target("avx2"))) void select_bracket_words_avx2(const BracketTable& t, const std::uint32_t* x,
                                                               BracketWords& out) noexcept {
  for (std::size_t first = 0; first < kBracketGroup; first += 8) {
    const __m256i at = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x + first));
    __m256i word[kBracketPlanes];
    for (unsigned p = 0; p < kBracketPlanes; ++p) {
      word[p] = _mm256_permutevar8x32_epi32(_mm256_load_si256(reinterpret_cast<const __m256i*>(&t.planes[p][0])), at);
    }
    for (std::size_t q = 1; q < t.blocks; ++q) {
      const __m256i in_block = _mm256_cmpgt_epi32(at, _mm256_set1_epi32(static_cast<int>(8 * q - 1)));
      for (unsigned p = 0; p < kBracketPlanes; ++p) {
        const __m256i v = _mm256_load_si256(reinterpret_cast<const __m256i*>(&t.planes[p][8 * q]));
        word[p] = _mm256_blendv_epi8(word[p], _mm256_permutevar8x32_epi32(v, at), in_block);
      }
    }
    store_pairs(out.base_low + first, word[0], word[1]);
    store_widened(out.base_high + first, word[2]);
    store_pairs(out.width_low + first, word[3], word[4]);
    store_widened(out.width_high + first, word[5]);
  }
}
#endif

namespace {

#if defined(__x86_64__)
__attribute__((target("avx2"))) void select_bracket_group_avx2(const BracketTable& t, const std::uint32_t* x,
                                                               uint128* base, uint128* width) noexcept {
  BracketWords words;
  select_bracket_words_avx2(t, x, words);
  for (std::size_t s = 0; s < kBracketGroup; ++s) {
    base[s] = (uint128{words.base_high[s]} << 64) | words.base_low[s];
    width[s] = (uint128{words.width_high[s]} << 64) | words.width_low[s];
  }
}
#endif

BracketSelectGroup best_bracket_select_group() noexcept {
#if defined(__x86_64__)
  if (__builtin_cpu_supports("avx2") && cpu_level_allows(CpuLevel::kAvx2)) return select_bracket_group_avx2;
#endif
  return select_bracket_group_portable;
}

void set_entry(BracketTable& t, std::size_t x, unsigned first_plane, const mpz_class& v) {
  for (unsigned p = 0; p < 3; ++p) {
    const mpz_class word = (v >> (32 * p)) & 0xFFFFFFFFUL;
    t.planes[first_plane + p][x] = static_cast<std::uint32_t>(word.get_ui());
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
    set_entry(t, x, 0, previous);
    set_entry(t, x, 3, next - previous);
    previous = next;
  }
  t.select_group = best_bracket_select_group();
  return t;
}

}  // namespace exactdp::internal
