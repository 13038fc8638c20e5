#include <exactdp/laws/distributed_discrete_gaussian/ddg_reference.h>

#include <stdexcept>

#include <exactdp/core/rational.h>

namespace exactdp::laws {
namespace {

// x^n by squaring (n >= 1).
Interval power(Interval x, long n) {
  Interval out(mpq_class(1), x.precision());
  while (n > 0) {
    if (n & 1) out = out * x;
    n >>= 1;
    if (n > 0) x = x * x;
  }
  return out;
}

}  // namespace

DistributedDiscreteGaussianReferenceLaw::DistributedDiscreteGaussianReferenceLaw(const mpq_class& sigma2,
                                                                                 long survivors,
                                                                                 const mpz_class& mean,
                                                                                 mpfr_prec_t precision)
    : ReferenceLaw(mean, precision),
      sigma2_(sigma2),
      survivors_(survivors),
      pmf_(sigma2, survivors, precision),
      client_(sigma2, 0, precision) {}

std::string DistributedDiscreteGaussianReferenceLaw::describe() const {
  return "distributed-discrete-gaussian sigma2=" + to_string(sigma2_) + " survivors=" + std::to_string(survivors_) +
         " mean=" + to_string(center());
}

std::unique_ptr<verification::ReferenceLaw> DistributedDiscreteGaussianReferenceLaw::at_precision(
    mpfr_prec_t precision) const {
  return std::make_unique<DistributedDiscreteGaussianReferenceLaw>(sigma2_, survivors_, center(), precision);
}

mpz_class DistributedDiscreteGaussianReferenceLaw::spread() const {
  const mpq_class variance = sigma2_ * survivors_;
  const mpz_class s = sqrt(mpz_class(variance.get_num() / variance.get_den()));
  return s < 1 ? mpz_class(1) : s;
}

// P[a <= S - c <= b], 0 <= a: the window's enclosures plus [0, residual] (the mass outside it).
Interval DistributedDiscreteGaussianReferenceLaw::centered_mass(const mpz_class& a,
                                                                const std::optional<mpz_class>& b) const {
  const long end = pmf_.half_width();
  Interval sum(precision());
  if (a <= end) sum = pmf_.window_sum(a.get_si(), b && *b < end ? b->get_si() : end);
  const Interval zero(precision());
  const Interval rest = Interval::from_ends(zero.lower(), pmf_.residual(), precision());
  return clamp(sum + rest, mpq_class(0), mpq_class(1));
}

Interval DistributedDiscreteGaussianReferenceLaw::central_moment(int m) const {
  if (m == 1) return Interval(precision());
  const Interval v = client_.central_moment(2);
  if (m == 2) return v * mpq_class(survivors_);
  if (m == 4) {
    const mpq_class n(survivors_);
    return client_.central_moment(4) * n + square(v) * mpq_class(3 * n * (n - 1));
  }
  throw std::logic_error("DistributedDiscreteGaussianReferenceLaw::central_moment: m must be 1, 2 or 4");
}

Interval DistributedDiscreteGaussianReferenceLaw::even_mass() const {
  const Interval sign = client_.even_mass() * mpq_class(2) - mpq_class(1);  // E[(-1)^X]
  return clamp((power(sign, survivors_) + mpq_class(1)) / mpq_class(2), mpq_class(0), mpq_class(1));
}

}  // namespace exactdp::laws
