// internal/hardened_batch.h — many hardened discrete Gaussian draws at once (not installed; the
// public call is sample_discrete_gaussian_n in hardened_discrete_gaussian.h).
//
// Same bits, same values: draws s = 0, 1, ... of a batch are exactly what successive single draws
// (draw_hardened_gaussian) return from the same stream, and the batch reads exactly n times
// bits_per_sample() bits. Only the order of the work changes:
//   1. the random bits of a group of kScanGroup draws are read in one pass, 64 at a time, into a
//      buffer on the stack (a draw's bits are (L + 1) fields of W + 1 bits: its W-bit uniform,
//      most significant bit first, then its sign bit; draw s's fields follow draw s - 1's);
//   2. level by level, the group's uniforms are cut into their 31-bit digits (shifts by public
//      offsets) and the level's table is scanned once for the whole group
//      (ScanTable::count_group: every threshold broadcast against 8 uniforms per vector);
//   3. each draw adds m^j (+-|Z_j|) exactly as the single draw does.
// Isochronous: every loop count and address depends only on n and the public plan (a partial
// last group is padded with zero uniforms whose results are dropped); no branch on a bit or a
// value; noexcept and no allocation (the buffers are on the stack, at most about 15 KB).
#pragma once

#include <cstddef>
#include <cstdint>

#include <exactdp/samplers/bit_source.h>
#include <exactdp/samplers/internal/hardened_plans.h>

namespace exactdp::internal {

// The most bits a hardened Gaussian draw reads: 25 tables (24 levels at sigma2 = 2^100) of
// W + 1 = 145 bits (tau_bits = 128). make() checks every plan against it.
inline constexpr std::size_t kMaxHardenedBitsPerSample = 25 * 145;

// out[s] = the s-th of n successive draw_hardened_gaussian(bits, plan, mean) calls.
void draw_hardened_gaussian_n(BitSource& bits, const HardenedGaussianPlan& plan, std::int64_t mean,
                              std::int64_t* out, std::size_t n) noexcept;

}  // namespace exactdp::internal
