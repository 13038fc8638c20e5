#include <exactdp/samplers/internal/hardened_batch.h>

#include <algorithm>
#include <array>

#include <exactdp/samplers/internal/constant_time.h>
#include <exactdp/samplers/internal/hardened_scan.h>

namespace exactdp::internal {
namespace {

// A draw's record: its bits, read in one pass, 64 to a word (first bit = top bit of word 0),
// the last word zero-filled, then zero words so that a window may look past the end. Word k of
// draw s's record is words[k * kScanGroup + s] (one row per k), so that a field at the same
// place in every record is read by the same shifts for the whole group.
constexpr std::size_t kMaxRecordWords = (kMaxHardenedBitsPerSample + 63) / 64 + 3;
constexpr std::size_t kGroupWords = kMaxRecordWords * kScanGroup;
constexpr std::size_t kMaxWindows = 3;  // W + 1 <= 145 bits

// Reads the records of draws s < count (per_sample bits each, in stream order: draw 0's bits,
// then draw 1's, ...); every other word of the first `record_words` rows is zero.
void read_records(BitSource& bits, std::size_t count, std::size_t per_sample, std::size_t record_words,
                  std::uint64_t* __restrict words) noexcept {
  const std::size_t full = per_sample / 64;
  const unsigned rest = per_sample % 64;
  for (std::size_t s = 0; s < kScanGroup; ++s) {
    const bool present = s < count;  // public
    std::size_t k = 0;
    if (present) {
      for (; k < full; ++k) words[k * kScanGroup + s] = bits.bits(64);
      if (rest != 0) words[k++ * kScanGroup + s] = bits.bits(rest) << (64 - rest);
    }
    for (; k < record_words; ++k) words[k * kScanGroup + s] = 0;
  }
}

// out[s] = the 64 bits of draw s's record starting at bit `start` (the same shifts for every s).
[[gnu::always_inline]] inline void windows(const std::uint64_t* words, std::size_t start, std::uint64_t* out) noexcept {
  const std::uint64_t* high = words + start / 64 * kScanGroup;
  const std::uint64_t* low = high + kScanGroup;
  const unsigned shift = start % 64;
  for (std::size_t s = 0; s < kScanGroup; ++s) out[s] = (high[s] << shift) | ((low[s] >> 1) >> (63 - shift));
}

// The `length` (1..64) bits starting `p` bits after the top of the windows win[0], win[1], ...
inline std::uint64_t bits_at(const std::uint64_t (*win)[kScanGroup], std::size_t s, unsigned p,
                             unsigned length) noexcept {
  const unsigned q = p / 64;
  const unsigned r = p % 64;
  const std::uint64_t v = (win[q][s] << r) | ((win[q + 1][s] >> 1) >> (63 - r));
  return v >> (64 - length);
}

// Level j of the group: the digits of every draw's W-bit uniform in the layout of
// ScanTable::count_group, and its sign bit. The field (uniform, then sign) starts at bit
// j (W + 1) of each record; digit c holds bits [31 c, 31 c + 31) of the uniform. Every shift is
// the same for the whole group, so the loops over s run on vectors (AVX2 copy beside the
// baseline one, as the scans).
EXACTDP_SCAN_CLONES void level_digits(const std::uint64_t* words, std::size_t level_start, unsigned width_bits,
                  unsigned digits_per_number, std::uint32_t* digits, std::uint64_t* negative) noexcept {
  std::uint64_t win[kMaxWindows + 1][kScanGroup];
  const unsigned used = (width_bits + 1 + 63) / 64;
  for (unsigned k = 0; k < used; ++k) windows(words, level_start + 64 * k, win[k]);
  for (std::size_t s = 0; s < kScanGroup; ++s) win[used][s] = 0;
  for (unsigned c = 0; c < digits_per_number; ++c) {
    const unsigned low = c * kScanDigitBits;
    const unsigned high = std::min(low + kScanDigitBits, width_bits);
    const unsigned p = width_bits - high;  // the digit's top bit, from the field's top
    for (std::size_t s = 0; s < kScanGroup; ++s) {
      digits[c * kScanGroup + s] = static_cast<std::uint32_t>(bits_at(win, s, p, high - low));
    }
  }
  for (std::size_t s = 0; s < kScanGroup; ++s) negative[s] = bits_at(win, s, width_bits, 1);
}

// count <= kScanGroup draws into out.
void draw_group(BitSource& bits, const HardenedGaussianPlan& plan, std::int64_t mean, std::int64_t* out,
                std::size_t count, std::uint64_t* words) noexcept {
  const unsigned width = plan.width.width_bits;
  const std::size_t per_sample = (plan.levels + 1) * std::size_t{width + 1};
  read_records(bits, count, per_sample, (per_sample + 63) / 64 + 3, words);
  std::array<std::int64_t, kScanGroup> x{};
  std::array<std::uint32_t, kMaxScanDigits * kScanGroup> digits{};
  std::array<std::uint32_t, kScanGroup> below{};
  std::array<std::uint64_t, kScanGroup> negative{};
  std::int64_t weight = 1;  // m^j
  for (unsigned j = 0; j <= plan.levels; ++j) {
    const ScanTable& table = j < plan.levels ? plan.fine_scan : plan.base_scan;
    level_digits(words, j * std::size_t{width + 1}, width, table.digits_per_number, digits.data(), negative.data());
    table.count_group(table.digits.data(), table.padded, table.entries, digits.data(), below.data());
    for (std::size_t s = 0; s < kScanGroup; ++s) {
      const auto magnitude = static_cast<std::int64_t>(table.entries - below[s]);
      x[s] += weight * ct_negate_if(magnitude, negative[s]);
    }
    weight *= plan.m;
  }
  for (std::size_t s = 0; s < count; ++s) out[s] = x[s] + mean;
}

}  // namespace

void draw_hardened_gaussian_n(BitSource& bits, const HardenedGaussianPlan& plan, std::int64_t mean,
                              std::int64_t* out, std::size_t n) noexcept {
  std::array<std::uint64_t, kGroupWords> words;  // NOLINT: filled before it is read
  for (std::size_t start = 0; start < n; start += kScanGroup) {
    draw_group(bits, plan, mean, out + start, std::min<std::size_t>(kScanGroup, n - start), words.data());
  }
}

}  // namespace exactdp::internal
