#include <exactdp/samplers/internal/bucket_gaussian.h>

#include <mpfr.h>

#include <algorithm>
#include <stdexcept>
#include <vector>

#include <exactdp/samplers/internal/bucket_acceptance.h>
#include <exactdp/samplers/internal/cks20.h>
#include <exactdp/core/errors.h>

namespace exactdp::internal {
namespace {

// C_i = S_i / M, S_i = sum_{b < i} w(bW), M = S_B + w(BW) / (W (1 - exp(-BW q/p))) (the
// envelope masses divided by W), every step rounded outward (all quantities positive).
void envelope_boundaries(const mpq_class& sigma2, unsigned k, long buckets, mpfr_prec_t prec,
                         std::vector<std::unique_ptr<Interval>>& out) {
  const mpz_class width = mpz_class(1) << k;
  // c = exp(-W^2 / (2 sigma2)); w((b+1)W) = w(bW) c^(2b+1).
  Interval c(prec), c2(prec), d(prec), w(prec), sum(prec), tail(prec);
  enclose_exp_minus(mpq_class(width * width) / (2 * sigma2), c, prec);
  mpfr_mul(c2.lower(), c.lower(), c.lower(), MPFR_RNDD);
  mpfr_mul(c2.upper(), c.upper(), c.upper(), MPFR_RNDU);
  mpfr_set(d.lower(), c.lower(), MPFR_RNDD);
  mpfr_set(d.upper(), c.upper(), MPFR_RNDU);
  mpfr_set_ui(w.lower(), 1, MPFR_RNDD);
  mpfr_set_ui(w.upper(), 1, MPFR_RNDU);
  mpfr_set_ui(sum.lower(), 0, MPFR_RNDD);
  mpfr_set_ui(sum.upper(), 0, MPFR_RNDU);
  for (long b = 0; b < buckets; ++b) {
    mpfr_add(sum.lower(), sum.lower(), w.lower(), MPFR_RNDD);  // S_{b+1}
    mpfr_add(sum.upper(), sum.upper(), w.upper(), MPFR_RNDU);
    mpfr_set(out[static_cast<std::size_t>(b)]->lower(), sum.lower(), MPFR_RNDD);
    mpfr_set(out[static_cast<std::size_t>(b)]->upper(), sum.upper(), MPFR_RNDU);
    mpfr_mul(w.lower(), w.lower(), d.lower(), MPFR_RNDD);  // w((b+1)W)
    mpfr_mul(w.upper(), w.upper(), d.upper(), MPFR_RNDU);
    mpfr_mul(d.lower(), d.lower(), c2.lower(), MPFR_RNDD);
    mpfr_mul(d.upper(), d.upper(), c2.upper(), MPFR_RNDU);
  }
  // tail = w(BW) / (W (1 - r)), r = exp(-a), a = BW / sigma2, with 1 - r = -expm1(-a)
  // (increasing in a; a can be ~2^-160 at sigma2 = 10^100, where 1 - r would cancel): the lower
  // end from a rounded down and expm1 rounded up, the upper end the other way.
  Interval a(prec), one_minus_r(prec);
  const mpq_class a_exact = mpq_class(width * buckets) / sigma2;
  mpfr_set_q(a.lower(), a_exact.get_mpq_t(), MPFR_RNDD);
  mpfr_set_q(a.upper(), a_exact.get_mpq_t(), MPFR_RNDU);
  mpfr_neg(a.lower(), a.lower(), MPFR_RNDU);  // exact: -a rounded up
  mpfr_neg(a.upper(), a.upper(), MPFR_RNDD);  // exact: -a rounded down
  mpfr_expm1(one_minus_r.lower(), a.lower(), MPFR_RNDU);
  mpfr_neg(one_minus_r.lower(), one_minus_r.lower(), MPFR_RNDD);  // exact
  mpfr_expm1(one_minus_r.upper(), a.upper(), MPFR_RNDD);
  mpfr_neg(one_minus_r.upper(), one_minus_r.upper(), MPFR_RNDU);  // exact
  mpfr_mul_2ui(one_minus_r.lower(), one_minus_r.lower(), k, MPFR_RNDD);  // exact
  mpfr_mul_2ui(one_minus_r.upper(), one_minus_r.upper(), k, MPFR_RNDU);
  mpfr_div(tail.lower(), w.lower(), one_minus_r.upper(), MPFR_RNDD);
  mpfr_div(tail.upper(), w.upper(), one_minus_r.lower(), MPFR_RNDU);
  Interval total(prec);
  mpfr_add(total.lower(), sum.lower(), tail.lower(), MPFR_RNDD);
  mpfr_add(total.upper(), sum.upper(), tail.upper(), MPFR_RNDU);
  for (long b = 0; b < buckets; ++b) {  // S_i / M: lower over upper, upper over lower
    Interval& e = *out[static_cast<std::size_t>(b)];
    mpfr_div(e.lower(), e.lower(), total.upper(), MPFR_RNDD);
    mpfr_div(e.upper(), e.upper(), total.lower(), MPFR_RNDU);
  }
}

unsigned bit_length(const mpz_class& v) { return sgn(v) == 0 ? 0 : static_cast<unsigned>(mpz_sizeinbase(v.get_mpz_t(), 2)); }

// k uniform bits as an integer: one read of k bits when k <= 64, else 64-bit reads (most
// significant first) after a first read of k mod 64 bits. Same bits, same value on both paths.
void uniform_bits(BitSource& bits, unsigned k, mpz_class& out) {
  out = 0;
  unsigned first = k % 64 == 0 ? std::min(k, 64U) : k % 64;
  if (first != 0) out = static_cast<unsigned long>(bits.bits(first));
  for (unsigned done = first; done < k; done += 64) {
    out <<= 64;
    out += static_cast<unsigned long>(bits.bits(64));
  }
}

}  // namespace

std::shared_ptr<const BucketGaussian> BucketGaussian::build(const mpq_class& sigma2_in,
                                                            const BucketGaussianOptions& options) {
  mpq_class sigma2 = sigma2_in;
  sigma2.canonicalize();
  if (sigma2 < kMinSigma2 || bit_length(sigma2.get_num()) > kMaxParamBits ||
      bit_length(sigma2.get_den()) > kMaxParamBits) {
    return nullptr;
  }
  std::shared_ptr<BucketGaussian> out(new BucketGaussian());
  out->p_ = sigma2.get_num();
  out->q_ = sigma2.get_den();
  out->two_p_ = 2 * out->p_;
  out->accept_ = options.accept;
  out->exp_square_ = options.exp_square;
  mpz_class s = out->p_ / out->q_;
  mpz_sqrt(s.get_mpz_t(), s.get_mpz_t());
  const unsigned n = bit_length(s);
  out->k_ = n > 7 ? n - 7 : 0;
  if (options.width_bits >= 0) {
    if (options.width_bits > 4096) throw ParameterError::out_of_range("width_bits", std::to_string(options.width_bits), "width_bits <= 4096 (bucket sampler)");
    out->k_ = static_cast<unsigned>(options.width_bits);
  }
  const mpz_class width = mpz_class(1) << out->k_;
  long buckets = options.buckets;
  if (buckets < 0) {
    mpz_class bz = 10 * (s + 1);
    mpz_cdiv_q(bz.get_mpz_t(), bz.get_mpz_t(), width.get_mpz_t());
    buckets = mpz_get_si(bz.get_mpz_t());
  }
  if (buckets < 1 || buckets >= 0xfffe) throw ParameterError::out_of_range("buckets", std::to_string(buckets), "1 <= buckets < 65534 (bucket sampler)");
  out->buckets_ = buckets;
  out->tail_start_ = width * buckets;
  // Fast path: 2p, q, x = bW + U <= BW and the exponent numerator U (2bW + U) q < (BW)^2 q all
  // below 2^127, and U fits one 64-bit read.
  const mpz_class limit = mpz_class(1) << 127;
  const mpz_class max_num = out->tail_start_ * out->tail_start_ * out->q_;
  out->fast_ = out->k_ <= 64 && out->two_p_ < limit && out->q_ < limit && max_num < limit;
  if (out->fast_) {
    fits_uint128(out->two_p_, out->p2_fast_);
    fits_uint128(out->q_, out->q_fast_);
    const mpz_class limit64 = mpz_class(1) << 64;
    out->narrow_ = out->two_p_ < limit64 && max_num < limit64;
    out->p2_narrow_ = static_cast<std::uint64_t>(out->p2_fast_);
    out->q_narrow_ = static_cast<std::uint64_t>(out->q_fast_);
    // 2p >= 2 * 10^4: the reciprocal is below 2^(64+16) / 2^14 and the block bounds >= 1 when
    // needed (num >= 2^64 and num < 2p imply 2p > 2^16).
    out->reciprocal_ = (uint128{1} << (64 + kBlockBits)) / out->p2_fast_;
    out->p2_block_low_ = out->p2_fast_ >> kBlockBits;
    out->p2_block_high_ = (out->p2_fast_ + (uint128{1} << kBlockBits) - 1) >> kBlockBits;
  }
  const unsigned k = out->k_;
  CumulativeTable::Options table_options;
  table_options.bound_bits = options.bound_bits;
  table_options.refine = options.refine;
  const auto prec = static_cast<mpfr_prec_t>(112);  // 64 bits + margin for ~4B roundings
  out->table_ = std::make_unique<const CumulativeTable>(
      static_cast<std::size_t>(buckets),
      [sigma2, k, buckets](mpfr_prec_t precision, std::vector<std::unique_ptr<Interval>>& bounds) {
        envelope_boundaries(sigma2, k, buckets, precision, bounds);
      },
      prec, table_options);
  return out;
}

bool BucketGaussian::tail(BitSource& bits, mpz_class& x) const {
  // G ~ Geometric, P[G = g] ~ exp(-g s / t) with t = p, s = BW q (sample_geometric_exp).
  const mpz_class g = sample_geometric_exp(bits, p_, mpz_class(tail_start_ * q_));
  if (accept_) {
    const mpz_class num = g * g * q_;
    if (!bernoulli_exp<mpz_class>(bits, num, two_p_)) return false;
  }
  x = tail_start_ + g;
  return true;
}

// A tail round with its sign: false if rejected (tail() or the rejected -0), else x = |Z|.
bool BucketGaussian::tail_round(BitSource& bits, uint128& x, bool& negative) const {
  mpz_class big;
  if (!tail(bits, big)) return false;
  // G = floor((U + p V) / (BW q)) < p 2^64 / (BW q) + 1 < 2^127 (V < 2^64, 2p < 2^127,
  // BW q >= 1), so x = BW + G < 2^128: it fits.
  fits_uint128(big, x);
  negative = bits.bit();
  return x != 0 || !negative;
}

// The acceptance on Word integers (bucket_acceptance.h): stage 1 with gamma's 16-bit bracket,
// then stages 2-3; gamma >= 1 (test knobs only) and den >= 2^64 go through the GMP routine, which
// reads the same bits.
template <typename Word>
[[gnu::always_inline]] inline bool BucketGaussian::accepts(BitSource& bits, Word num, Word p2, std::uint64_t v) const {
  if (num == 0) return true;
  if (num >= p2) return bernoulli_exp_blocks(bits, to_mpz(num), to_mpz(p2), v, !exp_square_);
  std::uint64_t g_low = 0, g_high = 0;
  if (static_cast<uint128>(num) >> 64 == 0) {
    // 2^16 gamma = num (reciprocal + d) / 2^64, 0 <= d < 1, num < 2^64: in [G, G + 2).
    const auto n = static_cast<std::uint64_t>(num);
    const uint128 low_product = static_cast<uint128>(n) * static_cast<std::uint64_t>(reciprocal_);
    g_low = n * static_cast<std::uint64_t>(reciprocal_ >> 64) + static_cast<std::uint64_t>(low_product >> 64);
    g_high = g_low + 2;
  } else {
    const uint128 num_wide = num;
    g_low = static_cast<std::uint64_t>(num_wide / p2_block_high_);
    g_high = static_cast<std::uint64_t>(std::min<uint128>(num_wide / p2_block_low_ + 1, uint128{1} << (kBlockBits + 1)));
  }
  switch (quick_decision(v, g_low, g_high, !exp_square_)) {
    case BlockDecision::kAccept:
      return true;
    case BlockDecision::kReject:
      return false;
    case BlockDecision::kUndecided:
      break;
  }
  if (static_cast<uint128>(p2) >> 64 == 0) {
    return exp_minus_below(bits, static_cast<std::uint64_t>(num), static_cast<std::uint64_t>(p2), v);
  }
  return bernoulli_exp_blocks(bits, to_mpz(num), to_mpz(p2), v);
}

// The bucket rounds on Word integers (std::uint64_t when narrow_: the header's "narrow"
// argument, BW < 2^32; uint128 otherwise): the same steps and bits for both widths. q and p2 are
// q and 2p at that width. The guide prefix, U, R's first block and the sign are one read when
// guide_bits + k + 17 <= 64 (the header's Construction, step 4).
template <typename Word>
[[gnu::always_inline]] inline uint128 BucketGaussian::draw_rounds(BitSource& bits, bool& negative, Word q, Word p2) const {
  constexpr unsigned kAfterU = kBlockBits + 1;
  const unsigned guide = table_->guide_bits();
  const bool one_read = guide + k_ + kAfterU <= 64;
  for (;;) {
    std::uint64_t prefix = 0, u_bits = 0, v = 0;
    bool sign = false;
    if (one_read) {
      const std::uint64_t w = bits.bits(guide + k_ + kAfterU);
      prefix = w >> (k_ + kAfterU);
      u_bits = (w >> kAfterU) & ((std::uint64_t{1} << k_) - 1);  // k_ <= 64 - 17 - guide
      v = (w >> 1) & ((std::uint64_t{1} << kBlockBits) - 1);
      sign = (w & 1) != 0;
    } else {
      prefix = bits.bits(guide);
      u_bits = bits.bits(k_);
      v = bits.bits(kBlockBits);
      sign = bits.bit();
    }
    const std::uint32_t slot = table_->slot_of(bits, prefix);
    if (slot >= static_cast<std::uint32_t>(buckets_)) {
      uint128 x = 0;
      if (tail_round(bits, x, negative)) return x;
      continue;
    }
    const Word u = static_cast<Word>(u_bits);
    const Word base = static_cast<Word>(slot) << k_;
    if (accept_ && !accepts<Word>(bits, u * (2 * base + u) * q, p2, v)) continue;
    const Word x = base + u;
    if (x == 0 && sign) continue;
    negative = sign;
    return x;
  }
}

uint128 BucketGaussian::draw_fast(BitSource& bits, bool& negative) const {
  return narrow_ ? draw_rounds<std::uint64_t>(bits, negative, q_narrow_, p2_narrow_)
                 : draw_rounds<uint128>(bits, negative, q_fast_, p2_fast_);
}

// draw_rounds<std::uint64_t> (one read per round, the default knobs) for n draws, with the
// sampler's constants and the stream position in locals (BitSource::Reader): the same steps,
// bits and values; the rare branches (an open guide prefix, the tail, an undecided or wide
// acceptance) run on the source itself.
std::size_t BucketGaussian::draw_batch_narrow(BitSource& source, std::int64_t* out, std::size_t n, uint128& magnitude,
                                              bool& negative) const {
  constexpr unsigned kAfterU = kBlockBits + 1;
  const CumulativeTable& table = *table_;
  const unsigned guide = table.guide_bits();
  const unsigned k = k_;
  const unsigned round_bits = guide + k + kAfterU;
  const std::uint64_t u_mask = (std::uint64_t{1} << k) - 1;
  const std::uint64_t q = q_narrow_, p2 = p2_narrow_;
  const auto r_low = static_cast<std::uint64_t>(reciprocal_), r_high = static_cast<std::uint64_t>(reciprocal_ >> 64);
  const auto buckets = static_cast<std::uint32_t>(buckets_);
  BitSource::Reader bits(source);
  for (std::size_t i = 0; i < n; ++i) {
    // A hint: the guide entry of the next draw, if this one takes one round (no effect on values).
    table.prefetch(bits.peek(round_bits, guide));
    for (;;) {
      const std::uint64_t w = bits.bits(round_bits);
      const std::uint64_t prefix = w >> (k + kAfterU);
      std::uint32_t slot = table.guide_entry(prefix);
      if (!table.decides(slot)) slot = bits.with_source([&](BitSource& b) { return table.slot_of(b, prefix); });
      const bool sign = (w & 1) != 0;
      if (slot >= buckets) {
        uint128 x = 0;
        bool tail_sign = false;
        if (!bits.with_source([&](BitSource& b) { return tail_round(b, x, tail_sign); })) continue;
        if (x >> 63 != 0) {
          magnitude = x;
          negative = tail_sign;
          return i;
        }
        out[i] = tail_sign ? -static_cast<std::int64_t>(x) : static_cast<std::int64_t>(x);
        break;
      }
      const std::uint64_t u = (w >> kAfterU) & u_mask;
      const std::uint64_t base = static_cast<std::uint64_t>(slot) << k;
      const std::uint64_t num = u * (2 * base + u) * q;
      const std::uint64_t v = (w >> 1) & ((std::uint64_t{1} << kBlockBits) - 1);
      if (num != 0) {  // accepts<std::uint64_t>, stage 1 inline
        if (num >= p2) {
          if (!bits.with_source([&](BitSource& b) { return accepts<std::uint64_t>(b, num, p2, v); })) continue;
        } else {
          const std::uint64_t g_low =
              num * r_high + static_cast<std::uint64_t>((static_cast<uint128>(num) * r_low) >> 64);
          const BlockDecision d = quick_decision(v, g_low, g_low + 2, false);
          if (d == BlockDecision::kReject) continue;
          if (d == BlockDecision::kUndecided &&
              !bits.with_source([&](BitSource& b) { return exp_minus_below(b, num, p2, v); })) {
            continue;
          }
        }
      }
      const std::uint64_t x = base + u;  // < BW < 2^32
      if (x == 0 && sign) continue;
      out[i] = sign ? -static_cast<std::int64_t>(x) : static_cast<std::int64_t>(x);
      break;
    }
  }
  return n;
}

std::size_t BucketGaussian::draw_batch(BitSource& bits, std::int64_t* out, std::size_t n, uint128& magnitude,
                                       bool& negative) const {
  if (narrow_ && accept_ && exp_square_ && table_->guide_bits() + k_ + kBlockBits + 1 <= 64) {
    return draw_batch_narrow(bits, out, n, magnitude, negative);
  }
  // One loop per width, draw_rounds inlined in it (the width test and the call hoisted). Each
  // draw first prefetches the guide entry of the draw after it, if that one starts where a
  // one-read round ends (a hint: the bits and values do not depend on it).
  const unsigned guide = table_->guide_bits();
  const unsigned round_bits = guide + k_ + kBlockBits + 1;
  const unsigned ahead = round_bits <= 64 ? round_bits : 0;
  auto run = [&](auto word, auto q, auto p2) -> std::size_t {
    using Word = decltype(word);
    for (std::size_t i = 0; i < n; ++i) {
      table_->prefetch(bits.peek(ahead, guide));
      bool sign = false;
      const uint128 x = draw_rounds<Word>(bits, sign, q, p2);
      if (x >> 63 != 0) {
        magnitude = x;
        negative = sign;
        return i;
      }
      const auto value = static_cast<std::int64_t>(x);
      out[i] = sign ? -value : value;
    }
    return n;
  };
  return narrow_ ? run(std::uint64_t{0}, q_narrow_, p2_narrow_) : run(uint128{0}, q_fast_, p2_fast_);
}

namespace {

// Scratch integers of the GMP path, kept per thread so that a draw reuses their limbs instead
// of allocating (allocation was half the time at sigma2 = 10^100).
struct GmpScratch {
  mpz_class u, num;
};

}  // namespace

void BucketGaussian::draw_gmp(BitSource& bits, mpz_class& magnitude, bool& negative) const {
  thread_local GmpScratch s;
  for (;;) {
    const std::uint64_t prefix = bits.bits(table_->guide_bits());
    uniform_bits(bits, k_, s.u);
    const std::uint64_t v = bits.bits(kBlockBits);
    const bool sign = bits.bit();
    const std::uint32_t slot = table_->slot_of(bits, prefix);
    if (slot < static_cast<std::uint32_t>(buckets_)) {
      mpz_set_ui(magnitude.get_mpz_t(), slot);
      mpz_mul_2exp(magnitude.get_mpz_t(), magnitude.get_mpz_t(), k_);  // bW
      mpz_mul_2exp(s.num.get_mpz_t(), magnitude.get_mpz_t(), 1);
      mpz_add(s.num.get_mpz_t(), s.num.get_mpz_t(), s.u.get_mpz_t());
      mpz_mul(s.num.get_mpz_t(), s.num.get_mpz_t(), s.u.get_mpz_t());
      if (q_ != 1) mpz_mul(s.num.get_mpz_t(), s.num.get_mpz_t(), q_.get_mpz_t());
      mpz_add(magnitude.get_mpz_t(), magnitude.get_mpz_t(), s.u.get_mpz_t());
      if (accept_ && !bernoulli_exp_blocks(bits, s.num, two_p_, v, !exp_square_)) continue;
      if (sgn(magnitude) == 0 && sign) continue;
      negative = sign;
      return;
    }
    if (!tail(bits, magnitude)) continue;
    negative = bits.bit();
    if (sgn(magnitude) == 0 && negative) continue;
    return;
  }
}

}  // namespace exactdp::internal
