#include <exactdp/accounting/pld/pld_group_bound.h>

#include <mpfr.h>

#include <algorithm>
#include <stdexcept>

#include <exactdp/accounting/pld/pld_composition.h>

namespace exactdp::accounting::pld {
namespace {

void check_chain(const DiscretePld& p) {
  if (p.side != Side::kUpper || p.tilted) throw std::logic_error("pld::group bound: needs an untilted upper chain");
}

void check_pair(const DiscretePld& r, const DiscretePld& a) {
  check_chain(r);
  check_chain(a);
  if (r.steps_per_unit != a.steps_per_unit || r.scale_bits != a.scale_bits) {
    throw std::logic_error("pld::group bound: chains on different grids or scales");
  }
}

long last_index(const DiscretePld& p) { return p.first_index + static_cast<long>(p.masses.size()) - 1; }

// The curve up to one index past the chain's last loss (beyond it only the mass at +infinity
// is left, so delta stays constant), and from 0.
std::vector<Real> full_curve(const DiscretePld& p) { return delta_upper_curve(p, std::max(last_index(p) + 1, 0L)); }

// e^(j/n) rounded up, for j = 0, 1, ... in turn.
class ExpUp {
 public:
  explicit ExpUp(unsigned long n) : value_(kDefaultPrecision), step_(kDefaultPrecision) {
    mpfr_set_ui(value_.get(), 1, MPFR_RNDN);
    const Interval s = exp(Interval(mpq_class(1, n), kDefaultPrecision));
    mpfr_set(step_.get(), s.upper(), MPFR_RNDU);
  }
  mpfr_srcptr get() const { return value_.get(); }
  void next() { mpfr_mul(value_.get(), value_.get(), step_.get(), MPFR_RNDU); }  // upper bounds stay upper bounds

 private:
  Real value_, step_;
};

}  // namespace

Real replace_one_delta_upper(const DiscretePld& remove, const DiscretePld& add, const mpq_class& epsilon) {
  check_pair(remove, add);
  if (epsilon < 0) throw std::logic_error("pld::replace_one_delta_upper: epsilon < 0");
  const unsigned long n = remove.steps_per_unit;
  // Beyond a chain's last loss its delta is constant (the mass at +infinity alone).
  const long last_r = std::max(last_index(remove) + 1, 0L), last_a = std::max(last_index(add) + 1, 0L);
  const mpz_class kz(mpq_class(epsilon * n));  // floor(n eps): mpz from mpq truncates, eps >= 0
  const long k_max = mpz_cmp_si(kz.get_mpz_t(), last_r + last_a) > 0 ? last_r + last_a : mpz_get_si(kz.get_mpz_t());
  // eps1 = l_j beyond last_r cannot help: delta_R stays, e^eps1 grows and delta_A(l_(k - j)) can
  // only grow; likewise indices of delta_A beyond last_a all hold the same value.
  const long j_max = std::min(k_max, last_r);
  const std::vector<Real> dr = delta_upper_curve(remove, j_max);
  const std::vector<Real> da = delta_upper_curve(add, std::min(k_max, last_a));
  Real best(kDefaultPrecision), term(kDefaultPrecision);
  mpfr_set_ui(best.get(), 1, MPFR_RNDN);  // delta <= 1 always
  ExpUp e(n);
  for (long j = 0; j <= j_max; ++j, e.next()) {
    const auto ka = static_cast<std::size_t>(std::min(k_max - j, last_a));
    mpfr_mul(term.get(), e.get(), da[ka].get(), MPFR_RNDU);
    mpfr_add(term.get(), term.get(), dr[static_cast<std::size_t>(j)].get(), MPFR_RNDU);
    mpfr_min(best.get(), best.get(), term.get(), MPFR_RNDU);
  }
  return best;
}

std::optional<mpq_class> replace_one_epsilon_upper(const DiscretePld& remove, const DiscretePld& add,
                                                   const mpq_class& delta) {
  check_pair(remove, add);
  const unsigned long n = remove.steps_per_unit;
  const std::vector<Real> dr = full_curve(remove), da = full_curve(add);
  Real term(kDefaultPrecision);
  // delta_R(l_j) + e^(l_j) delta_A(l_k) <= delta, every operation rounded up.
  const auto fits = [&](std::size_t j, mpfr_srcptr e_j, std::size_t k) {
    mpfr_mul(term.get(), e_j, da[k].get(), MPFR_RNDU);
    mpfr_add(term.get(), term.get(), dr[j].get(), MPFR_RNDU);
    return mpfr_cmp_q(term.get(), delta.get_mpq_t()) <= 0;
  };
  std::optional<long> best;
  ExpUp e(n);
  for (std::size_t j = 0; j < dr.size(); ++j, e.next()) {
    if (best && static_cast<long>(j) >= *best) break;  // eps2 >= 0: no smaller sum from here
    if (!fits(j, e.get(), da.size() - 1)) continue;     // not even with delta_A at its smallest
    // The smallest k that fits (delta_A's curve is non-increasing up to rounding; the found k
    // is checked again, so a non-monotone rounding can only cost tightness).
    std::size_t lo = 0, hi = da.size() - 1;
    while (lo < hi) {
      const std::size_t mid = lo + (hi - lo) / 2;
      if (fits(j, e.get(), mid)) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    if (!fits(j, e.get(), lo)) continue;
    const long sum = static_cast<long>(j + lo);
    if (!best || sum < *best) best = sum;
  }
  if (!best) return std::nullopt;
  return mpq_class(*best, n);
}

}  // namespace exactdp::accounting::pld
