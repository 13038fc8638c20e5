// accounting_fuzzer — certified privacy accounting on fuzzed rationals.
//
// Input: a mode byte, then the rationals (ByteReader; numerators and denominators up to 2^256 or
// 10^63, so the documented limits are exercised too). Every accounting function must either
// return or throw ParameterError (exit 2 in the CLI); any other exception is a finding.
// Invariants (all sound for intervals: each check can only fail if a returned interval misses
// the true value or a certified claim is false):
//   * every interval has lower <= upper; a delta intersects [0, 1]; an epsilon has upper >= 0;
//   * monotone in epsilon for pairs: eps1 <= eps2 implies delta(eps2).lower <= delta(eps1).upper
//     (GDP profile, KOV15 optimal composition), and monotone in mu;
//   * two routes to one number agree: the Gaussian profile at (sigma, Delta) and the mu-GDP
//     profile at mu = Delta / sigma must intersect;
//   * calibration meets its target: re-evaluating the profile at the returned safe end never
//     proves it misses delta (gdp_epsilon, gdp_mu_for, calibrate_gaussian both sides,
//     zcdp_epsilon at its alpha, kov_epsilon), and the ends of a calibration bracket are ordered;
//   * zcdp_epsilon is never looser than Bun–Steinke's rho + 2 sqrt(rho log(1/delta)) (zcdp.h);
//   * the optimal composition is never above the advanced or the basic one;
//   * 1 - delta (gdp_delta_complement_at) and delta sum to an interval containing 1;
//   * the discrete Gaussian, discrete Laplace and Laplace profiles decrease in eps, the Laplace
//     laws have delta = 0 beyond Delta / scale, the two discrete Gaussian summation algorithms
//     agree, delta + (1 - delta) contains 1 for the discrete Gaussian too, and
//     calibrate_discrete_gaussian's sigma2 and bracket are certified as documented.
// Tolerances are loose (2^-30) and precisions capped so one input runs in milliseconds.
#include <mpfr.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <exception>
#include <string>

#include <exactdp/accounting/analytic_gaussian.h>
#include <exactdp/accounting/discrete_gaussian_calibration.h>
#include <exactdp/accounting/discrete_gaussian_profile.h>
#include <exactdp/accounting/discrete_laplace_profile.h>
#include <exactdp/accounting/laplace_profile.h>
#include <exactdp/accounting/gaussian_profile.h>
#include <exactdp/accounting/gdp_conversions.h>
#include <exactdp/core/interval.h>
#include <exactdp/accounting/pure_dp_composition.h>
#include <exactdp/accounting/zcdp.h>
#include <exactdp/accounting/ziv.h>
#include "fuzz/fuzz_support.h"
#include <exactdp/core/errors.h>

namespace {

namespace acc = exactdp::accounting;
using exactdp::fuzz::ByteReader;
using exactdp::fuzz::str;

constexpr mpfr_prec_t kCheckPrecision = 256;
constexpr int kModes = 8;

// EXACTDP_FUZZ_VERBOSE=1 prints each call's arguments before it runs (to report a finding).
void trace(const char* call, std::initializer_list<const mpq_class*> args) {
  static const bool on = std::getenv("EXACTDP_FUZZ_VERBOSE") != nullptr;
  if (!on) return;
  std::fprintf(stderr, "%s(", call);
  const char* sep = "";
  for (const mpq_class* a : args) {
    std::fprintf(stderr, "%s%s", sep, a->get_str().c_str());
    sep = ", ";
  }
  std::fprintf(stderr, ")\n");
}

acc::ZivOptions fast_options() {
  acc::ZivOptions o;
  o.tolerance = mpq_class(1, 1 << 30);
  o.max_precision = 2048;
  return o;
}

// A rational >= 0 (positive when `positive`).
mpq_class rational(ByteReader& in, bool positive) {
  // Numerator first, then denominator, in separate statements: the order in which a
  // constructor's arguments are evaluated is unspecified (gcc and clang differ), and the ctest
  // replay (gcc) must read a corpus file exactly as the fuzzer (clang) that wrote it.
  const mpz_class num = positive ? in.positive(8) : in.natural(8);
  const mpz_class den = in.positive(8);
  mpq_class q(num, den);
  q.canonicalize();
  return q;
}

// A probability in (0, 1) most of the time (and sometimes 0, 1 or above, to hit validation).
mpq_class probability(ByteReader& in) {
  const mpz_class den = in.positive(8);
  mpz_class num = in.natural(8);
  if (in.u8() % 16 != 0) num = den > 1 ? mpz_class(num % den) : mpz_class(0);
  mpq_class q(num, den);
  q.canonicalize();
  return q;
}

std::string end_str(mpfr_srcptr x) {
  char buf[64];
  mpfr_snprintf(buf, sizeof buf, "%.12Rg", x);
  return buf;
}

std::string iv(const exactdp::Interval& x) { return "[" + end_str(x.lower()) + ", " + end_str(x.upper()) + "]"; }

// An interval end as an exact rational (ends are finite here; checked).
mpq_class end_q(mpfr_srcptr x) {
  FUZZ_CHECK(mpfr_number_p(x) != 0, "non-finite interval end %s", end_str(x).c_str());
  mpq_class q;
  mpfr_get_q(q.get_mpq_t(), x);
  return q;
}

void check_interval(const exactdp::Interval& x, const char* what) {
  FUZZ_CHECK(!mpfr_nan_p(x.lower()) && !mpfr_nan_p(x.upper()) && mpfr_lessequal_p(x.lower(), x.upper()),
             "%s: invalid interval %s", what, iv(x).c_str());
}

void check_delta(const exactdp::Interval& d, const char* what) {
  check_interval(d, what);
  FUZZ_CHECK(mpfr_cmp_ui(d.lower(), 1) <= 0 && mpfr_cmp_ui(d.upper(), 0) >= 0,
             "%s: delta %s misses [0, 1]", what, iv(d).c_str());
}

// a's true value <= b's true value is not contradicted: a.lower <= b.upper.
void check_not_above(const exactdp::Interval& a, const exactdp::Interval& b, const char* what) {
  FUZZ_CHECK(mpfr_lessequal_p(a.lower(), b.upper()), "%s: %s is certified above %s", what,
             iv(a).c_str(), iv(b).c_str());
}

// A profile at eps1 <= eps2: both deltas in [0, 1], delta(eps2) <= delta(eps1) not contradicted.
// Returns delta(eps1).
template <class Profile>
exactdp::Interval check_decreasing(const mpq_class& eps1, const mpq_class& eps2, const char* what, Profile delta) {
  const exactdp::Interval d1 = delta(eps1), d2 = delta(eps2);
  check_delta(d1, what);
  check_delta(d2, what);
  check_not_above(d2, d1, (std::string(what) + " decreasing in eps").c_str());
  return d1;
}

// delta certified at most `target` is not contradicted: d.lower <= target.
void check_meets(const exactdp::Interval& d, const mpq_class& target, const char* what) {
  FUZZ_CHECK(mpfr_cmp_q(d.lower(), target.get_mpq_t()) <= 0, "%s: delta %s is certified above the target %s",
             what, iv(d).c_str(), str(target).c_str());
}

void gdp_profile(ByteReader& in) {
  mpq_class eps1 = rational(in, false), eps2 = rational(in, false);
  if (eps2 < eps1) std::swap(eps1, eps2);
  mpq_class mu1 = rational(in, true), mu2 = rational(in, true);
  if (mu2 < mu1) std::swap(mu1, mu2);
  trace("gdp_delta_at eps1 eps2 mu1 mu2", {&eps1, &eps2, &mu1, &mu2});
  const exactdp::Interval d11 = acc::gdp_delta_at(eps1, mu1, exactdp::kDefaultPrecision);
  const exactdp::Interval d21 = acc::gdp_delta_at(eps2, mu1, exactdp::kDefaultPrecision);
  const exactdp::Interval d12 = acc::gdp_delta_at(eps1, mu2, exactdp::kDefaultPrecision);
  check_delta(d11, "gdp_delta_at");
  check_delta(d21, "gdp_delta_at");
  check_delta(d12, "gdp_delta_at");
  check_not_above(d21, d11, "gdp profile decreasing in eps");
  check_not_above(d11, d12, "gdp profile increasing in mu");
  // 1 - delta from its own formula: delta + (1 - delta) must contain 1, and the complement
  // must be monotone the other way.
  const exactdp::Interval c11 = acc::gdp_delta_complement_at(eps1, mu1, exactdp::kDefaultPrecision);
  const exactdp::Interval c12 = acc::gdp_delta_complement_at(eps1, mu2, exactdp::kDefaultPrecision);
  check_delta(c11, "gdp_delta_complement_at");
  FUZZ_CHECK((d11 + c11).contains(1L), "delta %s + (1 - delta) %s does not contain 1",
             iv(d11).c_str(), iv(c11).c_str());
  check_not_above(c12, c11, "complement decreasing in mu");
}

void gaussian_vs_gdp(ByteReader& in) {
  const mpq_class eps = rational(in, false), sigma = rational(in, true), sens = rational(in, true);
  trace("gaussian_delta eps sigma sensitivity", {&eps, &sigma, &sens});
  const exactdp::Interval g = acc::gaussian_delta_at(eps, sigma, sens, exactdp::kDefaultPrecision);
  const exactdp::Interval m = acc::gdp_delta_at(eps, mpq_class(sens / sigma), exactdp::kDefaultPrecision);
  check_delta(g, "gaussian_delta_at");
  check_not_above(g, m, "gaussian profile vs gdp profile");
  check_not_above(m, g, "gdp profile vs gaussian profile");
  const acc::Certified c = acc::gaussian_delta(eps, sigma, sens, fast_options());
  check_delta(c.value, "gaussian_delta");
  check_not_above(c.value, g, "gaussian_delta vs gaussian_delta_at");
  check_not_above(g, c.value, "gaussian_delta_at vs gaussian_delta");
}

void zcdp(ByteReader& in) {
  const mpq_class rho = rational(in, in.flag()), delta = probability(in);
  trace("zcdp_epsilon rho delta", {&rho, &delta});
  const acc::ZcdpConversion e = acc::zcdp_epsilon(rho, delta, fast_options());
  check_interval(e.bound.value, "zcdp_epsilon");
  FUZZ_CHECK(mpfr_cmp_ui(e.bound.value.upper(), 0) >= 0, "zcdp_epsilon %s below 0", iv(e.bound.value).c_str());
  FUZZ_CHECK(e.alpha > 1, "zcdp_epsilon alpha = %s", str(e.alpha).c_str());
  // At its own alpha, the safe epsilon gives a delta of at most the target.
  const mpq_class eps_safe = end_q(e.bound.value.upper());
  if (eps_safe > 0) {
    check_meets(acc::cks20_delta_at_alpha(rho, eps_safe, e.alpha, kCheckPrecision), delta,
                "zcdp_epsilon at its alpha");
  }
  // Never looser than BS16: rho + 2 sqrt(rho log(1/delta)), computed rounding up, plus 2^-40
  // relative slack for the search's own rounding.
  if (rho > 0) {
    mpfr_t bs, t;
    mpfr_inits2(kCheckPrecision, bs, t, static_cast<mpfr_ptr>(nullptr));
    mpfr_set_q(t, delta.get_mpq_t(), MPFR_RNDD);   // log(1/delta) = -log(delta): round delta down
    mpfr_log(t, t, MPFR_RNDD);                     // log(delta) rounded down
    mpfr_neg(t, t, MPFR_RNDU);                     // -> log(1/delta) rounded up
    mpfr_mul_q(t, t, rho.get_mpq_t(), MPFR_RNDU);
    mpfr_sqrt(t, t, MPFR_RNDU);
    mpfr_mul_2ui(t, t, 1, MPFR_RNDU);
    mpfr_add_q(bs, t, rho.get_mpq_t(), MPFR_RNDU);
    mpfr_mul_d(bs, bs, 1.0 + 0x1p-40, MPFR_RNDU);
    FUZZ_CHECK(mpfr_lessequal_p(e.bound.value.lower(), bs), "zcdp_epsilon %s looser than BS16 %s (rho %s, delta %s)",
               iv(e.bound.value).c_str(), end_str(bs).c_str(), str(rho).c_str(), str(delta).c_str());
    mpfr_clears(bs, t, static_cast<mpfr_ptr>(nullptr));
  }
  const mpq_class eps = rational(in, false);
  trace("zcdp_delta rho epsilon", {&rho, &eps});
  const acc::ZcdpConversion d = acc::zcdp_delta(rho, eps, fast_options());
  check_delta(d.bound.value, "zcdp_delta");
  FUZZ_CHECK(mpfr_cmp_ui(d.bound.value.upper(), 1) <= 0, "zcdp_delta %s not capped at 1", iv(d.bound.value).c_str());
}

void gdp_calibration(ByteReader& in) {
  const mpq_class mu = rational(in, true), delta = probability(in);
  trace("gdp_epsilon mu delta", {&mu, &delta});
  const acc::Certified e = acc::gdp_epsilon(mu, delta, fast_options());
  check_interval(e.value, "gdp_epsilon");
  FUZZ_CHECK(mpfr_cmp_ui(e.value.upper(), 0) >= 0, "gdp_epsilon %s below 0", iv(e.value).c_str());
  check_meets(acc::gdp_delta_at(end_q(e.value.upper()), mu, kCheckPrecision), delta, "gdp_epsilon safe end");
  const mpq_class eps = rational(in, false);
  trace("gdp_mu_for epsilon delta", {&eps, &delta});
  const acc::Certified m = acc::gdp_mu_for(eps, delta, fast_options());
  check_interval(m.value, "gdp_mu_for");
  if (mpfr_cmp_ui(m.value.lower(), 0) > 0) {
    check_meets(acc::gdp_delta_at(eps, end_q(m.value.lower()), kCheckPrecision), delta, "gdp_mu_for safe end");
  }
}

void gaussian_calibration(ByteReader& in) {
  const mpq_class eps = rational(in, false), sens = rational(in, true);
  mpq_class delta = probability(in);
  // As often near 1 as near 0: targets above 1/2 take the other (complement) route.
  if (in.flag() && sgn(delta) > 0 && delta < 1) delta = 1 - delta;
  trace("calibrate_gaussian epsilon delta sensitivity", {&eps, &delta, &sens});
  const acc::GaussianCalibration c = acc::calibrate_gaussian(eps, delta, sens, fast_options());
  FUZZ_CHECK(c.sigma > 0 && c.sigma_lower <= c.sigma, "calibrate_gaussian bracket [%s, %s]",
             str(c.sigma_lower).c_str(), str(c.sigma).c_str());
  check_meets(acc::gaussian_delta_at(eps, c.sigma, sens, kCheckPrecision), delta, "calibrate_gaussian sigma");
  if (c.sigma_lower > 0) {
    // Certified to MISS the target: its delta must not be proven <= target.
    const exactdp::Interval d = acc::gaussian_delta_at(eps, c.sigma_lower, sens, kCheckPrecision);
    FUZZ_CHECK(mpfr_cmp_q(d.upper(), delta.get_mpq_t()) > 0,
               "calibrate_gaussian sigma_lower %s meets the target after all: delta %s <= %s",
               str(c.sigma_lower).c_str(), iv(d).c_str(), str(delta).c_str());
  }
  // The same on 1 - delta (relatively accurate however close delta is to 1; the calibration
  // certifies targets above 1/2 this way), and the reported intervals themselves.
  const mpq_class level = 1 - delta;
  const exactdp::Interval c_hi = acc::gdp_delta_complement_at(eps, mpq_class(sens / c.sigma), kCheckPrecision);
  FUZZ_CHECK(mpfr_cmp_q(c_hi.upper(), level.get_mpq_t()) >= 0,
             "calibrate_gaussian sigma %s: 1 - delta %s is certified below 1 - target %s",
             str(c.sigma).c_str(), iv(c_hi).c_str(), str(level).c_str());
  if (c.sigma_lower > 0) {
    const exactdp::Interval c_lo = acc::gdp_delta_complement_at(eps, mpq_class(sens / c.sigma_lower), kCheckPrecision);
    FUZZ_CHECK(mpfr_cmp_q(c_lo.lower(), level.get_mpq_t()) < 0,
               "calibrate_gaussian sigma_lower %s: 1 - delta %s is certified >= 1 - target %s",
               str(c.sigma_lower).c_str(), iv(c_lo).c_str(), str(level).c_str());
  }
  FUZZ_CHECK(exactdp::upper_at_most(c.delta_at_sigma, delta) && exactdp::lower_above(c.delta_at_sigma_lower, delta),
             "calibrate_gaussian reports delta %s at sigma and %s at sigma_lower for target %s",
             iv(c.delta_at_sigma).c_str(), iv(c.delta_at_sigma_lower).c_str(), str(delta).c_str());
}

// The discrete Gaussian, discrete Laplace and Laplace profiles: deltas in [0, 1], decreasing in
// eps; zero beyond the pure-DP level of the Laplace laws (Delta / scale); the discrete Gaussian
// by the two summation algorithms (direct and Euler–Maclaurin) agrees where both are cheap.
void other_profiles(ByteReader& in) {
  mpq_class eps1 = rational(in, false), eps2 = rational(in, false);
  if (eps2 < eps1) std::swap(eps1, eps2);
  const mpq_class sigma2 = rational(in, true), scale = rational(in, true);
  const mpz_class sens = in.positive(2);  // integer sensitivity up to 2^16
  const mpq_class sens_q(sens);
  trace("discrete profiles eps1 eps2 sigma2 scale sensitivity", {&eps1, &eps2, &sigma2, &scale, &sens_q});
  using acc::GaussianSumMethod;
  const exactdp::Interval g1 = check_decreasing(eps1, eps2, "discrete_gaussian_delta_at", [&](const mpq_class& e) {
    return acc::discrete_gaussian_delta_at(e, sigma2, sens, exactdp::kDefaultPrecision);
  });
  const exactdp::Interval gc = acc::discrete_gaussian_delta_complement_at(eps1, sigma2, sens, exactdp::kDefaultPrecision);
  FUZZ_CHECK((g1 + gc).contains(1L), "discrete gaussian delta %s + (1 - delta) %s does not contain 1",
             iv(g1).c_str(), iv(gc).c_str());
  if (sigma2 <= 1000 && sens <= 64 && eps1 <= 50) {
    const exactdp::Interval direct = acc::discrete_gaussian_delta_at(eps1, sigma2, sens, exactdp::kDefaultPrecision,
                                                                 GaussianSumMethod::kDirect);
    const exactdp::Interval em = acc::discrete_gaussian_delta_at(eps1, sigma2, sens, exactdp::kDefaultPrecision,
                                                             GaussianSumMethod::kEulerMaclaurin);
    check_not_above(direct, em, "discrete gaussian: direct vs Euler-Maclaurin");
    check_not_above(em, direct, "discrete gaussian: Euler-Maclaurin vs direct");
  }
  const mpq_class pure_level = sens_q / scale;  // both Laplace laws are (Delta/scale)-DP
  const exactdp::Interval l1 = check_decreasing(eps1, eps2, "discrete_laplace_delta_at", [&](const mpq_class& e) {
    return acc::discrete_laplace_delta_at(e, scale, sens, exactdp::kDefaultPrecision);
  });
  const exactdp::Interval c1 = check_decreasing(eps1, eps2, "laplace_delta_at", [&](const mpq_class& e) {
    return acc::laplace_delta_at(e, scale, sens_q, exactdp::kDefaultPrecision);
  });
  if (eps1 >= pure_level) {
    check_meets(l1, mpq_class(0), "discrete laplace beyond its pure-DP level");
    check_meets(c1, mpq_class(0), "laplace beyond its pure-DP level");
  }
}

// calibrate_discrete_gaussian: the sigma2 to use meets the target when re-evaluated, the bracket
// around the optimum is ordered and certified on both sides, sigma2 is at or above its upper end.
void discrete_gaussian_calibration(ByteReader& in) {
  const mpq_class eps = rational(in, true);
  mpq_class delta = probability(in);
  if (in.flag() && sgn(delta) > 0 && delta < 1) delta = 1 - delta;  // near 1 as often as near 0
  const mpz_class sens = in.positive(1);  // 1..255
  const mpq_class sens_q(sens);
  trace("calibrate_discrete_gaussian epsilon delta sensitivity", {&eps, &delta, &sens_q});
  const acc::DiscreteGaussianCalibration c =
      acc::calibrate_discrete_gaussian(eps, delta, sens, mpq_class(1, 1 << 16), 2048);
  FUZZ_CHECK(exactdp::upper_at_most(c.delta_at_sigma2, delta), "calibrate_discrete_gaussian: delta %s at sigma2 %s not <= %s",
             iv(c.delta_at_sigma2).c_str(), str(c.sigma2).c_str(), str(delta).c_str());
  check_meets(acc::discrete_gaussian_delta_at(eps, c.sigma2, sens, kCheckPrecision), delta,
              "calibrate_discrete_gaussian sigma2");
  FUZZ_CHECK(c.optimum_lower < c.optimum_upper && c.optimum_upper <= c.sigma2,
             "calibrate_discrete_gaussian bracket [%s, %s], sigma2 %s", str(c.optimum_lower).c_str(),
             str(c.optimum_upper).c_str(), str(c.sigma2).c_str());
  const exactdp::Interval at_lower = acc::discrete_gaussian_delta_at(eps, c.optimum_lower, sens, kCheckPrecision);
  FUZZ_CHECK(mpfr_cmp_q(at_lower.upper(), delta.get_mpq_t()) > 0,
             "calibrate_discrete_gaussian: optimum_lower %s meets the target after all: delta %s <= %s",
             str(c.optimum_lower).c_str(), iv(at_lower).c_str(), str(delta).c_str());
}

void composition(ByteReader& in) {
  const mpq_class eps = rational(in, true), delta = probability(in);
  const unsigned long k = 1 + in.u8() % 200;
  const mpq_class k_q(k);
  trace("composition epsilon delta k", {&eps, &delta, &k_q});
  const mpq_class basic = acc::basic_composition_epsilon(eps, k);
  FUZZ_CHECK(basic == eps * k, "basic composition %s", str(basic).c_str());
  const exactdp::Interval adv = acc::advanced_composition_epsilon(eps, k, delta);
  check_interval(adv, "advanced_composition_epsilon");
  const acc::Certified opt = acc::kov_epsilon(eps, k, delta, fast_options());
  check_interval(opt.value, "kov_epsilon");
  check_not_above(opt.value, adv, "optimal vs advanced composition");
  FUZZ_CHECK(mpfr_cmp_q(opt.value.lower(), basic.get_mpq_t()) <= 0, "optimal %s above basic %s",
             iv(opt.value).c_str(), str(basic).c_str());
  check_meets(acc::kov_delta(eps, k, end_q(opt.value.upper()), fast_options()).value, delta, "kov_epsilon safe end");
  mpq_class e1 = rational(in, false), e2 = rational(in, false);
  if (e2 < e1) std::swap(e1, e2);
  trace("kov_delta eps' pair", {&e1, &e2});
  const acc::Certified d1 = acc::kov_delta(eps, k, e1, fast_options());
  const acc::Certified d2 = acc::kov_delta(eps, k, e2, fast_options());
  check_delta(d1.value, "kov_delta");
  check_delta(d2.value, "kov_delta");
  check_not_above(d2.value, d1.value, "kov_delta decreasing in eps'");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  ByteReader in(data, size);
  const std::uint8_t mode = in.u8();
  try {
    switch (mode % kModes) {
      case 0: gdp_profile(in); break;
      case 1: gaussian_vs_gdp(in); break;
      case 2: zcdp(in); break;
      case 3: gdp_calibration(in); break;
      case 4: gaussian_calibration(in); break;
      case 5: composition(in); break;
      case 6: other_profiles(in); break;
      default: discrete_gaussian_calibration(in); break;
    }
  } catch (const exactdp::ParameterError&) {
    // Out of the documented domain: the CLI turns this into exit 2.
  } catch (const std::exception& e) {
    FUZZ_CHECK(false, "mode %d: exception other than ParameterError: %s", mode % kModes, e.what());
  }
  return 0;
}
