#include <exactdp/mechanisms/private_mean/denoise.h>

#include <mpfr.h>

#include <stdexcept>

#include <exactdp/core/interval.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace exactdp::mechanisms {

std::vector<mpq_class> james_stein(const std::vector<mpq_class>& y, const mpq_class& s2) {
  if (sgn(s2) < 0) throw ParameterError::out_of_range("s2", to_string(s2), "s2 >= 0 (james_stein)");
  const std::size_t d = y.size();
  if (d < 3) return y;
  mpq_class norm2 = 0;
  for (const auto& v : y) norm2 += v * v;
  if (sgn(norm2) == 0) return y;
  mpq_class factor = 1 - mpq_class(static_cast<unsigned long>(d - 2)) * s2 / norm2;
  if (sgn(factor) < 0) factor = 0;
  std::vector<mpq_class> out;
  out.reserve(d);
  for (const auto& v : y) out.emplace_back(factor * v);
  return out;
}

std::vector<mpq_class> soft_threshold(const std::vector<mpq_class>& y, const mpq_class& l) {
  if (sgn(l) < 0) throw ParameterError::out_of_range("threshold", to_string(l), "threshold >= 0 (soft_threshold)");
  std::vector<mpq_class> out;
  out.reserve(y.size());
  for (const auto& v : y) {
    if (v > l) {
      out.emplace_back(v - l);
    } else if (v < -l) {
      out.emplace_back(v + l);
    } else {
      out.emplace_back(0);
    }
  }
  return out;
}

mpq_class universal_threshold(const mpq_class& s2, std::size_t d) {
  if (sgn(s2) < 0) throw ParameterError::out_of_range("s2", to_string(s2), "s2 >= 0 (universal_threshold)");
  if (d <= 1) return 0;
  using exactdp::Interval;
  const Interval t = exactdp::sqrt(Interval(mpq_class(2 * s2), 128) *
                                      exactdp::log(Interval(static_cast<long>(d), 128)));
  mpq_class out;
  mpfr_get_q(out.get_mpq_t(), t.upper());
  return out;
}

mpq_class squared_distance(const std::vector<mpq_class>& a, const std::vector<mpq_class>& b) {
  if (a.size() != b.size()) throw ParameterError::out_of_range("b", std::to_string(b.size()) + " coordinates", "as many coordinates as a (" + std::to_string(a.size()) + ")");
  mpq_class s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const mpq_class e = a[i] - b[i];
    s += e * e;
  }
  return s;
}

}  // namespace exactdp::mechanisms
