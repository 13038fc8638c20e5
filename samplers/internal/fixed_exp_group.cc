// The group select of fixed_exp.h: kFixedSelectGroup entries of the 2^-(i/16) table at once.
//
// AVX2 (x86-64 CPUs that have it, chosen at run time): for eight indices at a time, word d of each
// selected entry is two register permutes (vpermd of the words of entries 0..7 and of 8..15, the
// index's low three bits choosing the lane) and a blend on whether the index is >= 8; a 4 x 8 word
// transpose (unpacks and lane permutes) then assembles the eight 128-bit entries. No table address
// depends on an index and no branch: constant time in the sense of fixed_select16, at about four
// instructions an element instead of fixed_select16's fifty.
// Elsewhere: fixed_select16 once per element. Both return exactly t.exp2_sixteenth[index[s]]
// (tests/samplers/fixed_exp_test.cc compares them on every index pattern it draws).
#include <exactdp/samplers/internal/fixed_exp.h>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace exactdp::internal {

void fixed_select_group_portable(const FixedExpTables& t, const std::uint32_t* index, uint128* selected) noexcept {
  for (std::size_t s = 0; s < kFixedSelectGroup; ++s) selected[s] = fixed_select16(t.exp2_sixteenth, index[s]);
}

#if defined(__x86_64__)
namespace {

__attribute__((target("avx2"))) void select_group_avx2(const FixedExpTables& t, const std::uint32_t* index,
                                                       uint128* selected) noexcept {
  __m256i low[4], high[4];  // word d of entries 0..7 and of entries 8..15
  for (unsigned d = 0; d < 4; ++d) {
    low[d] = _mm256_load_si256(reinterpret_cast<const __m256i*>(&t.sixteenth_words[d][0]));
    high[d] = _mm256_load_si256(reinterpret_cast<const __m256i*>(&t.sixteenth_words[d][8]));
  }
  const __m256i seven = _mm256_set1_epi32(7);
  for (std::size_t base = 0; base < kFixedSelectGroup; base += 8) {
    const __m256i at = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(index + base));
    const __m256i upper = _mm256_cmpgt_epi32(at, seven);  // all ones where index >= 8
    __m256i word[4];                                      // word[d] lane s: word d of entry index[s]
    for (unsigned d = 0; d < 4; ++d) {
      word[d] = _mm256_blendv_epi8(_mm256_permutevar8x32_epi32(low[d], at),
                                   _mm256_permutevar8x32_epi32(high[d], at), upper);
    }
    // Transpose: within each 128-bit half (elements 0..3 and 4..7), a01 = (w0, w1) of elements
    // 0, 1; b01 = of elements 2, 3; a23, b23 the same for (w2, w3).
    const __m256i a01 = _mm256_unpacklo_epi32(word[0], word[1]);
    const __m256i b01 = _mm256_unpackhi_epi32(word[0], word[1]);
    const __m256i a23 = _mm256_unpacklo_epi32(word[2], word[3]);
    const __m256i b23 = _mm256_unpackhi_epi32(word[2], word[3]);
    const __m256i e0 = _mm256_unpacklo_epi64(a01, a23);  // elements 0 | 4
    const __m256i e1 = _mm256_unpackhi_epi64(a01, a23);  // elements 1 | 5
    const __m256i e2 = _mm256_unpacklo_epi64(b01, b23);  // elements 2 | 6
    const __m256i e3 = _mm256_unpackhi_epi64(b01, b23);  // elements 3 | 7
    auto* out = reinterpret_cast<__m256i*>(selected + base);
    _mm256_storeu_si256(out + 0, _mm256_permute2x128_si256(e0, e1, 0x20));  // elements 0, 1
    _mm256_storeu_si256(out + 1, _mm256_permute2x128_si256(e2, e3, 0x20));  // elements 2, 3
    _mm256_storeu_si256(out + 2, _mm256_permute2x128_si256(e0, e1, 0x31));  // elements 4, 5
    _mm256_storeu_si256(out + 3, _mm256_permute2x128_si256(e2, e3, 0x31));  // elements 6, 7
  }
}

}  // namespace
#endif

FixedSelectGroup best_fixed_select_group() noexcept {
#if defined(__x86_64__)
  if (__builtin_cpu_supports("avx2")) return select_group_avx2;
#endif
  return fixed_select_group_portable;
}

}  // namespace exactdp::internal
