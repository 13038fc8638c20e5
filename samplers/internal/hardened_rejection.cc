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

uint128 inverse_two_s0(const mpq_class& s0) {
  const mpq_class scaled = mpq_class(mpz_class(1) << 127) / s0;  // 2^128 / (2 s0)
  const mpz_class rounded = (scaled.get_num() * 2 + scaled.get_den()) / (scaled.get_den() * 2);
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
  plan.inverse_two_s0 = inverse_two_s0(s0);
  plan.exp = make_fixed_exp_tables();
  plan.acceptance_lower = acceptance_lower(s0, plan.j);
  const mpq_class acceptance_error(1, mpz_class(1) << 79);
  plan.tau_upper = (2 * plan.table_tv_upper + acceptance_error) / plan.acceptance_lower;
  return plan;
}

std::uint64_t rejection_proposal(const HardenedRejectionPlan& plan, std::uint64_t w0, std::uint64_t w1,
                                 std::uint64_t w2, std::int64_t* value) noexcept {
  // x: the half table's draw from the 80-bit uniform (w0, top 16 bits of w2).
  const std::uint64_t u[2] = {w0, w2 >> 48};
  std::uint32_t digits[kMaxScanDigits];
  split_digits<2>(u, plan.half_scan.digits_per_number, digits);
  const std::uint64_t below = plan.half_scan.count(plan.half_scan.digits.data(), plan.half_scan.padded, digits);
  const std::uint64_t x = plan.half_scan.entries - below;
  const std::uint64_t y = w2 & ((std::uint64_t{1} << plan.j) - 1);
  const std::uint64_t sign = (w2 >> 31) & 1;
  // gamma = y (y + 2 k x) / (2 sigma2) = M R / 2^180 with M = N 2^(52 - 2 j) < 2^59, R ~ 2^128 / (2 s0).
  const std::uint64_t product = y * (y + (x << (plan.j + 1)));
  const std::uint64_t m = product << (52 - 2 * plan.j);
  const uint128 high = uint128{m} * static_cast<std::uint64_t>(plan.inverse_two_s0 >> 64);
  const uint128 low = uint128{m} * static_cast<std::uint64_t>(plan.inverse_two_s0);
  const uint128 gamma = (high << 1) + (low >> 63);  // gamma 2^117
  const uint128 acceptance = fixed_exp_neg(gamma, plan.exp) >> 47;  // floor(2^80 exp(-gamma))
  const uint128 uniform = (uint128{(w2 >> 32) & 0xFFFF} << 64) | w1;
  const auto below_acceptance = static_cast<std::uint64_t>((uniform - acceptance) >> 127);
  const std::uint64_t z = (x << plan.j) + y;
  const std::uint64_t zero = 1 ^ ((z | (0 - z)) >> 63);
  *value = ct_negate_if(static_cast<std::int64_t>(z), sign);
  return below_acceptance & (1 ^ (zero & sign));
}

namespace {

// The 192 bits of one proposal, as three words (stream order, most significant first): four
// 48-bit reads, each served by one load.
template <class Source>
inline void proposal_words(Source& bits, std::uint64_t* w) {
  const std::uint64_t a = bits.bits(48), b = bits.bits(48), c = bits.bits(48), d = bits.bits(48);
  w[0] = (a << 16) | (b >> 32);
  w[1] = (b << 32) | (c >> 16);
  w[2] = (c << 48) | d;
}

template <class Source>
inline std::int64_t draw(Source& bits, const HardenedRejectionPlan& plan) {
  for (;;) {
    std::uint64_t w[3];
    proposal_words(bits, w);
    std::int64_t value = 0;
    std::uint64_t accepted = rejection_proposal(plan, w[0], w[1], w[2], &value);
    EXACTDP_DECLASSIFY(accepted);
    if (accepted != 0) return value;
  }
}

}  // namespace

std::int64_t draw_hardened_rejection(BitSource& bits, const HardenedRejectionPlan& plan, std::int64_t mean) noexcept {
  return draw(bits, plan) + mean;
}

void draw_hardened_rejection_n(BitSource& bits, const HardenedRejectionPlan& plan, std::int64_t mean,
                               std::int64_t* out, std::size_t n) noexcept {
  BitSource::Reader reader(bits);
  for (std::size_t i = 0; i < n; ++i) out[i] = draw(reader, plan) + mean;
}

}  // namespace exactdp::internal
