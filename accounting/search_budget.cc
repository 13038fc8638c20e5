#include <exactdp/accounting/search_budget.h>

#include <utility>

#include <exactdp/core/rational.h>

namespace exactdp::accounting {

long probe_bits(const mpq_class& x) {
  return static_cast<long>(mpz_sizeinbase(x.get_num_mpz_t(), 2) + mpz_sizeinbase(x.get_den_mpz_t(), 2));
}

SearchBudget::SearchBudget(std::function<LimitError()> refuse, long max_probe_bits, int max_evaluations)
    : refuse_(std::move(refuse)), max_probe_bits_(max_probe_bits), max_evaluations_(max_evaluations) {}

void SearchBudget::check_bits(long bits) const {
  if (bits > max_probe_bits_) throw refuse_();
}

void SearchBudget::charge(const mpq_class& x) {
  check_bits(probe_bits(x));
  if (evaluations_ >= max_evaluations_) throw refuse_();
  ++evaluations_;
}

namespace {

// x 2^k, checked against the budget before the product is formed (its bits are at most those
// of x plus |k|).
mpq_class scaled_probe(const mpq_class& x, long k, SearchBudget& budget) {
  budget.check_bits(probe_bits(x) + (k < 0 ? -k : k));
  mpq_class out = x * power_of_two(k);
  budget.charge(out);
  return out;
}

}  // namespace

mpq_class largest_meeting(const std::function<bool(const mpq_class&)>& meets, const mpq_class& x0,
                          SearchBudget& budget, int precision_bits) {
  mpq_class lo = x0;
  budget.charge(lo);
  // Down by 2^1, 2^2, 2^4, ...: a value 2^-33000 below x0 takes 16 probes, not 33000.
  for (long down = 1; !meets(lo); down *= 2) lo = scaled_probe(lo, -down, budget);
  long e = 1;  // lo 2^e is the first factor found not to meet
  for (;;) {
    const mpq_class up = scaled_probe(lo, e, budget);
    if (!meets(up)) break;
    lo = up;
    e *= 2;
  }
  while (e > 1) {  // bisect the exponent: lo meets, lo 2^e does not
    const long half = e / 2;
    const mpq_class up = scaled_probe(lo, half, budget);
    if (meets(up)) {
      lo = up;
      e -= half;
    } else {
      e = half;
    }
  }
  mpq_class hi = lo * 2;  // then the value: lo meets, hi does not
  const mpq_class width = power_of_two(-precision_bits);
  while (hi - lo > lo * width) {
    const mpq_class mid = (lo + hi) / 2;
    budget.charge(mid);
    if (meets(mid)) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return lo;
}

}  // namespace exactdp::accounting
