#include <exactdp/mechanisms/estimation/exact_linear_algebra.h>

namespace exactdp::mechanisms {
namespace {

// Bareiss forward elimination of m (and b, when given) in place: after it, row k holds the
// (k + 1)-th leading minor on the diagonal. False at the first leading minor <= 0.
// Entry update (i, j > k): m_ij = (m_ij m_kk - m_ik m_kj) / previous pivot, an exact division.
bool eliminate(std::vector<mpz_class>& m, std::vector<mpz_class>* b, std::size_t p) {
  mpz_class previous = 1, t;
  for (std::size_t k = 0; k < p; ++k) {
    const mpz_class& pivot = m[k * p + k];
    if (sgn(pivot) <= 0) return false;
    for (std::size_t i = k + 1; i < p; ++i) {
      const mpz_class& lead = m[i * p + k];
      for (std::size_t j = k + 1; j < p; ++j) {
        mpz_class& e = m[i * p + j];
        mpz_mul(e.get_mpz_t(), e.get_mpz_t(), pivot.get_mpz_t());
        mpz_mul(t.get_mpz_t(), lead.get_mpz_t(), m[k * p + j].get_mpz_t());
        mpz_sub(e.get_mpz_t(), e.get_mpz_t(), t.get_mpz_t());
        mpz_divexact(e.get_mpz_t(), e.get_mpz_t(), previous.get_mpz_t());
      }
      if (b != nullptr) {
        mpz_class& e = (*b)[i];
        e = (e * pivot - lead * (*b)[k]);
        mpz_divexact(e.get_mpz_t(), e.get_mpz_t(), previous.get_mpz_t());
      }
    }
    previous = pivot;
  }
  return true;
}

}  // namespace

bool is_positive_definite(std::vector<mpz_class> m, std::size_t p) { return eliminate(m, nullptr, p); }

// Back substitution without fractions: y = det(m) x is an integer vector (Cramer's rule), and
// row r of the eliminated system gives m_rr y_r = det b_r - sum_{j > r} m_rj y_j, an exact division.
std::optional<std::vector<mpq_class>> solve_positive_definite(std::vector<mpz_class> m, std::vector<mpz_class> b,
                                                              std::size_t p) {
  if (!eliminate(m, &b, p)) return std::nullopt;
  if (p == 0) return std::vector<mpq_class>{};
  const mpz_class det = m[p * p - 1];
  std::vector<mpz_class> y(p);
  for (std::size_t r = p; r-- > 0;) {
    mpz_class sum = det * b[r];
    for (std::size_t j = r + 1; j < p; ++j) sum -= m[r * p + j] * y[j];
    mpz_divexact(y[r].get_mpz_t(), sum.get_mpz_t(), m[r * p + r].get_mpz_t());
  }
  std::vector<mpq_class> x(p);
  for (std::size_t r = 0; r < p; ++r) {
    x[r] = mpq_class(y[r], det);
    x[r].canonicalize();
  }
  return x;
}

}  // namespace exactdp::mechanisms
