#include <exactdp/samplers/internal/hardened_rejection.h>

#include <mpfr.h>

#include <stdexcept>

#include <exactdp/core/interval.h>
#include <exactdp/samplers/internal/constant_time.h>

// The accept bit is the one value the rejection method branches on; it is independent of the
// accepted output (hardened_rejection.h), so the valgrind constant-time test is told it is public.
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#define EXACTDP_DECLASSIFY(v) VALGRIND_MAKE_MEM_DEFINED(&(v), sizeof(v))
#else
#define EXACTDP_DECLASSIFY(v) ((void)0)
#endif

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
  plan.table_tv_upper = half.tv_upper;
  plan.log2e_over_two_s0 = log2e_over_two_s0(s0);
  plan.exp = make_fixed_exp_tables();
  plan.acceptance_lower = acceptance_lower(s0, plan.j);
  const mpq_class acceptance_error(1, mpz_class(1) << 74);  // 2^-75 (fixed_exp.h) + 2^-80
  plan.tau_upper = (2 * plan.table_tv_upper + acceptance_error) / plan.acceptance_lower;
  return plan;
}

namespace {

// The half table's draw x from the 80-bit uniform (w0, top 16 bits of w2).
inline std::uint64_t proposal_x(const HardenedRejectionPlan& plan, std::uint64_t w0, std::uint64_t w2) noexcept {
  const std::uint64_t u[2] = {w0, w2 >> 48};
  std::uint32_t digits[kMaxScanDigits];
  split_digits<2>(u, plan.half_scan.digits_per_number, digits);
  const std::uint64_t below = plan.half_scan.count(plan.half_scan.digits.data(), plan.half_scan.padded, digits);
  return plan.half_scan.entries - below;
}

// y, the low j bits of w2.
inline std::uint64_t proposal_y(const HardenedRejectionPlan& plan, std::uint64_t w2) noexcept {
  return w2 & ((std::uint64_t{1} << plan.j) - 1);
}

// The rest of a proposal given x and its acceptance threshold (acceptance_threshold(plan, x, y)):
// the sign, the acceptance test; see rejection_proposal.
[[gnu::always_inline]] inline std::uint64_t proposal_accept(const HardenedRejectionPlan& plan, std::uint64_t x,
                                                            std::uint64_t w1, std::uint64_t w2,
                                                            uint128 acceptance, std::int64_t* value) noexcept {
  const std::uint64_t y = proposal_y(plan, w2);
  const std::uint64_t sign = (w2 >> 31) & 1;
  const uint128 uniform = (uint128{(w2 >> 32) & 0xFFFF} << 64) | w1;  // 80 bits
  const auto below_acceptance = static_cast<std::uint64_t>((uniform - acceptance) >> 127);
  const std::uint64_t z = (x << plan.j) + y;
  const std::uint64_t zero = 1 ^ ((z | (0 - z)) >> 63);
  *value = ct_negate_if(static_cast<std::int64_t>(z), sign);
  return below_acceptance & (1 ^ (zero & sign));
}

}  // namespace

std::uint64_t rejection_proposal(const HardenedRejectionPlan& plan, std::uint64_t w0, std::uint64_t w1,
                                 std::uint64_t w2, std::int64_t* value) noexcept {
  const std::uint64_t x = proposal_x(plan, w0, w2);
  return proposal_accept(plan, x, w1, w2, acceptance_threshold(plan, x, proposal_y(plan, w2)), value);
}

namespace {

// The 192 bits of one proposal, as three words (stream order, most significant first).
inline void proposal_words(BitSource& bits, std::uint64_t* w) {
  for (unsigned i = 0; i < 3; ++i) {
    const std::uint64_t high = bits.bits(32);  // two statements: the reads are ordered
    w[i] = (high << 32) | bits.bits(32);
  }
}
inline void proposal_words(BitSource::Reader& bits, std::uint64_t* w) { bits.words(w, 3); }

// A group's 3 kScanGroup words in one read (the same bits as kScanGroup proposal_words calls).
inline void read_group_words(BitSource::Reader& bits, std::uint64_t* w) { bits.words(w, 3 * kScanGroup); }

// One proposal at a time (the single draw): up to n (0 or 1) draws into out.
template <class Source>
std::size_t draw_one(Source& bits, const HardenedRejectionPlan& plan, std::int64_t mean, std::int64_t* out) noexcept {
  std::uint64_t w[3];
  proposal_words(bits, w);
  std::int64_t value = 0;
  std::uint64_t accepted = rejection_proposal(plan, w[0], w[1], w[2], &value);
  EXACTDP_DECLASSIFY(accepted);
  if (accepted == 0) return 0;
  *out = value + mean;
  return 1;
}

// A group of kScanGroup proposals: their words (one read), their table draws counted by one group
// scan (internal/hardened_scan.h), their 2^-(i/16) entries taken by one group select
// (FixedExpTables::select_group), their acceptance tests. Compiled for AVX2 beside the baseline.
struct ProposalGroup {
  std::uint64_t words[3 * kScanGroup];  // proposal s: its w0, w1, w2 at 3 s .. 3 s + 2 (stream order)
  std::uint32_t digits[3 * kScanGroup];
  std::uint32_t below[kScanGroup];
  uint128 exponent[kScanGroup];        // acceptance_exponent
  std::uint32_t index[kScanGroup];     // its table index (fixed_exp2_index)
  uint128 sixteenth[kScanGroup];       // the selected table entries
  static_assert(kScanGroup == kFixedSelectGroup, "one group select a group");
  std::uint64_t accepted[kScanGroup];
  std::int64_t value[kScanGroup];
  [[nodiscard]] std::uint64_t w0(std::size_t s) const noexcept { return words[3 * s]; }
  [[nodiscard]] std::uint64_t w1(std::size_t s) const noexcept { return words[3 * s + 1]; }
  [[nodiscard]] std::uint64_t w2(std::size_t s) const noexcept { return words[3 * s + 2]; }
};

EXACTDP_SCAN_CLONES void evaluate_group(const HardenedRejectionPlan& plan, ProposalGroup& g) noexcept {
  constexpr std::uint64_t kDigit = (std::uint64_t{1} << kScanDigitBits) - 1;
  for (std::size_t s = 0; s < kScanGroup; ++s) {  // the 80-bit uniform (w0, top 16 bits of w2)
    g.digits[s] = static_cast<std::uint32_t>(g.w0(s) & kDigit);
    g.digits[kScanGroup + s] = static_cast<std::uint32_t>((g.w0(s) >> kScanDigitBits) & kDigit);
    g.digits[2 * kScanGroup + s] = static_cast<std::uint32_t>((g.w0(s) >> 62) | ((g.w2(s) >> 48) << 2));
  }
  const ScanTable& t = plan.half_scan;
  t.count_group(t.digits.data(), t.padded, t.entries, g.digits, g.below);
  for (std::size_t s = 0; s < kScanGroup; ++s) {
    g.exponent[s] = acceptance_exponent(plan, t.entries - g.below[s], proposal_y(plan, g.w2(s)));
    g.index[s] = fixed_exp2_index(g.exponent[s]);
  }
  plan.exp.select_group(plan.exp, g.index, g.sixteenth);
  for (std::size_t s = 0; s < kScanGroup; ++s) {
    const uint128 acceptance = fixed_exp2_neg_at(g.exponent[s], plan.exp, g.sixteenth[s]) >> 47;
    g.accepted[s] = proposal_accept(plan, t.entries - g.below[s], g.w1(s), g.w2(s), acceptance, &g.value[s]);
  }
}

// The accepted proposals of one group into out (at most kScanGroup: the caller has room for a
// whole group); returns how many.
template <class Source>
std::size_t draw_group(Source& bits, const HardenedRejectionPlan& plan, std::int64_t mean, std::int64_t* out,
                       ProposalGroup& g) noexcept {
  read_group_words(bits, g.words);
  evaluate_group(plan, g);
  std::size_t done = 0;
  for (std::size_t s = 0; s < kScanGroup; ++s) {
    EXACTDP_DECLASSIFY(g.accepted[s]);
    if (g.accepted[s] != 0) out[done++] = g.value[s] + mean;
  }
  return done;
}

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
  // Whole groups while at least a group's worth of draws is left, then single proposals, so that a
  // short batch does not read a group for a few draws.
  ProposalGroup group;
  while (n - done >= kScanGroup) done += draw_group(reader, plan, mean, out + done, group);
  while (done < n) done += draw_one(reader, plan, mean, out + done);
}

}  // namespace exactdp::internal
