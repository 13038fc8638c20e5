#include <exactdp/mechanisms/estimation/exact_linear_algebra.h>

namespace exactdp::mechanisms {
namespace {

// Forward elimination of m (and b, when given) in place; false at the first pivot <= 0.
bool eliminate(std::vector<mpq_class>& m, std::vector<mpq_class>* b, std::size_t p) {
  mpq_class factor;
  for (std::size_t c = 0; c < p; ++c) {
    const mpq_class pivot = m[c * p + c];
    if (pivot <= 0) return false;
    for (std::size_t r = c + 1; r < p; ++r) {
      if (m[r * p + c] == 0) continue;
      factor = m[r * p + c] / pivot;
      for (std::size_t j = c; j < p; ++j) m[r * p + j] -= factor * m[c * p + j];
      if (b != nullptr) (*b)[r] -= factor * (*b)[c];
    }
  }
  return true;
}

}  // namespace

bool is_positive_definite(std::vector<mpq_class> m, std::size_t p) { return eliminate(m, nullptr, p); }

std::optional<std::vector<mpq_class>> solve_positive_definite(std::vector<mpq_class> m, std::vector<mpq_class> b,
                                                              std::size_t p) {
  if (!eliminate(m, &b, p)) return std::nullopt;
  std::vector<mpq_class> x(p);
  for (std::size_t r = p; r-- > 0;) {
    mpq_class sum = b[r];
    for (std::size_t j = r + 1; j < p; ++j) sum -= m[r * p + j] * x[j];
    x[r] = sum / m[r * p + r];
  }
  return x;
}

}  // namespace exactdp::mechanisms
