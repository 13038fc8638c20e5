#include <exactdp/operations/profile_curve.h>

#include <mpfr.h>

#include <string>
#include <utility>

#include <exactdp/core/decimal.h>

namespace exactdp::operations {

ProfileCurveGrid::ProfileCurveGrid(const mpq_class& lo, const mpq_class& hi, long points)
    : hi_(hi), lo_(128), step_(128) {
  mpfr_set_q(lo_.get(), lo.get_mpq_t(), MPFR_RNDU);
  exactdp::Real h(128);
  mpfr_set_q(h.get(), hi.get_mpq_t(), MPFR_RNDU);
  mpfr_sub(step_.get(), h.get(), lo_.get(), MPFR_RNDU);
  mpfr_div_si(step_.get(), step_.get(), points - 1, MPFR_RNDU);
}

ProfileCurveGrid::Point ProfileCurveGrid::at(long i) {
  exactdp::Real x(128);
  mpfr_mul_si(x.get(), step_.get(), i, MPFR_RNDU);
  mpfr_add(x.get(), x.get(), lo_.get(), MPFR_RNDU);
  if (mpfr_sgn(x.get()) <= 0) return {mpq_class(0), "0"};
  mpfr_exp_t exp10 = 0;
  char* raw = mpfr_get_str(nullptr, &exp10, 10, 12, x.get(), MPFR_RNDU);  // 0.DIGITS * 10^exp10
  std::string digits(raw);
  mpfr_free_str(raw);
  const mpz_class mantissa(digits, 10);
  const long e = static_cast<long>(exp10) - 12;
  mpq_class eps = e >= 0 ? mpq_class(mantissa * pow10(e)) : mpq_class(mantissa, pow10(-e));
  eps.canonicalize();
  if (eps > hi_) {
    if (hi_text_.empty()) hi_text_ = exactdp::exact_decimal(hi_);
    return {hi_, hi_text_};
  }
  // Scientific text straight from the digits (exact_decimal would strip the trailing zeros of
  // a 100,000-digit integer at every point); its plain range [-6, 20] is short anyway.
  const long sci = static_cast<long>(exp10) - 1;
  if (sci >= -6 && sci <= 20) return {eps, exactdp::exact_decimal(eps)};
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  std::string text = digits.substr(0, 1);
  if (digits.size() > 1) text += "." + digits.substr(1);
  text += sci >= 0 ? "e+" : "e-";
  text += std::to_string(sci >= 0 ? sci : -sci);
  return {std::move(eps), std::move(text)};
}

const mpz_class& ProfileCurveGrid::pow10(long k) {
  auto it = powers_.find(k);
  if (it == powers_.end()) {
    mpz_class r;
    mpz_ui_pow_ui(r.get_mpz_t(), 10, static_cast<unsigned long>(k));
    if (powers_.size() > 64) powers_.clear();
    it = powers_.emplace(k, std::move(r)).first;
  }
  return it->second;
}

}  // namespace exactdp::operations
