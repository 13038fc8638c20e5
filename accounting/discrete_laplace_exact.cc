#include <exactdp/accounting/discrete_laplace_exact.h>

#include <algorithm>
#include <map>
#include <memory>
#include <numeric>
#include <vector>

#include <exactdp/accounting/parameter_checks.h>
#include <exactdp/accounting/profile_inversion.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace exactdp::accounting {
namespace {

void check(const DiscreteLaplaceSteps& s) {
  require_positive("scale", s.scale);
  if (s.sensitivity < 1) {
    throw ParameterError::out_of_range("sensitivity", abbreviate(s.sensitivity.get_str()), "sensitivity >= 1");
  }
  if (sgn(s.q) <= 0 || s.q > 1) throw ParameterError::out_of_range("q", abbreviate(to_string(s.q)), "0 < q <= 1");
  if (s.count < 1) throw ParameterError::out_of_range("count", "0", "count >= 1");
}

// C(k + Delta, Delta): the number of count vectors.
mpz_class count_vectors(const DiscreteLaplaceSteps& s) {
  if (!s.sensitivity.fits_ulong_p()) return mpz_class(kMaxDiscreteLaplaceExactTerms) + 1;
  mpz_class n;
  mpz_bin_uiui(n.get_mpz_t(), s.count + s.sensitivity.get_ui(), s.sensitivity.get_ui());
  return n;
}

struct Term {
  Interval loss;   // L(c)
  Interval mass_p;  // P^k(c)
  Interval mass_q;  // Q^k(c)
};

// Per-category pieces: the loss l_j and the log-masses ln P_j, ln Q_j, j = 0..Delta.
struct Categories {
  std::vector<Interval> loss, log_p, log_q;
};

Categories categories(const DiscreteLaplaceSteps& s, mpfr_prec_t p) {
  const unsigned long delta = s.sensitivity.get_ui();
  const mpq_class inv_t = 1 / s.scale;
  const Interval r = exp(-Interval(inv_t, p));
  const Interval log1p_r = log1p(r);
  const Interval log_one_minus_r = log(-expm1(-Interval(inv_t, p)));
  std::vector<Interval> q_mass;  // Q_j
  for (unsigned long j = 0; j <= delta; ++j) {
    Interval log_qj = Interval(mpq_class(-mpz_class(j)) * inv_t, p) - log1p_r;  // ln(r^j / (1+r))
    if (j != 0 && j != delta) log_qj = log_qj + log_one_minus_r;
    q_mass.push_back(exp(log_qj));
  }
  Categories c;
  for (unsigned long j = 0; j <= delta; ++j) {
    c.log_q.push_back(log(q_mass[j]));
    const Interval pj = q_mass[j] * mpq_class(1 - s.q) + q_mass[delta - j] * s.q;
    c.log_p.push_back(log(pj));
    const mpq_class m = mpq_class(2 * mpz_class(j) - s.sensitivity) * inv_t;  // (2j - Delta)/t
    c.loss.push_back(s.q == 1 ? Interval(m, p) : log(exp(Interval(m, p)) * s.q + mpq_class(1 - s.q)));
  }
  return c;
}

// The count vectors' terms, enumerated by an odometer over c_0 .. c_(Delta-1) (c_Delta takes the
// rest) with running sums per level (no recursion: Delta may be 10^5).
class TermBuilder {
 public:
  TermBuilder(const DiscreteLaplaceSteps& s, mpfr_prec_t p) : cat_(categories(s, p)), k_(s.count), p_(p) {
    ln_fact_.reserve(k_ + 1);
    ln_fact_.emplace_back(0L, p);
    for (std::uint64_t n = 1; n <= k_; ++n) ln_fact_.push_back(ln_fact_.back() + log(Interval(mpz_class(n), p)));
  }

  std::vector<Term> build() {
    const std::size_t free = cat_.loss.size() - 1;  // Delta >= 1 free categories
    std::vector<std::uint64_t> count(free, 0), left(free + 1, 0);
    std::vector<Sums> acc(free + 1, Sums{Interval(0L, p_), ln_fact_[k_], ln_fact_[k_]});
    std::vector<Term> terms;
    left[0] = k_;
    std::size_t j = 0;
    for (;;) {
      acc[j + 1] = add(acc[j], j, count[j]);
      left[j + 1] = left[j] - count[j];
      if (j + 1 < free) {
        count[++j] = 0;
        continue;
      }
      const Sums leaf = add(acc[free], free, left[free]);
      terms.push_back({leaf.loss, exp(leaf.log_p), exp(leaf.log_q)});
      while (count[j] == left[j]) {
        if (j == 0) return terms;
        --j;
      }
      ++count[j];
    }
  }

 private:
  struct Sums {
    Interval loss, log_p, log_q;
  };
  // The sums with c_j = c added.
  Sums add(const Sums& s, std::size_t j, std::uint64_t c) const {
    const Interval n(mpz_class(c), p_);
    return {s.loss + cat_.loss[j] * n, s.log_p + cat_.log_p[j] * n - ln_fact_[c],
            s.log_q + cat_.log_q[j] * n - ln_fact_[c]};
  }
  Categories cat_;
  std::uint64_t k_;
  mpfr_prec_t p_;
  std::vector<Interval> ln_fact_;
};

// The terms in two orders with the sums each order's profile needs.
class Table {
 public:
  Table(const DiscreteLaplaceSteps& s, mpfr_prec_t p) : terms_(TermBuilder(s, p).build()), width_(p) {
    const std::size_t n = terms_.size();
    by_lower_.resize(n);
    std::iota(by_lower_.begin(), by_lower_.end(), 0);
    by_upper_ = by_lower_;
    std::sort(by_lower_.begin(), by_lower_.end(),
              [&](std::size_t a, std::size_t b) { return mpfr_less_p(terms_[a].loss.lower(), terms_[b].loss.lower()); });
    std::sort(by_upper_.begin(), by_upper_.end(),
              [&](std::size_t a, std::size_t b) { return mpfr_less_p(terms_[a].loss.upper(), terms_[b].loss.upper()); });
    suffix_p_.assign(n + 1, Interval(0L, p));
    suffix_q_ = suffix_p_;
    for (std::size_t i = n; i-- > 0;) {
      suffix_p_[i] = suffix_p_[i + 1] + terms_[by_lower_[i]].mass_p;
      suffix_q_[i] = suffix_q_[i + 1] + terms_[by_lower_[i]].mass_q;
    }
    prefix_p_.assign(n + 1, Interval(0L, p));
    prefix_q_ = prefix_p_;
    for (std::size_t i = 0; i < n; ++i) {
      prefix_p_[i + 1] = prefix_p_[i] + terms_[by_upper_[i]].mass_p;
      prefix_q_[i + 1] = prefix_q_[i] + terms_[by_upper_[i]].mass_q;
    }
    for (const Term& t : terms_) {
      Real w(p);
      mpfr_sub(w, t.loss.upper(), t.loss.lower(), MPFR_RNDU);
      if (mpfr_greater_p(w, width_)) mpfr_set(width_, w, MPFR_RNDU);
    }
  }

  // delta_1 (remove order) at eps, e = e^eps enclosed.
  Interval remove_order(const Interval& eps, const Interval& e) const {
    const mpfr_prec_t p = eps.precision();
    // First index (by lower end) whose loss is certainly > eps.
    const auto first = std::partition_point(by_lower_.begin(), by_lower_.end(), [&](std::size_t i) {
      return !mpfr_greater_p(terms_[i].loss.lower(), eps.upper());
    });
    const std::size_t i0 = static_cast<std::size_t>(first - by_lower_.begin());
    Interval sum = suffix_p_[i0] - e * suffix_q_[i0];
    Real reach(p);  // lower ends above eps.lower - width may still straddle eps
    mpfr_sub(reach, eps.lower(), width_, MPFR_RNDD);
    for (std::size_t i = i0; i-- > 0 && mpfr_greater_p(terms_[by_lower_[i]].loss.lower(), reach);) {
      const Term& t = terms_[by_lower_[i]];
      if (mpfr_greater_p(t.loss.upper(), eps.lower())) sum = sum + positive_part(t.mass_p - e * t.mass_q);
    }
    return sum;
  }

  // delta_2 (add order) at eps: losses certainly < -eps, and the straddlers.
  Interval add_order(const Interval& eps, const Interval& e) const {
    const mpfr_prec_t p = eps.precision();
    const Interval neg = -eps;
    const auto end = std::partition_point(by_upper_.begin(), by_upper_.end(), [&](std::size_t i) {
      return mpfr_less_p(terms_[i].loss.upper(), neg.lower());
    });
    const std::size_t i1 = static_cast<std::size_t>(end - by_upper_.begin());
    Interval sum = prefix_q_[i1] - e * prefix_p_[i1];
    Real reach(p);  // upper ends below -eps.lower + width may still straddle -eps
    mpfr_add(reach, neg.upper(), width_, MPFR_RNDU);
    for (std::size_t i = i1; i < by_upper_.size() && mpfr_less_p(terms_[by_upper_[i]].loss.upper(), reach); ++i) {
      const Term& t = terms_[by_upper_[i]];
      if (mpfr_less_p(t.loss.lower(), neg.upper())) sum = sum + positive_part(t.mass_q - e * t.mass_p);
    }
    return sum;
  }

 private:
  // [0, max(0, x.upper)]: a term whose sign is not decided.
  static Interval positive_part(const Interval& x) {
    Real zero(x.precision());
    mpfr_set_zero(zero, 1);
    Real top(x.precision());
    mpfr_max(top, zero, x.upper(), MPFR_RNDU);
    return Interval::from_ends(zero, top, x.precision());
  }

  std::vector<Term> terms_;
  std::vector<std::size_t> by_lower_, by_upper_;
  std::vector<Interval> suffix_p_, suffix_q_, prefix_p_, prefix_q_;
  Real width_;
};

Interval delta_from_table(const Table& table, const mpq_class& epsilon, mpfr_prec_t p) {
  const Interval eps(epsilon, p);
  const Interval e = exp(eps);
  return clamp(max(table.remove_order(eps, e), table.add_order(eps, e)), mpq_class(0), mpq_class(1));
}

void check_applies(const DiscreteLaplaceSteps& s) {
  check(s);
  if (!discrete_laplace_exact_applies(s)) {
    throw ParameterError("route", "route: exact answers discrete Laplace steps with C(count + sensitivity, "
                                  "sensitivity) <= 100000 count vectors (here " +
                                      abbreviate(count_vectors(s).get_str()) + ")");
  }
}

// The Ziv options with the working precision capped so that one table stays cheap: count vectors
// x precision <= 5 * 10^7 (10^5 vectors at 512 bits: ~0.1 s and ~40 MB) and at most 8192 bits.
// A tolerance not met under the cap is reported (tolerance_met false), never hidden.
ZivOptions capped(const DiscreteLaplaceSteps& s, ZivOptions options) {
  const std::uint64_t vectors = count_vectors(s).get_ui();
  const auto cap = static_cast<mpfr_prec_t>(std::min<std::uint64_t>(8192, 50'000'000 / vectors));
  options.max_precision = std::max(options.initial_precision, std::min(options.max_precision, cap));
  return options;
}

}  // namespace

bool discrete_laplace_exact_applies(const DiscreteLaplaceSteps& steps) {
  check(steps);
  return count_vectors(steps) <= mpz_class(kMaxDiscreteLaplaceExactTerms);
}

Interval discrete_laplace_steps_delta(const DiscreteLaplaceSteps& steps, const mpq_class& epsilon,
                                      mpfr_prec_t precision) {
  check_applies(steps);
  require_nonnegative("epsilon", epsilon);
  return delta_from_table(Table(steps, precision), epsilon, precision);
}

Certified discrete_laplace_steps_delta(const DiscreteLaplaceSteps& steps, const mpq_class& epsilon,
                                       const ZivOptions& options) {
  check_applies(steps);
  require_nonnegative("epsilon", epsilon);
  return evaluate_to_tolerance([&](mpfr_prec_t p) { return discrete_laplace_steps_delta(steps, epsilon, p); },
                               capped(steps, options));
}

std::optional<Certified> discrete_laplace_steps_epsilon(const DiscreteLaplaceSteps& steps, const mpq_class& delta,
                                                        const ZivOptions& options) {
  check_applies(steps);
  std::map<mpfr_prec_t, std::unique_ptr<Table>> tables;  // one table per working precision
  return profile_epsilon(
      [&](const mpq_class& e, mpfr_prec_t p) {
        auto& t = tables[p];
        if (!t) t = std::make_unique<Table>(steps, p);
        return delta_from_table(*t, e, p);
      },
      delta, capped(steps, options));
}

}  // namespace exactdp::accounting
