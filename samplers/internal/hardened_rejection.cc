#include <exactdp/samplers/internal/hardened_rejection.h>

#include <mpfr.h>

#include <bit>
#include <cstring>
#include <stdexcept>

#include <exactdp/core/interval.h>
#include <exactdp/samplers/internal/constant_time.h>

namespace exactdp::internal {
namespace {

constexpr std::size_t kMaxHalfEntries = 60;  // the bounds of rejection_proposal rely on it
constexpr mpfr_prec_t kBoundPrecision = 128;

// A_lower = (k sigma0 sqrt(2 pi) - 1) / (2 k (1 + sigma0 sqrt(pi / 2))) <= A, from
// sum_{z in Z} rho_sigma(z) >= sqrt(2 pi) sigma - 1 and sum_{x >= 0} rho_sigma0(x) <= 1 + sigma0
// sqrt(pi / 2) (rho falls on [0, inf)); numerator rounded down, denominator up.
mpq_class acceptance_lower(const mpq_class& s0, unsigned j) {
  Real sigma0(kBoundPrecision), root(kBoundPrecision), num(kBoundPrecision), den(kBoundPrecision);
  mpfr_set_q(sigma0, s0.get_mpq_t(), MPFR_RNDD);
  mpfr_sqrt(sigma0, sigma0, MPFR_RNDD);
  mpfr_const_pi(root, MPFR_RNDD);
  mpfr_mul_2ui(root, root, 1, MPFR_RNDD);  // 2 pi
  mpfr_sqrt(root, root, MPFR_RNDD);
  mpfr_mul(num, sigma0, root, MPFR_RNDD);
  mpfr_mul_2ui(num, num, j, MPFR_RNDD);     // k sigma0 sqrt(2 pi)
  mpfr_sub_ui(num, num, 1, MPFR_RNDD);
  mpfr_set_q(sigma0, s0.get_mpq_t(), MPFR_RNDU);
  mpfr_sqrt(sigma0, sigma0, MPFR_RNDU);
  mpfr_const_pi(root, MPFR_RNDU);
  mpfr_div_2ui(root, root, 1, MPFR_RNDU);   // pi / 2
  mpfr_sqrt(root, root, MPFR_RNDU);
  mpfr_mul(den, sigma0, root, MPFR_RNDU);
  mpfr_add_ui(den, den, 1, MPFR_RNDU);
  mpfr_mul_2ui(den, den, j + 1, MPFR_RNDU);  // 2 k (...)
  mpfr_div(num, num, den, MPFR_RNDD);
  return to_mpq(num);
}

// round(2^128 log2(e) / (2 s0)) (< 2^127: s0 >= 4), from a 320-bit enclosure (error < 1).
uint128 log2e_over_two_s0(const mpq_class& s0) {
  Real x(320), q(320);
  mpfr_const_log2(x, MPFR_RNDN);
  mpfr_ui_div(x, 1, x, MPFR_RNDN);  // log2(e)
  mpfr_set_q(q, s0.get_mpq_t(), MPFR_RNDN);
  mpfr_div(x, x, q, MPFR_RNDN);
  mpfr_mul_2ui(x, x, 127, MPFR_RNDN);  // 2^128 / 2
  mpz_class rounded;
  mpfr_get_z(rounded.get_mpz_t(), x, MPFR_RNDN);
  const mpz_class high = rounded >> 64;
  const mpz_class low = rounded - (high << 64);
  return (uint128{high.get_ui()} << 64) | low.get_ui();
}

}  // namespace

bool rejection_covers(const mpq_class& sigma2, unsigned tau_bits) {
  return tau_bits <= kRejectionMaxTauBits && sigma2 >= mpq_class(mpz_class(1) << kRejectionMinSigma2Log2) &&
         sigma2 < mpq_class(mpz_class(1) << kRejectionMaxSigma2Log2);
}

HardenedRejectionPlan make_rejection_plan(const mpq_class& sigma2) {
  if (!rejection_covers(sigma2, kRejectionMaxTauBits)) throw std::logic_error("rejection plan: sigma2 out of range");
  HardenedRejectionPlan plan;
  mpq_class s0 = sigma2;
  while (s0 >= 16) {  // s0 = sigma2 / 4^j in [4, 16)
    s0 /= 4;
    ++plan.j;
  }
  plan.sigma0_squared = s0;
  plan.width = fixed_width(kRejectionWidthBits);
  CertifiedTable half = build_half_gaussian_table(s0, plan.width, kRejectionTailLog2);
  if (half.table.entries > kMaxHalfEntries || plan.j > 26) throw std::logic_error("rejection plan: out of bounds");
  plan.half = std::move(half.table);
  plan.half_scan = make_scan_table(plan.half, plan.width);
  plan.brackets = make_bracket_table(plan.half, plan.width);
  for (std::size_t x = 0; x < plan.brackets.values; ++x) {
    const auto word = [&](unsigned p) { return std::uint64_t{plan.brackets.planes[p][x]}; };
    plan.bracket_words[0][x] = (word(1) << 32) | word(0);
    plan.bracket_words[1][x] = word(2);
    plan.bracket_words[2][x] = (word(4) << 32) | word(3);
    plan.bracket_words[3][x] = word(5);
  }
  plan.table_tv_upper = half.tv_upper;
  plan.log2e_over_two_s0 = log2e_over_two_s0(s0);
  plan.exp = make_fixed_exp52();
  plan.group = rejection_group_ifma();
  if (plan.group == nullptr) plan.group = rejection_group_avx2();
  plan.acceptance_lower = acceptance_lower(s0, plan.j);
  // alpha: E 2^-80 (fixed_exp52.h, E = kFixedExp52AlphaErrorUnits, its floor included) + 2^-116 (H)
  // < (E + 1) 2^-80; the residual's floor: at most 1 / w_x given x, (K + 1) 2^-80 averaged over x
  // (docs/HARDENED.md).
  const mpq_class acceptance_error = mpq_class(kFixedExp52AlphaErrorUnits + 1, mpz_class(1) << 80) +
                                     mpq_class(static_cast<unsigned long>(plan.brackets.values), mpz_class(1) << 80);
  plan.tau_upper = (2 * plan.table_tv_upper + acceptance_error) / plan.acceptance_lower;
  return plan;
}

namespace {

// The 80-bit table uniform u of a proposal window.
inline uint128 proposal_u(uint128 window) noexcept { return window >> 48; }

// The half table's draw x from u.
inline std::uint64_t proposal_x(const HardenedRejectionPlan& plan, uint128 u) noexcept {
  const std::uint64_t words[2] = {static_cast<std::uint64_t>(u), static_cast<std::uint64_t>(u >> 64)};
  std::uint32_t digits[kMaxScanDigits];
  split_digits<2>(words, plan.half_scan.digits_per_number, digits);
  const std::uint64_t below = plan.half_scan.count(plan.half_scan.digits.data(), plan.half_scan.padded, digits);
  return plan.half_scan.entries - below;
}

// y, the j bits below the sign (bit 47).
inline std::uint64_t proposal_y(const HardenedRejectionPlan& plan, uint128 window) noexcept {
  return static_cast<std::uint64_t>(window >> (47 - plan.j)) & ((std::uint64_t{1} << plan.j) - 1);
}

// The rest of a proposal given x, alpha (acceptance_fraction) and x's bracket (T_(x-1), w_x): the
// residual r = u - T_(x-1) against floor(alpha w_x / 2^80), the sign; see rejection_proposal.
[[gnu::always_inline]] inline std::uint64_t proposal_accept(const HardenedRejectionPlan& plan, std::uint64_t x,
                                                            uint128 window, uint128 alpha, uint128 base,
                                                            uint128 width, std::int64_t* value) noexcept {
  const auto sign = static_cast<std::uint64_t>(window >> 47) & 1;
  return proposal_decision(plan, x, proposal_y(plan, window), sign, proposal_u(window), alpha, base, width, value);
}

}  // namespace

uint128 acceptance_count(const HardenedRejectionPlan& plan, std::uint64_t x, std::uint64_t y) noexcept {
  uint128 base = 0, width = 0;
  select_bracket(plan.brackets, static_cast<std::uint32_t>(x), &base, &width);
  return acceptance_count(acceptance_fraction(plan, x, y), width);
}

EXACTDP_PRODUCT_CLONES std::uint64_t rejection_proposal(const HardenedRejectionPlan& plan, uint128 window,
                                                     std::int64_t* value) noexcept {
  const std::uint64_t x = proposal_x(plan, proposal_u(window));
  uint128 base = 0, width = 0;
  select_bracket(plan.brackets, static_cast<std::uint32_t>(x), &base, &width);
  const uint128 alpha = acceptance_fraction(plan, x, proposal_y(plan, window));
  return proposal_accept(plan, x, window, alpha, base, width, value);
}

namespace {

// The P bits of one proposal as its window (rejection_proposal): 64 bits, then P - 64 <= 43.
template <class Source>
inline uint128 proposal_window(Source& bits, unsigned p) {
  const std::uint64_t high = bits.bits(32);  // separate statements: the reads are ordered
  const std::uint64_t first = (high << 32) | bits.bits(32);
  const std::uint64_t rest = bits.bits(p - 64);
  return (uint128{first} << 64) | (uint128{rest} << (128 - p));
}

// The P bits of `count` <= kScanGroup proposals in one read (the same bits as count
// proposal_window calls) as the stream's bytes that hold them (Reader::stream_bytes), the first
// bit at bit 7 - first of bytes[0] (first returned); zero bytes after them up to the array's end,
// so that every window below reads 17 bytes inside the array (the windows of proposals past count
// read zeros).
static_assert(kRejectionGroupWords >= (kRejectionWidthBits + 1 + 26) / 2 + 1 + 8,
              "the IFMA group loads 16 words from any proposal's");
// A whole group's bits fill at least kZeroedTail 8-byte pieces (32 P >= 32 85 bits): the zeros after
// them are written as a fixed-size block first (a few vector stores; a fill of a variable length is
// a `rep stos`, slow to start), then the bits over its front.
constexpr std::size_t kZeroedTail = 40;
static_assert(kScanGroup * (kRejectionWidthBits + 1 + 4) / 64 >= kZeroedTail, "a group's bits reach the zeroed tail");
inline unsigned read_group_bytes(BitSource::Reader& bits, unsigned p, std::size_t count, unsigned char* bytes) {
  const std::size_t total = count * p;
  const std::size_t whole = total / 64;  // the read writes bytes 0 .. 8 whole - 1 at least
  using Pair = std::uint64_t __attribute__((vector_size(16)));
  const Pair zero = {0, 0};
#pragma GCC unroll 12
  for (std::size_t k = kZeroedTail; k < kRejectionGroupWords; k += 2) std::memcpy(bytes + 8 * k, &zero, sizeof zero);
  if (whole < kZeroedTail) std::memset(bytes + 8 * whole, 0, 8 * (kZeroedTail - whole));
  return bits.stream_bytes(bytes, total);
}

static_assert((7 + (kScanGroup - 1) * (kRejectionWidthBits + 1 + 26)) / 8 + 17 <= 8 * kRejectionGroupWords,
              "a window's 17 bytes inside the group's bytes");
// The first 8 bytes at `from` (stream order) as a word, the first most significant.
inline std::uint64_t stream_word(const unsigned char* from) noexcept {
  std::uint64_t w = 0;
  std::memcpy(&w, from, sizeof w);
  if constexpr (std::endian::native == std::endian::little) w = __builtin_bswap64(w);
  return w;
}

// The 128 bits from bit `at` of the group's bytes (the window of the proposal starting there): 17
// bytes from byte at / 8. at is public (first + a multiple of P).
inline uint128 window_at(const unsigned char* bytes, std::size_t at) noexcept {
  const unsigned char* from = bytes + at / 8;
  const unsigned shift = at % 8;  // (v >> 1) >> (63 - shift): no shift by 64 when shift = 0
  const std::uint64_t first = stream_word(from), second = stream_word(from + 8);
  const std::uint64_t high = (first << shift) | ((second >> 1) >> (63 - shift));
  const std::uint64_t low = (second << shift) | (std::uint64_t{from[16]} >> (8 - shift));
  return (uint128{high} << 64) | low;
}

// One proposal at a time (the single draw): up to n (0 or 1) draws into out.
template <class Source>
std::size_t draw_one(Source& bits, const HardenedRejectionPlan& plan, std::int64_t mean, std::int64_t* out) noexcept {
  const uint128 window = proposal_window(bits, plan.proposal_bits());
  std::int64_t value = 0;
  std::uint64_t accepted = rejection_proposal(plan, window, &value);
  EXACTDP_DECLASSIFY(accepted);
  if (accepted == 0) return 0;
  *out = value + mean;
  return 1;
}

// A group of kScanGroup proposals: their bits (one read), their table draws counted by one group
// scan (internal/hardened_scan.h), their alphas by one group evaluation (FixedExp52::group), their
// brackets by one group select (BracketTable::select_group), their acceptance tests. Compiled for
// AVX2 beside the baseline.
struct ProposalGroup {
  alignas(32) unsigned char bytes[8 * kRejectionGroupWords];
  unsigned first;  // the group's first bit: bit 7 - first of bytes[0]
  uint128 window[kScanGroup];
  std::uint32_t digits[3 * kScanGroup];
  std::uint32_t below[kScanGroup];
  std::uint32_t x[kScanGroup];
  uint128 exponent[kScanGroup];  // acceptance_exponent
  uint128 alpha[kScanGroup];     // acceptance_fraction
  static_assert(kScanGroup == kFixedExp52Group && kScanGroup == kBracketGroup, "one group evaluation a group");
  uint128 base[kScanGroup];
  uint128 width[kScanGroup];
  std::uint64_t accepted[kScanGroup];
  std::int64_t value[kScanGroup];
};

EXACTDP_PRODUCT_CLONES void evaluate_group(const HardenedRejectionPlan& plan, ProposalGroup& g) noexcept {
  constexpr std::uint64_t kDigit = (std::uint64_t{1} << kScanDigitBits) - 1;
  const unsigned p = plan.proposal_bits();
  for (std::size_t s = 0; s < kScanGroup; ++s) {  // the 80-bit uniform's three digits
    g.window[s] = window_at(g.bytes, g.first + s * p);
    const uint128 u = proposal_u(g.window[s]);
    g.digits[s] = static_cast<std::uint32_t>(static_cast<std::uint64_t>(u) & kDigit);
    g.digits[kScanGroup + s] = static_cast<std::uint32_t>(static_cast<std::uint64_t>(u >> kScanDigitBits) & kDigit);
    g.digits[2 * kScanGroup + s] = static_cast<std::uint32_t>(u >> (2 * kScanDigitBits));
  }
  const ScanTable& t = plan.half_scan;
  t.count_group(t.digits.data(), t.padded, t.entries, g.digits, g.below);
  for (std::size_t s = 0; s < kScanGroup; ++s) {
    g.x[s] = static_cast<std::uint32_t>(t.entries - g.below[s]);
    g.exponent[s] = acceptance_exponent(plan, g.x[s], proposal_y(plan, g.window[s]));
  }
  plan.exp.group(plan.exp, g.exponent, g.alpha);
  plan.brackets.select_group(plan.brackets, g.x, g.base, g.width);
  for (std::size_t s = 0; s < kScanGroup; ++s) {
    g.accepted[s] = proposal_accept(plan, g.x[s], g.window[s], g.alpha[s], g.base[s], g.width[s], &g.value[s]);
  }
}

// The accepted proposals among the first `count` of a group into out (at most count: the caller
// needs at least count more draws, so single draws would read these count proposals too); returns
// how many.
template <class Source>
std::size_t draw_group(Source& bits, const HardenedRejectionPlan& plan, std::int64_t mean, std::int64_t* out,
                       ProposalGroup& g, std::size_t count) noexcept {
  g.first = read_group_bytes(bits, plan.proposal_bits(), count, g.bytes);
  if (plan.group != nullptr) return plan.group(plan, g.bytes, g.first, count, mean, out);
  evaluate_group(plan, g);
  EXACTDP_DECLASSIFY(g.accepted);
  return compact_accepted(g.value, g.accepted, count, mean, out);
}

// Below this many draws left, single proposals cost less than a group's evaluation.
constexpr std::size_t kPartialGroupMin = 8;

}  // namespace

std::int64_t draw_hardened_rejection(BitSource& bits, const HardenedRejectionPlan& plan, std::int64_t mean) noexcept {
  std::int64_t out = 0;
  while (draw_one(bits, plan, mean, &out) == 0) {
  }
  return out;
}

void draw_hardened_rejection_n(BitSource& bits, const HardenedRejectionPlan& plan, std::int64_t mean,
                               std::int64_t* out, std::size_t n) noexcept {
  BitSource::Reader reader(bits);
  std::size_t done = 0;
  // Whole groups while at least a group's worth of draws is left; then, with m < kScanGroup draws
  // left, one group of m proposals (at least m proposals are needed, so they are exactly the
  // next m that single draws would read) if m is not small; then single proposals.
  ProposalGroup group;
  while (n - done >= kScanGroup) done += draw_group(reader, plan, mean, out + done, group, kScanGroup);
  if (n - done >= kPartialGroupMin) done += draw_group(reader, plan, mean, out + done, group, n - done);
  while (done < n) done += draw_one(reader, plan, mean, out + done);
}

}  // namespace exactdp::internal
