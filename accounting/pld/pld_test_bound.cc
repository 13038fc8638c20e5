#include <exactdp/accounting/pld/pld_test_bound.h>

#include <algorithm>
#include <stdexcept>

#include <exactdp/samplers/int128.h>

namespace exactdp::accounting::pld {
namespace {

void check_chains(const DiscretePld& p, const DiscretePld& q) {
  if (p.side != Side::kLower || q.side != Side::kUpper || p.steps_per_unit != q.steps_per_unit ||
      p.scale_bits != q.scale_bits) {
    throw std::logic_error("pld test bound: needs a kLower P chain and a kUpper Q chain on one grid and scale");
  }
}

// value (< 2^128) exactly, at a precision of at least 128 bits.
void set_u128(mpfr_ptr out, uint128 value) {
  mpfr_set_ui(out, static_cast<unsigned long>(value >> 64), MPFR_RNDN);
  mpfr_mul_2ui(out, out, 64, MPFR_RNDN);
  mpfr_add_ui(out, out, static_cast<unsigned long>(value), MPFR_RNDN);
}

// Walks the thresholds t from the top index down; calls visit(P, Q) with P = P_low(I >= t)
// (exact, units 2^-s) and Q >= Q_up(I >= t) (MPFR, units 2^-s, rounded up: the tilted masses
// of q times e^(-l_j - o), plus q's untilted infinity mass, plus its anywhere mass times
// e^(-l_t - o)). Only thresholds where P's tail grows
// are visited: elsewhere the bound can only fall.
template <typename Visit>
void for_each_threshold(const DiscretePld& p, const DiscretePld& q, mpfr_prec_t precision, Visit visit) {
  const auto last = [](const DiscretePld& d) { return d.first_index + static_cast<long>(d.masses.size()) - 1; };
  const auto mass = [](const DiscretePld& d, long i) -> std::uint64_t {
    const long j = i - d.first_index;
    return j >= 0 && j < static_cast<long>(d.masses.size()) ? d.masses[static_cast<std::size_t>(j)] : 0;
  };
  const long top = std::max(last(p), last(q));
  const long bottom = std::min(p.first_index, q.first_index);
  uint128 ps = p.infinity_mass;
  Real qs(precision), weight(precision), step(precision), term(precision);
  set_u128(qs.get(), q.infinity_mass);
  const auto n = static_cast<long>(q.steps_per_unit);
  // weight >= e^(-l_t - o) (1 when q is not tilted; o its tilt offset), step >= e^(1/n).
  if (q.tilted) {
    const mpq_class l_top(-(2 * top + q.tilt_half_steps), 2 * n), h(1, n);
    mpfr_set_q(weight.get(), l_top.get_mpq_t(), MPFR_RNDU);
    mpfr_exp(weight.get(), weight.get(), MPFR_RNDU);
    mpfr_set_q(step.get(), h.get_mpq_t(), MPFR_RNDU);
    mpfr_exp(step.get(), step.get(), MPFR_RNDU);
  } else {
    mpfr_set_ui(weight.get(), 1, MPFR_RNDN);
    mpfr_set_ui(step.get(), 1, MPFR_RNDN);
  }
  for (long t = top; t >= bottom; --t) {
    const std::uint64_t pm = mass(p, t), qm = mass(q, t);
    ps += pm;
    if (qm != 0) {
      mpfr_mul_ui(term.get(), weight.get(), static_cast<unsigned long>(qm), MPFR_RNDU);
      mpfr_add(qs.get(), qs.get(), term.get(), MPFR_RNDU);
    }
    if (pm != 0) {
      if (q.anywhere_mass != 0) {  // + D e^(-l_t), the unplaced tilted mass's largest share
        mpfr_mul_ui(term.get(), weight.get(), static_cast<unsigned long>(q.anywhere_mass), MPFR_RNDU);
        mpfr_add(term.get(), term.get(), qs.get(), MPFR_RNDU);
        visit(ps, term.get());
      } else {
        visit(ps, qs.get());
      }
    }
    mpfr_mul(weight.get(), weight.get(), step.get(), MPFR_RNDU);
  }
}

}  // namespace

Real test_delta_lower(const DiscretePld& p, const DiscretePld& q, const mpq_class& epsilon, mpfr_prec_t precision) {
  check_chains(p, q);
  precision = std::max<mpfr_prec_t>(precision, 128);
  Real best(precision), e_eps(precision), a(precision), b(precision);
  mpfr_set_q(e_eps.get(), epsilon.get_mpq_t(), MPFR_RNDU);
  mpfr_exp(e_eps.get(), e_eps.get(), MPFR_RNDU);  // e^eps rounded up: subtracted
  mpfr_set_zero(best.get(), 1);
  for_each_threshold(p, q, precision, [&](uint128 ps, mpfr_srcptr qs) {
    set_u128(a.get(), ps);
    mpfr_mul(b.get(), qs, e_eps.get(), MPFR_RNDU);
    mpfr_sub(a.get(), a.get(), b.get(), MPFR_RNDD);
    if (mpfr_greater_p(a.get(), best.get())) mpfr_set(best.get(), a.get(), MPFR_RNDD);
  });
  mpfr_div_2ui(best.get(), best.get(), p.scale_bits, MPFR_RNDD);
  return best;
}

Real test_epsilon_lower(const DiscretePld& p, const DiscretePld& q, const mpq_class& delta, mpfr_prec_t precision) {
  check_chains(p, q);
  precision = std::max<mpfr_prec_t>(precision, 128);
  Real best(precision), d_units(precision), a(precision), b(precision);
  mpfr_set_q(d_units.get(), delta.get_mpq_t(), MPFR_RNDU);
  mpfr_mul_2ui(d_units.get(), d_units.get(), p.scale_bits, MPFR_RNDU);  // delta 2^s, rounded up
  mpfr_set_zero(best.get(), 1);                                          // ratio; 0 = none yet
  for_each_threshold(p, q, precision, [&](uint128 ps, mpfr_srcptr qs) {
    if (mpfr_sgn(qs) <= 0) return;  // Q's tail is 0 only if truncated away: skip (still a lower bound)
    set_u128(a.get(), ps);
    mpfr_sub(a.get(), a.get(), d_units.get(), MPFR_RNDD);
    if (mpfr_sgn(a.get()) <= 0) return;
    mpfr_div(a.get(), a.get(), qs, MPFR_RNDD);
    if (mpfr_greater_p(a.get(), best.get())) mpfr_set(best.get(), a.get(), MPFR_RNDD);
  });
  // epsilon >= log(best) when best > 1; otherwise the bound says only epsilon >= 0.
  if (mpfr_cmp_ui(best.get(), 1) <= 0) {
    mpfr_set_zero(best.get(), 1);
  } else {
    mpfr_log(best.get(), best.get(), MPFR_RNDD);
  }
  return best;
}

}  // namespace exactdp::accounting::pld
