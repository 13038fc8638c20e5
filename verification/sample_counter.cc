#include <exactdp/verification/sample_counter.h>

namespace exactdp::verification {
namespace {
constexpr std::int64_t kFastLimit = std::int64_t{1} << 40;

mpz_class from_int128(int128 v) {
  const bool negative = v < 0;
  const uint128 u = negative ? static_cast<uint128>(-(v + 1)) + 1 : static_cast<uint128>(v);
  mpz_class out(static_cast<unsigned long>(u >> 64));
  out <<= 64;
  out += static_cast<unsigned long>(u & 0xffffffffffffffffULL);
  return negative ? mpz_class(-out) : out;
}
}  // namespace

SampleCounter::SampleCounter(const ReferenceLaw& law, std::vector<mpz_class> thresholds)
    : center_(law.center()), cells_(2 * kHalfCells, 0), thresholds_(std::move(thresholds)) {
  width_ = law.spread() / 32;
  if (width_ < 1) width_ = 1;
  beyond_.assign(thresholds_.size(), 0);
  fast_ = mpz_fits_slong_p(center_.get_mpz_t()) && abs(center_) < mpz_class(kFastLimit) &&
          width_ < mpz_class(kFastLimit);
  if (fast_) {
    c64_ = mpz_get_si(center_.get_mpz_t());
    w64_ = mpz_get_si(width_.get_mpz_t());
    for (const auto& t : thresholds_) {
      thresholds64_.push_back(t < mpz_class(kFastLimit) ? static_cast<std::int64_t>(mpz_get_si(t.get_mpz_t())) : -1);
    }
  }
}

void SampleCounter::add(std::int64_t x) {
  if (fast_) {
    // |x| < 2^62 and |c| < 2^40: x - c cannot overflow.
    const bool in_range = x > INT64_MIN / 2 && x < INT64_MAX / 2;
    const std::int64_t d = in_range ? x - c64_ : 0;
    if (in_range && d > -kFastLimit && d < kFastLimit) {
      ++n_;
      if ((n_ & 0xffffffffULL) == 0) flush_fast_sums();  // keeps the 128-bit sums far from overflow
      sum1_fast_ += d;
      even_ += (d & 1) == 0 ? 1 : 0;
      sum2_fast_ += static_cast<uint128>(static_cast<int128>(d) * d);
      // floor(d / w)
      std::int64_t j = d / w64_;
      if ((d % w64_ != 0) && (d < 0)) --j;
      if (j < -kHalfCells) {
        ++below_;
      } else if (j >= kHalfCells) {
        ++above_;
      } else {
        ++cells_[static_cast<std::size_t>(j + kHalfCells)];
      }
      const std::int64_t ad = d < 0 ? -d : d;
      for (std::size_t i = 0; i < thresholds64_.size(); ++i) {
        if (thresholds64_[i] >= 0 && ad > thresholds64_[i]) ++beyond_[i];
      }
      return;
    }
  }
  scratch_ = static_cast<long>(x);
  add(scratch_);
}

void SampleCounter::add(const mpz_class& x) {
  if (fast_ && mpz_fits_slong_p(x.get_mpz_t())) {
    const long v = mpz_get_si(x.get_mpz_t());
    if (v > INT64_MIN / 2 && v < INT64_MAX / 2 && v - c64_ > -kFastLimit && v - c64_ < kFastLimit) {
      add(static_cast<std::int64_t>(v));
      return;
    }
  }
  add_offset_slow(mpz_class(x - center_));
}

void SampleCounter::add_offset_slow(const mpz_class& d) {
  ++n_;
  sum1_slow_ += d;
  sum2_slow_ += d * d;
  even_ += mpz_even_p(d.get_mpz_t()) ? 1 : 0;
  mpz_class j;
  mpz_fdiv_q(j.get_mpz_t(), d.get_mpz_t(), width_.get_mpz_t());
  if (j < -kHalfCells) {
    ++below_;
  } else if (j >= kHalfCells) {
    ++above_;
  } else {
    ++cells_[static_cast<std::size_t>(mpz_get_si(j.get_mpz_t()) + kHalfCells)];
  }
  const mpz_class ad = abs(d);
  for (std::size_t i = 0; i < thresholds_.size(); ++i) {
    if (ad > thresholds_[i]) ++beyond_[i];
  }
}

void SampleCounter::flush_fast_sums() {
  sum1_slow_ += from_int128(sum1_fast_);
  mpz_class high(static_cast<unsigned long>(sum2_fast_ >> 64));
  high <<= 64;
  high += static_cast<unsigned long>(sum2_fast_ & 0xffffffffffffffffULL);
  sum2_slow_ += high;
  sum1_fast_ = 0;
  sum2_fast_ = 0;
}

mpz_class SampleCounter::sum1() const { return sum1_slow_ + from_int128(sum1_fast_); }

mpz_class SampleCounter::sum2() const {
  mpz_class high(static_cast<unsigned long>(sum2_fast_ >> 64));
  high <<= 64;
  high += static_cast<unsigned long>(sum2_fast_ & 0xffffffffffffffffULL);
  return sum2_slow_ + high;
}

}  // namespace exactdp::verification
