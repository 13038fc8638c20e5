// internal/hardened_bracket.h — the interval of a table draw (not installed): for the draw
// x = #{i < K : u >= T_i} of a W-bit threshold table (W <= 96), the lower end T_(x-1) (T_(-1) = 0)
// and the width w_x = T_x - T_(x-1) (T_K = 2^W) of the interval [T_(x-1), T_x) that holds u. The
// rejection method (internal/hardened_rejection.h) reuses the residual u - T_(x-1), uniform on
// [0, w_x) given x, as its acceptance uniform.
//
// Layout: x = 0 .. K (at most kMaxBracketEntries values), six planes of 32-bit words: plane p < 3
// holds word p of T_(x-1), plane 3 + p word p of w_x (least significant first), entries past K 0.
// Selection by a secret x never uses x as an address:
//   select_bracket   one x: a masked pass over every entry (eight lanes at a time);
//   select_group     kBracketGroup x at once: on x86-64 CPUs with AVX2 (chosen at run time,
//                    hardened_bracket.cc), register permutes (vpermd, whose lane choice is an operand)
//                    of eight entries at a time and blends on x >= 8 q, q < the public number of
//                    eight-entry blocks; elsewhere four x at a time, one in each lane of 16-byte
//                    vectors, against every entry broadcast to the lanes (a masked pass).
// Both give exactly the table's entries (tests/samplers/hardened_bracket_test.cc), so the values
// and bits of a draw are the same on every CPU.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include <exactdp/samplers/int128.h>
#include <exactdp/samplers/internal/hardened_tables.h>
#include <exactdp/samplers/internal/lane_words.h>

namespace exactdp::internal {

inline constexpr std::size_t kMaxBracketEntries = 64;  // x = 0 .. K, K < 64
inline constexpr std::size_t kBracketGroup = 32;
inline constexpr unsigned kBracketPlanes = 6;

struct BracketTable;
// base[s] = T_(x_s - 1), width[s] = w_(x_s) for s < kBracketGroup.
using BracketSelectGroup = void (*)(const BracketTable& t, const std::uint32_t* x, uint128* base,
                                    uint128* width);

using BracketPlanes = std::uint32_t[kBracketPlanes][kMaxBracketEntries];

struct BracketTable {
  std::size_t values = 0;  // K + 1
  std::size_t blocks = 0;  // ceil(values / 8)
  alignas(32) BracketPlanes planes = {};
  // The same brackets for the rejection method's AVX2 group: 2^16 T_(x-1) (below 2^96) as three
  // 32-bit words, least significant first, then w_x's three words (as in planes).
  alignas(32) BracketPlanes scaled = {};
  // For the portable group select: entry x's words broadcast to four 32-bit lanes, x < values;
  // packed when every T_(x-1) and w_x is below 2^80 (so their top words below 2^16): then
  // lanes[x][2] holds T_(x-1)'s top word plus 2^16 times w_x's, lanes[x][3 .. 4] w_x's low words.
  bool packed = false;
  alignas(16) WordLanes lanes[kMaxBracketEntries][kBracketPlanes] = {};
  BracketSelectGroup select_group = nullptr;
};

// The brackets of `table` (W <= 96 bits a threshold, K + 1 <= kMaxBracketEntries;
// std::logic_error otherwise), with the fastest group select this CPU runs.
[[nodiscard]] BracketTable make_bracket_table(const ThresholdTable& table, const FixedWidth& width);

// (T_(x-1), w_x) for x <= K, reading every entry: the lanes of a counter equal to x keep their
// words (a mask, no branch, no secret address).
[[gnu::always_inline]] inline void select_bracket(const BracketTable& t, std::uint32_t x, uint128* base,
                                                  uint128* width) noexcept {
  using Lanes = std::uint32_t __attribute__((vector_size(32)));
  const Lanes want = {x, x, x, x, x, x, x, x};
  const Lanes eight = {8, 8, 8, 8, 8, 8, 8, 8};
  Lanes at = {0, 1, 2, 3, 4, 5, 6, 7};
  Lanes acc[kBracketPlanes];
#pragma GCC unroll 6
  for (unsigned p = 0; p < kBracketPlanes; ++p) acc[p] = Lanes{};  // registers, not a memset
  for (std::size_t i = 0; i < t.blocks * 8; i += 8) {
    const Lanes keep = (Lanes)(at == want);  // NOLINT: a vector cast of the same size
#pragma GCC unroll 6
    for (unsigned p = 0; p < kBracketPlanes; ++p) {
      Lanes v;
      std::memcpy(&v, &t.planes[p][i], sizeof v);
      acc[p] |= v & keep;
    }
    at += eight;
  }
  std::uint32_t word[kBracketPlanes];
  for (unsigned p = 0; p < kBracketPlanes; ++p) {
    word[p] = acc[p][0] | acc[p][1] | acc[p][2] | acc[p][3] | acc[p][4] | acc[p][5] | acc[p][6] | acc[p][7];
  }
  *base = (uint128{word[2]} << 64) | (std::uint64_t{word[1]} << 32) | word[0];
  *width = (uint128{word[5]} << 64) | (std::uint64_t{word[4]} << 32) | word[3];
}

#if defined(__x86_64__)
// out[p][s] = planes[p][x[s]] for the six planes and s < kBracketGroup, by the register-permute
// select (see above) over the first `blocks` eight-entry blocks; only on CPUs with AVX2 (the
// caller checks).
void select_planes_avx2(const BracketPlanes& planes, std::size_t blocks, const std::uint32_t* x,
                        std::uint32_t (*out)[kBracketGroup]) noexcept;
#endif

// The group select on 16-byte vectors (any CPU; hardened_bracket.cc): four x in the lanes, a masked
// pass over the K + 1 entries.
void select_bracket_group_portable(const BracketTable& t, const std::uint32_t* x, uint128* base,
                                   uint128* width) noexcept;

}  // namespace exactdp::internal
