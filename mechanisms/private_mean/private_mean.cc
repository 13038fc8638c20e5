#include <exactdp/mechanisms/private_mean/private_mean.h>

#include <mpfr.h>

#include <string>

#include <exactdp/accounting/analytic_gaussian.h>
#include <exactdp/accounting/zcdp.h>
#include <exactdp/samplers/discrete_gaussian.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace exactdp::mechanisms {
namespace {

// A rational >= sqrt(q), q >= 0 (MPFR square root rounded up, read back exactly).
mpq_class sqrt_upper(const mpq_class& q) {
  exactdp::Interval x(q, 128);
  exactdp::Interval r = exactdp::sqrt(x);
  mpq_class out;
  mpfr_get_q(out.get_mpq_t(), r.upper());
  return out;
}

// trunc(v / g): toward zero.
mpz_class to_grid_toward_zero(const mpq_class& v, const mpq_class& g) {
  const mpq_class t = v / g;
  mpz_class out;
  mpz_tdiv_q(out.get_mpz_t(), t.get_num_mpz_t(), t.get_den_mpz_t());
  return out;
}

void validate(const std::vector<std::vector<mpq_class>>& rows, const PrivateMeanOptions& o) {
  if (sgn(o.clip) <= 0) throw ParameterError::out_of_range("clip", abbreviate(to_string(o.clip)), "clip > 0");
  if (sgn(o.granularity) <= 0) {
    throw ParameterError::out_of_range("granularity", abbreviate(to_string(o.granularity)), "granularity > 0");
  }
  if (sgn(o.sigma2) <= 0) throw ParameterError::out_of_range("sigma2", abbreviate(to_string(o.sigma2)), "sigma2 > 0");
  if (rows.empty() || rows[0].empty()) {
    throw ParameterError("rows", "rows: no data: allowed n >= 1 rows of d >= 1 coordinates");
  }
  const std::size_t d = rows[0].size();
  for (const auto& r : rows) {
    if (r.size() != d) throw ParameterError("rows", "rows: every row must have the same dimension d = " + std::to_string(d));
  }
  if (rows.size() > kMaxMeanEntries / d) {
    throw LimitError("rows", "rows: n * d is over the limit of " + std::to_string(kMaxMeanEntries) + " entries");
  }
  if (o.delta && (sgn(*o.delta) <= 0 || *o.delta >= 1)) {
    throw ParameterError::out_of_range("delta", abbreviate(to_string(*o.delta)), "0 < delta < 1");
  }
}

}  // namespace

std::vector<mpz_class> clipped_grid_sum(const std::vector<std::vector<mpq_class>>& rows,
                                        const PrivateMeanOptions& o) {
  validate(rows, o);
  const std::size_t d = rows[0].size();
  std::vector<mpz_class> sum(d, mpz_class(0));
  for (const auto& row : rows) {
    if (o.clip_kind == ClipKind::kCoordinate) {
      for (std::size_t j = 0; j < d; ++j) {
        const mpq_class& v = row[j];
        const mpq_class c = v > o.clip ? o.clip : (v < -o.clip ? mpq_class(-o.clip) : v);
        sum[j] += to_grid_toward_zero(c, o.granularity);
      }
    } else {
      mpq_class norm2 = 0;
      for (const auto& v : row) norm2 += v * v;
      const mpq_class bound = sqrt_upper(norm2);
      const mpq_class factor = bound > o.clip ? mpq_class(o.clip / bound) : mpq_class(1);
      for (std::size_t j = 0; j < d; ++j) sum[j] += to_grid_toward_zero(row[j] * factor, o.granularity);
    }
  }
  return sum;
}

PrivateMeanRelease private_mean(const std::vector<std::vector<mpq_class>>& rows,
                                const PrivateMeanOptions& o, BitSource& bits) {
  return release_grid_sum(clipped_grid_sum(rows, o), rows.size(), o, bits);
}

PrivateMeanRelease release_grid_sum(std::vector<mpz_class> s, std::size_t rows,
                                    const PrivateMeanOptions& o, BitSource& bits) {
  if (sgn(o.clip) <= 0) throw ParameterError::out_of_range("clip", abbreviate(to_string(o.clip)), "clip > 0");
  if (sgn(o.granularity) <= 0) {
    throw ParameterError::out_of_range("granularity", abbreviate(to_string(o.granularity)), "granularity > 0");
  }
  if (sgn(o.sigma2) <= 0) throw ParameterError::out_of_range("sigma2", abbreviate(to_string(o.sigma2)), "sigma2 > 0");
  if (rows == 0 || s.empty()) throw ParameterError("rows", "rows: no data: allowed n >= 1 rows of d >= 1 coordinates");
  if (o.delta && (sgn(*o.delta) <= 0 || *o.delta >= 1)) {
    throw ParameterError::out_of_range("delta", abbreviate(to_string(*o.delta)), "0 < delta < 1");
  }
  const std::size_t d = s.size();
  PrivateMeanRelease r;
  const mpq_class g2 = o.granularity * o.granularity;
  r.sensitivity2_squared = 4 * o.clip * o.clip / g2;
  if (o.clip_kind == ClipKind::kCoordinate) r.sensitivity2_squared *= mpq_class(static_cast<unsigned long>(d));
  r.sensitivity2_squared.canonicalize();
  r.sigma2_grid = o.sigma2 / g2;
  r.sigma2_grid.canonicalize();
  r.rho = r.sensitivity2_squared / (2 * r.sigma2_grid);
  r.rho.canonicalize();
  if (o.delta) r.epsilon = accounting::zcdp_epsilon(r.rho, *o.delta).bound.value;
  const auto params = DiscreteGaussianParams::make(r.sigma2_grid);
  mpz_class z;
  const mpq_class n(static_cast<unsigned long>(rows));
  for (std::size_t j = 0; j < d; ++j) {
    sample_discrete_gaussian(bits, params, z);
    s[j] += z;
    mpq_class m = o.granularity * mpq_class(s[j]) / n;
    m.canonicalize();
    r.mean.push_back(std::move(m));
  }
  r.noisy_grid_sum = std::move(s);
  return r;
}

mpq_class calibrate_mean_sigma2(MeanCalibration calibration, ClipKind clip_kind, const mpq_class& clip,
                                std::size_t dimension, const mpq_class& epsilon, const mpq_class& delta) {
  if (sgn(clip) <= 0) throw ParameterError::out_of_range("clip", abbreviate(to_string(clip)), "clip > 0");
  if (dimension == 0) throw ParameterError("rows", "rows: dimension d must be >= 1");
  const mpq_class sensitivity =
      2 * clip * (clip_kind == ClipKind::kCoordinate ? sqrt_upper(mpq_class(static_cast<unsigned long>(dimension)))
                                                      : mpq_class(1));
  mpq_class sigma;
  if (calibration == MeanCalibration::kAnalytic) {
    sigma = accounting::calibrate_gaussian(epsilon, delta, sensitivity).sigma;
  } else {
    const exactdp::Interval s = accounting::classical_gaussian_sigma(epsilon, delta, sensitivity, 128);
    mpfr_get_q(sigma.get_mpq_t(), s.upper());
  }
  mpq_class sigma2 = sigma * sigma;
  sigma2.canonicalize();
  return sigma2;
}

}  // namespace exactdp::mechanisms
