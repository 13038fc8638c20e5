#include <exactdp/samplers/internal/symmetric_table.h>

#include <mpfr.h>

#include <algorithm>
#include <stdexcept>

#include <exactdp/samplers/internal/cks20.h>

namespace exactdp::internal {
namespace {

// An MPFR interval [lo, hi] (RAII). Every operation below names its rounding direction: lo is
// always rounded down (MPFR_RNDD) and hi up (MPFR_RNDU), so the true value stays inside.
struct Interval {
  explicit Interval(mpfr_prec_t prec) {
    mpfr_init2(lo, prec);
    mpfr_init2(hi, prec);
  }
  ~Interval() {
    mpfr_clear(lo);
    mpfr_clear(hi);
  }
  Interval(const Interval&) = delete;
  Interval& operator=(const Interval&) = delete;
  mpfr_t lo, hi;
};

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
    mpfr_set_ui(w_[0]->lo, 1, MPFR_RNDD);
    mpfr_set_ui(w_[0]->hi, 1, MPFR_RNDU);
    Interval c(prec), d(prec), c2(prec);
    weight(1, c);  // exp(-e(1)): exp(-1 / (2 sigma2)) or exp(-1 / scale)
    mpfr_set(d.lo, c.lo, MPFR_RNDD);
    mpfr_set(d.hi, c.hi, MPFR_RNDU);
    mpfr_mul(c2.lo, c.lo, c.lo, MPFR_RNDD);
    mpfr_mul(c2.hi, c.hi, c.hi, MPFR_RNDU);
    for (long i = 0; i + 1 < count; ++i) {
      Interval& cur = *w_[static_cast<std::size_t>(i)];
      Interval& next = *w_[static_cast<std::size_t>(i + 1)];
      mpfr_mul(next.lo, cur.lo, d.lo, MPFR_RNDD);
      mpfr_mul(next.hi, cur.hi, d.hi, MPFR_RNDU);
      if (shape == Shape::kGaussian) {
        mpfr_mul(d.lo, d.lo, c2.lo, MPFR_RNDD);
        mpfr_mul(d.hi, d.hi, c2.hi, MPFR_RNDU);
      }
    }
    // N = w(0) + 2 sum_{k=1}^{K} w(k) + 2 R, 0 <= R <= w(K) r / (1 - r), because
    // w(K + j) <= w(K) r^j: Gaussian r = exp(-K / sigma2) ((K + j)^2 >= K^2 + 2 K j), Laplace
    // r = exp(-1 / scale) (equality).
    mpfr_set_ui(norm_.lo, 0, MPFR_RNDD);
    mpfr_set_ui(norm_.hi, 0, MPFR_RNDU);
    for (long i = 1; i <= series_terms; ++i) {
      mpfr_add(norm_.lo, norm_.lo, w_[static_cast<std::size_t>(i)]->lo, MPFR_RNDD);
      mpfr_add(norm_.hi, norm_.hi, w_[static_cast<std::size_t>(i)]->hi, MPFR_RNDU);
    }
    Interval r(prec);
    mpq_class rate(shape == Shape::kGaussian ? k : mpz_class(1), 1);
    rate /= param;  // K / sigma2, or 1 / scale
    mpfr_set_q(r.lo, rate.get_mpq_t(), MPFR_RNDD);  // exponent rounded down -> r rounded up
    mpfr_neg(r.lo, r.lo, MPFR_RNDU);
    mpfr_exp(r.hi, r.lo, MPFR_RNDU);                  // r.hi >= r
    mpfr_ui_sub(r.lo, 1, r.hi, MPFR_RNDD);           // 1 - r, rounded down (> 0 since r < 1)
    mpfr_div(r.hi, r.hi, r.lo, MPFR_RNDU);           // >= r / (1 - r)
    mpfr_mul(r.hi, r.hi, w_[static_cast<std::size_t>(series_terms)]->hi, MPFR_RNDU);  // >= R
    mpfr_add(norm_.hi, norm_.hi, r.hi, MPFR_RNDU);
    mpfr_mul_2ui(norm_.lo, norm_.lo, 1, MPFR_RNDD);  // exact
    mpfr_mul_2ui(norm_.hi, norm_.hi, 1, MPFR_RNDU);  // exact
    mpfr_add_ui(norm_.lo, norm_.lo, 1, MPFR_RNDD);   // + w(0) = 1
    mpfr_add_ui(norm_.hi, norm_.hi, 1, MPFR_RNDU);
  }

  [[nodiscard]] const Interval& w(std::int64_t k) const { return *w_[static_cast<std::size_t>(k < 0 ? -k : k)]; }
  [[nodiscard]] const Interval& norm() const { return norm_; }
  [[nodiscard]] mpfr_prec_t prec() const { return prec_; }

  // [lo, hi] >= S / N for the partial sum S = [s_lo, s_hi]: lo = s_lo / N_hi rounded down,
  // hi = s_hi / N_lo rounded up.
  void quotient(const Interval& s, Interval& out) const {
    mpfr_div(out.lo, s.lo, norm_.hi, MPFR_RNDD);
    mpfr_div(out.hi, s.hi, norm_.lo, MPFR_RNDU);
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
    Interval a(prec_);
    mpfr_set_q(a.hi, e.get_mpq_t(), MPFR_RNDU);
    mpfr_set_q(a.lo, e.get_mpq_t(), MPFR_RNDD);
    mpfr_neg(a.hi, a.hi, MPFR_RNDD);  // exact
    mpfr_neg(a.lo, a.lo, MPFR_RNDU);  // exact
    mpfr_exp(out.lo, a.hi, MPFR_RNDD);
    mpfr_exp(out.hi, a.lo, MPFR_RNDU);
  }

  Shape shape_;
  mpq_class param_;
  mpfr_prec_t prec_;
  std::vector<std::unique_ptr<Interval>> w_;
  Interval norm_;
};

// floor(2^64 x) (down) or ceil(2^64 x) (up) of a nonnegative MPFR number, as uint128, clamped
// to [0, 2^64].
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
  if (sgn(param) <= 0 || param > (1 << 20) || options.max_abs > 30000 || options.bound_bits < 1 ||
      options.bound_bits > 64) {
    throw std::invalid_argument("SymmetricTable::build: parameter or options out of range");
  }
  const std::int64_t t = options.max_abs >= 0 ? options.max_abs : default_max_abs(shape, param);
  if (t > 30000) throw std::invalid_argument("SymmetricTable::build: T above 30000");
  std::shared_ptr<SymmetricTable> out(new SymmetricTable());
  out->shape_ = shape;
  out->param_ = param;
  out->refine_ = options.refine;
  out->max_abs_ = t;
  const std::size_t boundaries = 2 * static_cast<std::size_t>(t) + 1;  // B_1 .. B_{2T+1}

  // 64 bits plus margin for the ~2T + K rounded operations.
  const auto prec = static_cast<mpfr_prec_t>(96 + bit_length(static_cast<std::uint64_t>(t) + 64));
  const Weights weights(shape, param, t, prec);
  Interval sum(prec), b(prec);
  mpfr_set_ui(sum.lo, 0, MPFR_RNDD);
  mpfr_set_ui(sum.hi, 0, MPFR_RNDU);
  const uint128 coarse = uint128{1} << (64 - options.bound_bits);
  out->lo_.resize(boundaries);
  out->hi_.resize(boundaries);
  for (std::size_t i = 0; i < boundaries; ++i) {  // boundary B_{i+1} = S / N after slot i
    const std::int64_t z = static_cast<std::int64_t>(i) - t;
    mpfr_add(sum.lo, sum.lo, weights.w(z).lo, MPFR_RNDD);
    mpfr_add(sum.hi, sum.hi, weights.w(z).hi, MPFR_RNDU);
    weights.quotient(sum, b);
    uint128 lo = scaled_64(b.lo, false);
    uint128 hi = scaled_64(b.hi, true);
    lo -= lo % coarse;                                      // outward to the coarse grid
    if (hi % coarse != 0) hi += coarse - hi % coarse;
    out->lo_[i] = lo;
    out->hi_[i] = std::min<uint128>(hi, uint128{1} << 64);
  }
  // Monotone (still valid bounds, since B is increasing): lo_i = max over j <= i, hi_i = min
  // over j >= i.
  for (std::size_t i = 1; i < boundaries; ++i) out->lo_[i] = std::max(out->lo_[i], out->lo_[i - 1]);
  for (std::size_t i = boundaries - 1; i-- > 0;) out->hi_[i] = std::min(out->hi_[i], out->hi_[i + 1]);

  // Guide: about 64 prefixes per slot (bounded to 2^8 .. 2^16 entries).
  const unsigned k = std::clamp(bit_length(boundaries + 1) + 6, 8U, 16U);
  out->guide_bits_ = k;
  out->guide_.resize(std::size_t{1} << k);
  // nlo (boundaries with hi <= x0) and nhi (boundaries with lo < x1) only grow with j: one sweep.
  std::size_t nlo = 0, nhi = 0;
  for (std::uint64_t j = 0; j < (std::uint64_t{1} << k); ++j) {
    const uint128 x0 = static_cast<uint128>(j) << (64 - k);
    const uint128 x1 = x0 + (uint128{1} << (64 - k));
    while (nlo < boundaries && out->hi_[nlo] <= x0) ++nlo;
    while (nhi < boundaries && out->lo_[nhi] < x1) ++nhi;
    out->guide_[j] = nlo == nhi ? static_cast<std::uint16_t>(nlo) : static_cast<std::uint16_t>(kUndecided);
  }
  return out;
}

std::uint32_t SymmetricTable::locate(BitSource& bits, std::uint64_t prefix) const {
  std::uint64_t u = prefix;
  unsigned len = guide_bits_;
  for (;;) {
    const uint128 x0 = static_cast<uint128>(u) << (64 - len);
    const uint128 x1 = x0 + (uint128{1} << (64 - len));
    const auto nlo = static_cast<std::uint32_t>(std::upper_bound(hi_.begin(), hi_.end(), x0) - hi_.begin());
    const auto nhi = static_cast<std::uint32_t>(std::lower_bound(lo_.begin(), lo_.end(), x1) - lo_.begin());
    if (nlo == nhi) return nlo;
    if (len == 64) return refine(bits, u, nlo, nhi);
    u = (u << 1) | (bits.bit() ? 1U : 0U);
    ++len;
  }
}

std::uint32_t SymmetricTable::refine(BitSource& bits, std::uint64_t u64, std::uint32_t first,
                                    std::uint32_t last) const {
  if (!refine_) return first;  // the deliberately broken variant (tests only)
  mpz_class u(static_cast<unsigned long>(u64));
  unsigned long len = 64;
  // Boundaries below `first` are certainly <= U, those from `last` on certainly > U; B is
  // increasing, so the slot is the first undecided boundary index that U falls below.
  for (std::uint32_t j = first; j < last; ++j) {
    if (below_boundary(bits, u, len, j + 1)) return j;
  }
  return last;
}

bool SymmetricTable::below_boundary(BitSource& bits, mpz_class& u, unsigned long& len, std::size_t i) const {
  mpz_class u1;
  for (mpfr_prec_t prec = 128;; prec *= 2) {
    // B_i = sum_{s < i} w(s - T) / N at this precision.
    const mpfr_prec_t work = prec + 32;
    const Weights weights(shape_, param_, max_abs_, work);
    Interval sum(work), b(work);
    mpfr_set_ui(sum.lo, 0, MPFR_RNDD);
    mpfr_set_ui(sum.hi, 0, MPFR_RNDU);
    for (std::size_t s = 0; s < i; ++s) {
      const std::int64_t z = static_cast<std::int64_t>(s) - max_abs_;
      mpfr_add(sum.lo, sum.lo, weights.w(z).lo, MPFR_RNDD);
      mpfr_add(sum.hi, sum.hi, weights.w(z).hi, MPFR_RNDU);
    }
    weights.quotient(sum, b);
    while (len < static_cast<unsigned long>(prec)) {  // extend U by 64 bits at a time
      u <<= 64;
      u += static_cast<unsigned long>(bits.bits(64));
      len += 64;
    }
    // U in [u, u + 1) 2^-len. U < B if u + 1 <= 2^len B_lo; U >= B if u >= 2^len B_hi.
    mpfr_mul_2ui(b.lo, b.lo, len, MPFR_RNDD);  // exact
    mpfr_mul_2ui(b.hi, b.hi, len, MPFR_RNDU);  // exact
    u1 = u + 1;
    if (mpfr_cmp_z(b.lo, u1.get_mpz_t()) >= 0) return true;
    if (mpfr_cmp_z(b.hi, u.get_mpz_t()) <= 0) return false;
  }
}

uint128 SymmetricTable::draw_tail(BitSource& bits, bool& negative) const {
  // |Z| = T + 1 + J, J ~ Geometric by CKS20 Alg. 2's construction: U uniform below t accepted
  // with probability exp(-U/t), V ~ Geometric(1 - 1/e), J = floor((U + t V) / s), so
  // P[J = j] ~ exp(-j s / t). Laplace (scale = p/q): t = p, s = q, the law conditioned on
  // |Z| > T exactly (memoryless). Gaussian (sigma2 = p/q): t = p, s = (T + 1) q, then J is
  // accepted with probability exp(-J^2 q / (2 p)) (CKS20 Alg. 1).
  const mpz_class& p = param_.get_num();
  const mpz_class& q = param_.get_den();
  const bool gaussian = shape_ == Shape::kGaussian;
  const mpz_class s = gaussian ? mpz_class(q * static_cast<unsigned long>(max_abs_ + 1)) : q;
  const mpz_class two_p = 2 * p;
  mpz_class u, x, j, num;
  const mpz_class one(1);
  for (;;) {
    uniform_into(bits, p, u);
    if (!bernoulli_exp_fraction<mpz_class>(bits, u, p, one)) continue;
    unsigned long v = 0;  // below 2^64: 2^64 loop turns cannot happen
    while (bernoulli_exp_minus_one(bits)) ++v;
    x = p * v;
    x += u;
    mpz_fdiv_q(j.get_mpz_t(), x.get_mpz_t(), s.get_mpz_t());
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
