#include <exactdp/samplers/internal/cumulative_table.h>

#include <gmpxx.h>

#include <algorithm>
#include <cstddef>
#include <stdexcept>

#include <exactdp/samplers/internal/cks20.h>
#include <exactdp/core/errors.h>

namespace exactdp::internal {
namespace {

// floor(2^64 x) (down) or ceil(2^64 x) (up) of an MPFR number, clamped to [0, 2^64].
uint128 scaled_64(const mpfr_t x, bool up) {
  mpfr_t y;
  mpfr_init2(y, mpfr_get_prec(x));
  mpfr_mul_2ui(y, x, 64, up ? MPFR_RNDU : MPFR_RNDD);  // exact (exponent change)
  mpz_class z;
  mpfr_get_z(z.get_mpz_t(), y, up ? MPFR_RNDU : MPFR_RNDD);
  mpfr_clear(y);
  if (sgn(z) < 0) return 0;
  const mpz_class top = mpz_class(1) << 64;
  if (z > top) z = top;
  uint128 out = 0;
  fits_uint128(z, out);
  return out;
}

unsigned bit_length(std::uint64_t v) {
  unsigned n = 0;
  for (; v != 0; v >>= 1) ++n;
  return n;
}

std::vector<std::unique_ptr<Interval>> make_enclosures(std::size_t n, mpfr_prec_t prec) {
  std::vector<std::unique_ptr<Interval>> out;
  out.reserve(n);
  for (std::size_t i = 0; i < n; ++i) out.push_back(std::make_unique<Interval>(prec));
  return out;
}

}  // namespace

void enclose_exp_minus(const mpq_class& e, Interval& out, mpfr_prec_t prec) {
  Interval a(prec);
  mpfr_set_q(a.upper(), e.get_mpq_t(), MPFR_RNDU);
  mpfr_set_q(a.lower(), e.get_mpq_t(), MPFR_RNDD);
  mpfr_neg(a.upper(), a.upper(), MPFR_RNDD);  // exact
  mpfr_neg(a.lower(), a.lower(), MPFR_RNDU);  // exact
  mpfr_exp(out.lower(), a.upper(), MPFR_RNDD);
  mpfr_exp(out.upper(), a.lower(), MPFR_RNDU);
}

CumulativeTable::CumulativeTable(std::size_t n, Boundaries enclose, mpfr_prec_t prec,
                                 const Options& options)
    : enclose_(std::move(enclose)), refine_(options.refine) {
  if (n < 1 || n >= kUndecided) {
    throw ParameterError::out_of_range("n", std::to_string(n), "1 <= n < 65535 boundaries (cumulative table)");
  }
  if (options.bound_bits < 1 || options.bound_bits > 64) {
    throw ParameterError::out_of_range("bound_bits", std::to_string(options.bound_bits), "1 <= bound_bits <= 64");
  }
  if (options.max_guide_bits > 16 || options.min_guide_bits < 1 || options.min_guide_bits > options.max_guide_bits) {
    throw ParameterError::out_of_range("guide_bits", std::to_string(options.min_guide_bits) + ".." + std::to_string(options.max_guide_bits),
                                       "1 <= min_guide_bits <= max_guide_bits <= 16");
  }
  if (options.guide_extra_bits > 16) {
    throw ParameterError::out_of_range("guide_extra_bits", std::to_string(options.guide_extra_bits), "guide_extra_bits <= 16");
  }
  auto bounds = make_enclosures(n, prec);
  enclose_(prec, bounds);
  const uint128 coarse = uint128{1} << (64 - options.bound_bits);
  lo_.resize(n);
  hi_.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    uint128 lo = scaled_64(bounds[i]->lower(), false);
    uint128 hi = scaled_64(bounds[i]->upper(), true);
    lo -= lo % coarse;  // outward to the coarse grid
    if (hi % coarse != 0) hi += coarse - hi % coarse;
    lo_[i] = lo;
    hi_[i] = std::min<uint128>(hi, uint128{1} << 64);
  }
  // Monotone (still valid bounds, since C is increasing).
  for (std::size_t i = 1; i < n; ++i) lo_[i] = std::max(lo_[i], lo_[i - 1]);
  for (std::size_t i = n - 1; i-- > 0;) hi_[i] = std::min(hi_[i], hi_[i + 1]);

  // Guide: about 2^guide_extra_bits prefixes per slot, at most 2^max_guide_bits entries.
  const unsigned k = std::clamp(bit_length(n + 1) + options.guide_extra_bits, options.min_guide_bits,
                                options.max_guide_bits);
  guide_bits_ = k;
  guide_.resize(std::size_t{1} << k);
  std::size_t nlo = 0, nhi = 0;  // only grow with j: one sweep
  for (std::uint64_t j = 0; j < (std::uint64_t{1} << k); ++j) {
    const uint128 x0 = static_cast<uint128>(j) << (64 - k);
    const uint128 x1 = x0 + (uint128{1} << (64 - k));
    while (nlo < n && hi_[nlo] <= x0) ++nlo;
    while (nhi < n && lo_[nhi] < x1) ++nhi;
    guide_[j] = static_cast<std::uint16_t>(nlo == nhi ? nlo : (n < kHinted ? kHinted | nlo : kUndecided));
  }
  decided_limit_ = n < kHinted ? kHinted : kUndecided;
}

namespace {

// The first index in [first, last) of the sorted v whose value fails `before` (std::partition_point),
// by a short scan first: U's interval holds one or two boundaries in all but coarse test tables.
template <class Before>
std::ptrdiff_t partition_near(const std::vector<uint128>& v, std::ptrdiff_t first, std::ptrdiff_t last, Before before) {
  for (const std::ptrdiff_t end = std::min(last, first + 8); first < end; ++first) {
    if (!before(v[static_cast<std::size_t>(first)])) return first;
  }
  return std::partition_point(v.begin() + first, v.begin() + last, before) - v.begin();
}

}  // namespace

std::uint32_t CumulativeTable::locate(BitSource& bits, std::uint64_t prefix, std::uint32_t entry) const {
  std::uint64_t u = prefix;
  unsigned len = guide_bits_;
  // nlo = #{i : hi_i <= x0}, nhi = #{i : lo_i < x1}, nlo <= nhi (lo_i <= hi_i). As U's interval
  // [x0, x1) shrinks, nlo can only grow and nhi only fall, so each search after the first runs
  // over the previous [nlo, nhi] only (the first from the guide's nlo): the same counts (and
  // bits), fewer comparisons.
  std::ptrdiff_t first = entry == kUndecided ? 0 : static_cast<std::ptrdiff_t>(entry & (kHinted - 1));
  auto last = static_cast<std::ptrdiff_t>(hi_.size());
  for (;;) {
    const uint128 x0 = static_cast<uint128>(u) << (64 - len);
    const uint128 x1 = x0 + (uint128{1} << (64 - len));
    const auto nlo = partition_near(hi_, first, last, [x0](uint128 h) { return h <= x0; });
    const auto nhi = partition_near(lo_, nlo, last, [x1](uint128 l) { return l < x1; });
    if (nlo == nhi) return static_cast<std::uint32_t>(nlo);
    first = nlo;
    last = nhi;
    if (len == 64) return refine(bits, u, static_cast<std::uint32_t>(nlo), static_cast<std::uint32_t>(nhi));
    u = (u << 1) | (bits.bit() ? 1U : 0U);
    ++len;
  }
}

std::uint32_t CumulativeTable::refine(BitSource& bits, std::uint64_t u64, std::uint32_t first,
                                      std::uint32_t last) const {
  if (!refine_) return first;  // the deliberately broken variant (tests only)
  mpz_class u(static_cast<unsigned long>(u64));
  unsigned long len = 64;
  // Boundaries below `first` are certainly <= U, those from `last` on certainly > U.
  for (std::uint32_t j = first; j < last; ++j) {
    if (below_boundary(bits, u, len, j)) return j;
  }
  return last;
}

// Exact U < C_{i+1} (stored index i), extending U from `bits` as needed.
bool CumulativeTable::below_boundary(BitSource& bits, mpz_class& u, unsigned long& len,
                                     std::size_t i) const {
  mpz_class u1;
  for (mpfr_prec_t prec = 128;; prec *= 2) {
    auto bounds = make_enclosures(lo_.size(), prec + 32);
    enclose_(prec + 32, bounds);
    Interval& b = *bounds[i];
    while (len < static_cast<unsigned long>(prec)) {  // extend U by 64 bits at a time
      u <<= 64;
      u += static_cast<unsigned long>(bits.bits(64));
      len += 64;
    }
    // U in [u, u + 1) 2^-len. U < C if u + 1 <= 2^len C_lo; U >= C if u >= 2^len C_hi.
    mpfr_mul_2ui(b.lower(), b.lower(), len, MPFR_RNDD);  // exact
    mpfr_mul_2ui(b.upper(), b.upper(), len, MPFR_RNDU);  // exact
    u1 = u + 1;
    if (mpfr_cmp_z(b.lower(), u1.get_mpz_t()) >= 0) return true;
    if (mpfr_cmp_z(b.upper(), u.get_mpz_t()) <= 0) return false;
  }
}

}  // namespace exactdp::internal
