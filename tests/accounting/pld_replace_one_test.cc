// The pld route under replace-one for Poisson-subsampled events
// (accounting/pld/pld_replace_pair.h, pld_replace_instance.h, pld_group_bound.h). The answer
// [lower, upper] must contain the delta of the pair of records adding +Delta and -Delta (a pair
// the relation admits, so the true worst case is at least its delta): computed here
// independently, by closed forms at 256 bits (Gaussian), brute-force sums (discrete Gaussian) or
// the library's exact profiles of the plain mechanism with sensitivity 2 Delta (q = 1). For the
// Gaussian that pair is proven to dominate, so the upper end must also be close to it and below
// the group bound; the other laws keep the group bound. An accountant that answered the
// add/remove value under replace-one is caught: the instance's delta is above that value.
#include <gtest/gtest.h>

#include <mpfr.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <exactdp/accounting/discrete_gaussian_profile.h>
#include <exactdp/accounting/discrete_laplace_profile.h>
#include <exactdp/accounting/gaussian_profile.h>
#include <exactdp/core/interval.h>
#include <exactdp/accounting/laplace_profile.h>
#include <exactdp/accounting/pld/pld_accountant.h>
#include <exactdp/core/errors.h>
#include <exactdp/laws/events.h>

namespace exactdp::accounting {
namespace {
namespace pld_replace_one_test {  // this file's own names in a unity build (tests/CMakeLists.txt)

constexpr mpfr_prec_t kP = 128;
constexpr mpfr_prec_t kRef = 256;

pld::PldOptions grid(unsigned long n) {
  pld::PldOptions o;
  o.discretization.steps_per_unit = n;
  return o;
}

double lo(const pld::PldAnswer& a) { return mpfr_get_d(a.value.lower(), MPFR_RNDD); }
double up(const pld::PldAnswer& a) { return mpfr_get_d(a.value.upper(), MPFR_RNDU); }

// A 256-bit MPFR scalar for the references (round to nearest: a reference, not a bound; its
// error, ~2^-240 relative, is far below every comparison's margin).
struct R {
  R() { mpfr_init2(v, kRef); }
  explicit R(double d) : R() { mpfr_set_d(v, d, MPFR_RNDN); }
  ~R() { mpfr_clear(v); }
  R(const R& o) : R() { mpfr_set(v, o.v, MPFR_RNDN); }
  R& operator=(const R& o) {
    mpfr_set(v, o.v, MPFR_RNDN);
    return *this;
  }
  mpfr_t v;
};
R op(int (*f)(mpfr_ptr, mpfr_srcptr, mpfr_srcptr, mpfr_rnd_t), const R& a, const R& b) {
  R r;
  f(r.v, a.v, b.v, MPFR_RNDN);
  return r;
}
R operator+(const R& a, const R& b) { return op(mpfr_add, a, b); }
R operator-(const R& a, const R& b) { return op(mpfr_sub, a, b); }
R operator*(const R& a, const R& b) { return op(mpfr_mul, a, b); }
R operator/(const R& a, const R& b) { return op(mpfr_div, a, b); }
R fn(int (*f)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t), const R& a) {
  R r;
  f(r.v, a.v, MPFR_RNDN);
  return r;
}
R exp_(const R& a) { return fn(mpfr_exp, a); }
R log_(const R& a) { return fn(mpfr_log, a); }
R sqrt_(const R& a) { return fn(mpfr_sqrt, a); }
// 1 - Phi(x) = erfc(x / sqrt 2) / 2.
R upper_tail(const R& x) { return fn(mpfr_erfc, x / sqrt_(R(2))) * R(0.5); }
double d(const R& a) { return mpfr_get_d(a.v, MPFR_RNDN); }

// One step of the Poisson-subsampled Gaussian (mu = Delta / sigma, rate q), in closed form.
struct GaussianStep {
  double mu, q;
  // The instance P = a N(0,1) + q N(mu,1) against Q = a N(0,1) + q N(-mu,1): its loss is
  // increasing, so delta(eps) = P(X > x*) - e^eps Q(X > x*) at the loss's inverse x*.
  R instance_delta(double eps) const {
    const R a(1 - q), c = R(q) * exp_(R(-mu * mu / 2)), e = exp_(R(eps)), m(mu);
    const R t = a * (e - R(1));
    const R u = (t + sqrt_(t * t + R(4) * c * c * e)) / (R(2) * c);
    const R x = log_(u) / m;
    const R p = a * upper_tail(x) + R(q) * upper_tail(x - m);
    const R qq = a * upper_tail(x) + R(q) * upper_tail(x + m);
    return p - e * qq;
  }
  // Add/remove: remove = mixture against N(0,1) (loss increasing), add = the reverse.
  R remove_delta(double eps) const {
    const R a(1 - q), e = exp_(R(eps)), m(mu);
    const R x = (log_((e - a) / R(q)) + R(mu * mu / 2)) / m;
    return a * upper_tail(x) + R(q) * upper_tail(x - m) - e * upper_tail(x);
  }
  R add_delta(double eps) const {
    const R a(1 - q), e = exp_(R(eps)), ei = exp_(R(-eps)), m(mu);
    if (!(d(ei) > 1 - q)) return R(0);
    const R x = (log_((ei - a) / R(q)) + R(mu * mu / 2)) / m;  // the loss exceeds eps below x
    const R cdf = R(1) - upper_tail(x);
    return cdf - e * (a * cdf + R(q) * (R(1) - upper_tail(x - m)));
  }
  // The group bound min over eps1 + eps2 = eps of remove(eps1) + e^eps1 add(eps2), on a grid.
  double group_delta(double eps, int points) const {
    double best = 1;
    for (int i = 0; i <= points; ++i) {
      const double e1 = eps * i / points;
      best = std::min(best, d(remove_delta(e1) + exp_(R(e1)) * add_delta(eps - e1)));
    }
    return best;
  }
};

TEST(PldReplaceOne, OneGaussianStepBracketsTheInstanceTightlyBelowTheGroupBound) {
  const GaussianStep step{1.0, 0.1};
  const RdpComposition events{{RdpEvent::poisson_gaussian(1, mpq_class(1, 10)), 1}};
  bool caught = false;
  for (const char* e : {"1/4", "1/2", "1", "2"}) {
    const mpq_class eps(e);
    const pld::PldAnswer rep = pld::pld_delta(events, eps, Neighbouring::kReplaceOne, grid(1000));
    const pld::PldAnswer ar = pld::pld_delta(events, eps, Neighbouring::kAddRemove, grid(1000));
    const double instance = d(step.instance_delta(eps.get_d()));
    EXPECT_LE(lo(rep), instance) << e;
    EXPECT_GE(up(rep), instance) << e;
    // The lower end is informative: within 2 % of the instance (grid 1/1000, one step).
    EXPECT_GE(lo(rep), instance * 0.98) << e;
    // The upper end is the dominating pair's: within 2 % of the instance, and at most the
    // group bound of the exact profiles (that bound on a 1000-point grid).
    EXPECT_LE(up(rep), instance * 1.02) << e;
    EXPECT_LE(up(rep), step.group_delta(eps.get_d(), 1000)) << e;
    // An accountant answering the add/remove value under replace-one would be wrong here.
    caught = caught || instance > up(ar);
  }
  EXPECT_TRUE(caught) << "the instance's delta never exceeds the add/remove upper end: the test cannot catch an "
                         "accountant that ignores the relation";
}

TEST(PldReplaceOne, ComposedGaussianWithEveryRecordSampledContainsTheExactShiftByTwoDelta) {
  // q = 1: the instance is the Gaussian mechanism with sensitivity 2 Delta; 4 steps at sigma = 2,
  // Delta = 1 compose to mu = 2 * 1 * sqrt(4) / 2 = 2 GDP, whose delta is exact.
  const RdpComposition events{{RdpEvent::poisson_gaussian(2, mpq_class(1)), 4}};
  for (const char* e : {"1/2", "1", "3"}) {
    const mpq_class eps(e);
    const pld::PldAnswer rep = pld::pld_delta(events, eps, Neighbouring::kReplaceOne, grid(1000));
    const Interval exact = gdp_delta_at(eps, mpq_class(2), kP);
    EXPECT_LE(mpfr_cmp(rep.value.lower(), exact.upper()), 0) << e;
    EXPECT_GE(mpfr_cmp(rep.value.upper(), exact.lower()), 0) << e;
    EXPECT_GE(lo(rep), mpfr_get_d(exact.lower(), MPFR_RNDD) * 0.97) << e;
  }
  // epsilon at delta = 10^-5: the instance's epsilon lies in the answer, i.e. its delta is at
  // least 10^-5 at the lower end and at most 10^-5 at the upper end.
  const mpq_class delta("1/100000");
  const pld::PldAnswer rep = pld::pld_epsilon(events, delta, Neighbouring::kReplaceOne, grid(1000));
  const mpq_class e_lo = to_mpq(rep.value.lower()), e_up = to_mpq(rep.value.upper());
  EXPECT_GE(mpfr_cmp_q(gdp_delta_at(e_lo, mpq_class(2), kP).upper(), delta.get_mpq_t()), 0);
  EXPECT_LE(mpfr_cmp_q(gdp_delta_at(e_up, mpq_class(2), kP).lower(), delta.get_mpq_t()), 0);
  EXPECT_LT(e_lo, e_up);
}

TEST(PldReplaceOne, OtherNoiseLawsContainTheirInstance) {
  const mpq_class eps(1, 2);
  // q = 1: the plain mechanism with sensitivity 2 Delta, by the library's exact profiles.
  const auto check = [&](const RdpEvent& event, const Interval& exact, const std::string& what) {
    const pld::PldAnswer rep = pld::pld_delta({{event, 1}}, eps, Neighbouring::kReplaceOne, grid(1000));
    EXPECT_LE(mpfr_cmp(rep.value.lower(), exact.upper()), 0) << what;
    EXPECT_GE(mpfr_cmp(rep.value.upper(), exact.lower()), 0) << what;
    EXPECT_GE(lo(rep), mpfr_get_d(exact.lower(), MPFR_RNDD) * 0.97) << what;
  };
  check(RdpEvent::poisson_subsampled(laws::discrete_gaussian_event(mpq_class(4), 1), 1),
        discrete_gaussian_delta_at(eps, mpq_class(4), 2, kP), "discrete gaussian");
  check(RdpEvent::poisson_subsampled(laws::laplace_event(mpq_class(3), 1), 1),
        laplace_delta_at(eps, mpq_class(3), 2, kP), "laplace");
  check(RdpEvent::poisson_subsampled(laws::discrete_laplace_event(mpq_class(3), 1), 1),
        discrete_laplace_delta_at(eps, mpq_class(3), 2, kP), "discrete laplace");

  // q = 1/5, discrete Gaussian sigma2 = 4, Delta = 1: brute-force sum over |x| <= 200.
  const double q = 0.2;
  R z(0);
  std::vector<R> w;
  for (int x = -202; x <= 202; ++x) w.push_back(exp_(R(-x * x / 8.0)));
  for (const R& v : w) z = z + v;
  R sum(0);
  const R e = exp_(R(0.5));
  for (int x = -200; x <= 200; ++x) {
    const R& w0 = w[static_cast<std::size_t>(x + 202)];
    const R p = (R(1 - q) * w0 + R(q) * w[static_cast<std::size_t>(x + 201)]) / z;
    const R qq = (R(1 - q) * w0 + R(q) * w[static_cast<std::size_t>(x + 203)]) / z;
    const R t = p - e * qq;
    if (mpfr_sgn(t.v) > 0) sum = sum + t;
  }
  const pld::PldAnswer rep = pld::pld_delta(
      {{RdpEvent::poisson_subsampled(laws::discrete_gaussian_event(mpq_class(4), 1), mpq_class(1, 5)), 1}}, eps,
      Neighbouring::kReplaceOne, grid(1000));
  EXPECT_LE(lo(rep), d(sum));
  EXPECT_GE(up(rep), d(sum));
  EXPECT_GE(lo(rep), d(sum) * 0.97);
}

TEST(PldReplaceOne, ComposedDpSgdIsAboveAddRemoveAndOrdered) {
  // 200 steps, q = 1/100, sigma = 1: the instance's lower end is above the add/remove upper end
  // (x' adding -Delta is worse than x' adding nothing), and the bracket is narrow.
  const RdpComposition events{{RdpEvent::poisson_gaussian(1, mpq_class(1, 100)), 200}};
  const mpq_class delta("1/100000");
  const pld::PldAnswer rep = pld::pld_epsilon(events, delta, Neighbouring::kReplaceOne, grid(1000));
  const pld::PldAnswer ar = pld::pld_epsilon(events, delta, Neighbouring::kAddRemove, grid(1000));
  EXPECT_GT(lo(rep), up(ar)) << "the instance must be worse than add/remove";
  EXPECT_GT(up(rep), lo(rep));
  EXPECT_LT(up(rep), lo(rep) * 1.01) << "the dominating pair's bracket is the discretisation's alone";
}

TEST(PldReplaceOne, AGridTooFineForTheEventIsRefusedAtOnce) {
  // mu = 50: the instance's loss range needs ~1.7*10^7 cells at step 1/5000; it is discretised
  // first and refuses (LimitError naming pld-step) before the add/remove chains take minutes.
  pld::PldOptions o;
  o.discretization.steps_per_unit = 5000;
  try {
    (void)pld::pld_epsilon({{RdpEvent::poisson_gaussian(mpq_class(1, 50), mpq_class(1, 2)), 1000}},
                           mpq_class(1, 100000), Neighbouring::kReplaceOne, o);
    FAIL() << "expected a refusal";
  } catch (const LimitError& e) {
    EXPECT_EQ(e.parameter(), "pld-step") << e.what();
  }
}

TEST(PldReplaceOne, RefusesPlainEventsBesideSubsampledOnes) {
  const RdpComposition mixed{{RdpEvent::poisson_gaussian(1, mpq_class(1, 100)), 10},
                             {RdpEvent::plain(laws::gaussian_event(mpq_class(2), 1)), 1}};
  try {
    (void)pld::pld_delta(mixed, mpq_class(1), Neighbouring::kReplaceOne, grid(1000));
    FAIL() << "a plain event beside subsampled ones under replace-one must be refused";
  } catch (const ParameterError& e) {
    EXPECT_EQ(e.parameter(), "event");
    EXPECT_NE(std::string(e.what()).find("q=1"), std::string::npos) << e.what();
  }
}

}  // namespace pld_replace_one_test
}  // namespace
}  // namespace exactdp::accounting
