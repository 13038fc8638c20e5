#include <exactdp/samplers/internal/symmetric_table.h>

#include <mpfr.h>

#include <algorithm>
#include <stdexcept>

#include <exactdp/samplers/internal/cks20.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace exactdp::internal {
namespace {

// Enclosures are exactdp::Interval (core/interval.h), their ends set with directed MPFR calls:
// the lower end always rounded down (MPFR_RNDD) and the upper end up (MPFR_RNDU).

using Shape = SymmetricTable::Shape;

// The certified pieces of B_i = S_i / N at one precision: the weights w(k) for k = 0 .. K and
// the series N = sum_{k in Z} w(k).
class Weights {
 public:
  // Needs weights up to `max_abs` (the table's T); K is chosen so that w(K) is below
  // exp(-(prec + 40)) (the bound is rigorous for any K; K makes it tight: the lower end of N is
  // the partial sum alone, so K must grow with the precision for the refinement to converge).
  Weights(Shape shape, const mpq_class& param, std::int64_t max_abs, mpfr_prec_t prec)
      : shape_(shape), param_(param), prec_(prec), norm_(prec) {
    mpz_class k;
    if (shape == Shape::kGaussian) {
      mpz_class k2 = 2 * (static_cast<long>(prec) + 40) * param.get_num();  // 2 sigma2 (prec+40) <= K^2
      mpz_cdiv_q(k2.get_mpz_t(), k2.get_mpz_t(), param.get_den().get_mpz_t());
      mpz_sqrt(k.get_mpz_t(), k2.get_mpz_t());
      k += 1;
    } else {
      k = (static_cast<long>(prec) + 40) * param.get_num();  // scale (prec + 40) <= K
      mpz_cdiv_q(k.get_mpz_t(), k.get_mpz_t(), param.get_den().get_mpz_t());
      k += 1;
    }
    const long series_terms = static_cast<long>(mpz_get_ui(k.get_mpz_t()));
    const long count = std::max<long>(series_terms, max_abs) + 1;
    w_.reserve(static_cast<std::size_t>(count));
    for (long i = 0; i < count; ++i) w_.push_back(std::make_unique<Interval>(prec));
    // w(0) = 1; w(k + 1) = w(k) d_k with d_k = c^(2k+1), c = exp(-1 / (2 sigma2)) (Gaussian), or
    // d_k = c = exp(-1 / scale) (Laplace). Each product is rounded down on the lower chain and up
    // on the upper chain (all factors positive), so both chains stay valid bounds; the relative
    // width grows by about 2^(2 - prec) per step, far below 2^-64 for count < 2^(prec - 70).
    mpfr_set_ui(w_[0]->lower(), 1, MPFR_RNDD);
    mpfr_set_ui(w_[0]->upper(), 1, MPFR_RNDU);
    Interval c(prec), d(prec), c2(prec);
    weight(1, c);  // exp(-e(1)): exp(-1 / (2 sigma2)) or exp(-1 / scale)
    mpfr_set(d.lower(), c.lower(), MPFR_RNDD);
    mpfr_set(d.upper(), c.upper(), MPFR_RNDU);
    mpfr_mul(c2.lower(), c.lower(), c.lower(), MPFR_RNDD);
    mpfr_mul(c2.upper(), c.upper(), c.upper(), MPFR_RNDU);
    for (long i = 0; i + 1 < count; ++i) {
      Interval& cur = *w_[static_cast<std::size_t>(i)];
      Interval& next = *w_[static_cast<std::size_t>(i + 1)];
      mpfr_mul(next.lower(), cur.lower(), d.lower(), MPFR_RNDD);
      mpfr_mul(next.upper(), cur.upper(), d.upper(), MPFR_RNDU);
      if (shape == Shape::kGaussian) {
        mpfr_mul(d.lower(), d.lower(), c2.lower(), MPFR_RNDD);
        mpfr_mul(d.upper(), d.upper(), c2.upper(), MPFR_RNDU);
      }
    }
    // N = w(0) + 2 sum_{k=1}^{K} w(k) + 2 R, 0 <= R <= w(K) r / (1 - r), because
    // w(K + j) <= w(K) r^j: Gaussian r = exp(-K / sigma2) ((K + j)^2 >= K^2 + 2 K j), Laplace
    // r = exp(-1 / scale) (equality).
    mpfr_set_ui(norm_.lower(), 0, MPFR_RNDD);
    mpfr_set_ui(norm_.upper(), 0, MPFR_RNDU);
    for (long i = 1; i <= series_terms; ++i) {
      mpfr_add(norm_.lower(), norm_.lower(), w_[static_cast<std::size_t>(i)]->lower(), MPFR_RNDD);
      mpfr_add(norm_.upper(), norm_.upper(), w_[static_cast<std::size_t>(i)]->upper(), MPFR_RNDU);
    }
    Interval r(prec);
    mpq_class rate(shape == Shape::kGaussian ? k : mpz_class(1), 1);
    rate /= param;  // K / sigma2, or 1 / scale
    mpfr_set_q(r.lower(), rate.get_mpq_t(), MPFR_RNDD);  // exponent rounded down -> r rounded up
    mpfr_neg(r.lower(), r.lower(), MPFR_RNDU);
    mpfr_exp(r.upper(), r.lower(), MPFR_RNDU);                  // r.upper() >= r
    mpfr_ui_sub(r.lower(), 1, r.upper(), MPFR_RNDD);           // 1 - r, rounded down (> 0 since r < 1)
    mpfr_div(r.upper(), r.upper(), r.lower(), MPFR_RNDU);           // >= r / (1 - r)
    mpfr_mul(r.upper(), r.upper(), w_[static_cast<std::size_t>(series_terms)]->upper(), MPFR_RNDU);  // >= R
    mpfr_add(norm_.upper(), norm_.upper(), r.upper(), MPFR_RNDU);
    mpfr_mul_2ui(norm_.lower(), norm_.lower(), 1, MPFR_RNDD);  // exact
    mpfr_mul_2ui(norm_.upper(), norm_.upper(), 1, MPFR_RNDU);  // exact
    mpfr_add_ui(norm_.lower(), norm_.lower(), 1, MPFR_RNDD);   // + w(0) = 1
    mpfr_add_ui(norm_.upper(), norm_.upper(), 1, MPFR_RNDU);
  }

  [[nodiscard]] const Interval& w(std::int64_t k) const { return *w_[static_cast<std::size_t>(k < 0 ? -k : k)]; }
  [[nodiscard]] const Interval& norm() const { return norm_; }
  [[nodiscard]] mpfr_prec_t prec() const { return prec_; }

  // [lo, hi] >= S / N for the partial sum S = [s_lo, s_hi]: lo = s_lo / N_hi rounded down,
  // hi = s_hi / N_lo rounded up.
  void quotient(const Interval& s, Interval& out) const {
    mpfr_div(out.lower(), s.lower(), norm_.upper(), MPFR_RNDD);
    mpfr_div(out.upper(), s.upper(), norm_.lower(), MPFR_RNDU);
  }

 private:
  // w(k) = exp(-e(k)), e(k) = k^2 q / (2 p) for sigma2 = p/q, or k q / p for scale = p/q: the
  // exponent is rounded up for the lower end and down for the upper end, each exp rounded in
  // the same direction as its end.
  void weight(long k, Interval& out) const {
    mpq_class e = shape_ == Shape::kGaussian
                      ? mpq_class(mpz_class(k) * k * param_.get_den(), 2 * param_.get_num())
                      : mpq_class(mpz_class(k) * param_.get_den(), param_.get_num());
    e.canonicalize();
    enclose_exp_minus(e, out, prec_);
  }

  Shape shape_;
  mpq_class param_;
  mpfr_prec_t prec_;
  std::vector<std::unique_ptr<Interval>> w_;
  Interval norm_;
};

unsigned bit_length(std::uint64_t v) {
  unsigned n = 0;
  while (v != 0) {
    ++n;
    v >>= 1;
  }
  return n;
}

// The default T: the least T >= 1 with w(T) <= exp(-45) (T^2 >= 90 sigma2, or T >= 45 scale),
// so P[|Z| > T] < 2 w(T + 1) / (1 - r) < 2^-64 for the parameters served by default.
std::int64_t default_max_abs(Shape shape, const mpq_class& param) {
  mpz_class t;
  if (shape == Shape::kGaussian) {
    mpz_class t2 = 90 * param.get_num();
    mpz_cdiv_q(t2.get_mpz_t(), t2.get_mpz_t(), param.get_den().get_mpz_t());
    mpz_sqrt(t.get_mpz_t(), t2.get_mpz_t());
    if (t * t < t2) t += 1;
  } else {
    t = 45 * param.get_num();
    mpz_cdiv_q(t.get_mpz_t(), t.get_mpz_t(), param.get_den().get_mpz_t());
  }
  if (t < 1) t = 1;
  if (t > 1000000) t = 1000000;  // build() refuses it
  return static_cast<std::int64_t>(mpz_get_si(t.get_mpz_t()));
}

bool in_default_range(const mpq_class& param, unsigned long max) {
  if (sgn(param) <= 0 || param > max) return false;
  if (mpz_sizeinbase(param.get_num_mpz_t(), 2) > 256 || mpz_sizeinbase(param.get_den_mpz_t(), 2) > 256) {
    return false;
  }
  return param * (1 << 20) >= 1;
}

}  // namespace

std::shared_ptr<const SymmetricTable> SymmetricTable::build_gaussian(const mpq_class& sigma2) {
  if (!in_default_range(sigma2, kMaxSigma2)) return nullptr;
  return build(Shape::kGaussian, sigma2, SymmetricTableOptions{});
}

std::shared_ptr<const SymmetricTable> SymmetricTable::build_laplace(const mpq_class& scale) {
  if (!in_default_range(scale, kMaxScale)) return nullptr;
  return build(Shape::kLaplace, scale, SymmetricTableOptions{});
}

std::shared_ptr<const SymmetricTable> SymmetricTable::build(Shape shape, const mpq_class& parameter,
                                                            const SymmetricTableOptions& options) {
  mpq_class param = parameter;
  param.canonicalize();
  const char* name = shape == Shape::kGaussian ? "sigma2" : "scale";
  if (sgn(param) <= 0 || param > (1 << 20)) {
    throw ParameterError::out_of_range(name, to_string(param), std::string("0 < ") + name + " <= 2^20 (symmetric table)");
  }
  if (options.max_abs > 30000) {
    throw ParameterError::out_of_range("max_abs", std::to_string(options.max_abs), "max_abs <= 30000 (symmetric table)");
  }
  if (options.bound_bits < 1 || options.bound_bits > 64) {
    throw ParameterError::out_of_range("bound_bits", std::to_string(options.bound_bits), "1 <= bound_bits <= 64");
  }
  const std::int64_t t = options.max_abs >= 0 ? options.max_abs : default_max_abs(shape, param);
  if (t > 30000) throw ParameterError::out_of_range(name, to_string(param), std::string("a table cut T <= 30000 (here T = ") + std::to_string(t) + ")");
  std::shared_ptr<SymmetricTable> out(new SymmetricTable());
  out->shape_ = shape;
  out->param_ = param;
  out->max_abs_ = t;
  const std::size_t boundaries = 2 * static_cast<std::size_t>(t) + 1;  // B_1 .. B_{2T+1}
  // B_{i+1} = S / N after slot i, every sum and quotient rounded outward (Weights).
  auto enclose = [shape, param, t](mpfr_prec_t prec, std::vector<std::unique_ptr<Interval>>& b) {
    const Weights weights(shape, param, t, prec);
    Interval sum(prec);
    mpfr_set_ui(sum.lower(), 0, MPFR_RNDD);
    mpfr_set_ui(sum.upper(), 0, MPFR_RNDU);
    for (std::size_t i = 0; i < b.size(); ++i) {
      const std::int64_t z = static_cast<std::int64_t>(i) - t;
      mpfr_add(sum.lower(), sum.lower(), weights.w(z).lower(), MPFR_RNDD);
      mpfr_add(sum.upper(), sum.upper(), weights.w(z).upper(), MPFR_RNDU);
      weights.quotient(sum, *b[i]);
    }
  };
  CumulativeTable::Options cdf_options;
  cdf_options.bound_bits = options.bound_bits;
  cdf_options.refine = options.refine;
  // Guide: about 64 prefixes per slot (bounded to 2^8 .. 2^16 entries).
  cdf_options.min_guide_bits = 8;
  cdf_options.max_guide_bits = 16;
  cdf_options.guide_extra_bits = 6;
  // 64 bits plus margin for the ~2T + K rounded operations.
  const auto prec = static_cast<mpfr_prec_t>(96 + bit_length(static_cast<std::uint64_t>(t) + 64));
  out->cdf_ = std::make_unique<const CumulativeTable>(boundaries, std::move(enclose), prec, cdf_options);
  return out;
}

uint128 SymmetricTable::draw_tail(BitSource& bits, bool& negative) const {
  // |Z| = T + 1 + J, J ~ Geometric with P[J = j] ~ exp(-j s / t) (sample_geometric_exp, CKS20
  // Alg. 2). Laplace (scale = p/q): t = p, s = q, the law conditioned on |Z| > T exactly
  // (memoryless). Gaussian (sigma2 = p/q): t = p, s = (T + 1) q, then J is accepted with
  // probability exp(-J^2 q / (2 p)) (CKS20 Alg. 1).
  const mpz_class& p = param_.get_num();
  const mpz_class& q = param_.get_den();
  const bool gaussian = shape_ == Shape::kGaussian;
  const mpz_class s = gaussian ? mpz_class(q * static_cast<unsigned long>(max_abs_ + 1)) : q;
  const mpz_class two_p = 2 * p;
  mpz_class j, num;
  for (;;) {
    j = sample_geometric_exp(bits, p, s);
    if (gaussian) {
      num = j * j * q;
      if (!bernoulli_exp<mpz_class>(bits, num, two_p)) continue;
    }
    negative = bits.bit();
    // j <= (p 2^64 + p) / q <= param 2^65 <= 2^85 (param <= 2^20): fits.
    uint128 jj = 0;
    fits_uint128(j, jj);
    return jj + static_cast<uint128>(max_abs_) + 1;
  }
}

}  // namespace exactdp::internal
