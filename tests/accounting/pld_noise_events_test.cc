// The pld route for discrete Gaussian, Laplace and discrete Laplace noise, plain and
// Poisson-subsampled (accounting/pld/pld_noise_atoms.h): the certified interval
// must contain the exact delta of one step (the library's exact profiles, or an independent
// brute-force sum over outcomes written here), and of compositions where an exact value is
// known (discrete Laplace with sensitivity 1 is randomized response: the KOV formula).
#include <gtest/gtest.h>

#include <exactdp/accounting/discrete_gaussian_profile.h>
#include <exactdp/accounting/discrete_laplace_profile.h>
#include <exactdp/core/interval.h>
#include <exactdp/accounting/laplace_profile.h>
#include <exactdp/accounting/pld/pld_accountant.h>
#include <exactdp/accounting/pld/pld_composition.h>
#include <exactdp/accounting/pld/pld_events.h>
#include <exactdp/accounting/pld/pld_test_bound.h>
#include <exactdp/core/errors.h>
#include <exactdp/laws/events.h>

namespace exactdp::accounting {
namespace {
namespace pld_noise_events_test {  // this file's own names in a unity build (tests/CMakeLists.txt)

constexpr mpfr_prec_t kP = 128;

::testing::AssertionResult contains(const Interval& answer, const Interval& truth) {
  if (mpfr_cmp(answer.lower(), truth.upper()) > 0 || mpfr_cmp(answer.upper(), truth.lower()) < 0) {
    return ::testing::AssertionFailure() << "[" << mpfr_get_d(answer.lower(), MPFR_RNDD) << ", "
                                         << mpfr_get_d(answer.upper(), MPFR_RNDU) << "] misses "
                                         << mpfr_get_d(truth.lower(), MPFR_RNDN);
  }
  return ::testing::AssertionSuccess();
}

pld::PldOptions grid(unsigned long n) {
  pld::PldOptions o;
  o.discretization.steps_per_unit = n;
  return o;
}

TEST(PldNoiseEvents, OneStepContainsTheExactProfiles) {
  for (const char* e : {"0", "1/10", "1/2", "1"}) {
    const mpq_class eps(e);
    const auto dg = pld::pld_delta({{RdpEvent::plain(laws::discrete_gaussian_event(mpq_class(2), 1)), 1}}, eps,
                                   Neighbouring::kAddRemove, grid(2000));
    EXPECT_TRUE(contains(dg.value, discrete_gaussian_delta_at(eps, mpq_class(2), 1, kP))) << "dg " << e;
    const auto dg3 = pld::pld_delta({{RdpEvent::plain(laws::discrete_gaussian_event(mpq_class(9, 2), 3)), 1}}, eps,
                                    Neighbouring::kAddRemove, grid(2000));
    EXPECT_TRUE(contains(dg3.value, discrete_gaussian_delta_at(eps, mpq_class(9, 2), 3, kP))) << "dg3 " << e;
    const auto lap = pld::pld_delta({{RdpEvent::plain(laws::laplace_event(mpq_class(3, 2), 1)), 1}}, eps,
                                    Neighbouring::kAddRemove, grid(2000));
    EXPECT_TRUE(contains(lap.value, laplace_delta_at(eps, mpq_class(3, 2), 1, kP))) << "laplace " << e;
    const auto dl = pld::pld_delta({{RdpEvent::plain(laws::discrete_laplace_event(mpq_class(2), 3)), 1}}, eps,
                                   Neighbouring::kAddRemove, grid(2000));
    EXPECT_TRUE(contains(dl.value, discrete_laplace_delta_at(eps, mpq_class(2), 3, kP))) << "dl " << e;
  }
}

// Discrete Laplace, sensitivity 1: the loss is +-1/t, i.e. (1/t)-randomized response, whose
// k-fold delta is the KOV sum: sum_i C(k,i) (p^(k-i) (1-p)^i - e^eps p^i (1-p)^(k-i))^+,
// p = e^(1/t) / (1 + e^(1/t)).
Interval rr_delta(unsigned long k, const mpq_class& t, const mpq_class& eps) {
  const Interval e = exp(Interval(1 / t, kP));
  const Interval p = e / (e + mpq_class(1)), p1 = Interval(1L, kP) - p;
  const Interval ee = exp(Interval(eps, kP));
  Interval sum(0L, kP);
  mpz_class binom(1);
  for (unsigned long i = 0; i <= k; ++i) {
    Interval a(1L, kP), b(1L, kP);
    for (unsigned long j = 0; j < k - i; ++j) a = a * p;
    for (unsigned long j = 0; j < i; ++j) a = a * p1;
    for (unsigned long j = 0; j < i; ++j) b = b * p;
    for (unsigned long j = 0; j < k - i; ++j) b = b * p1;
    sum = sum + max((a - ee * b) * Interval(binom, kP), Interval(0L, kP));
    binom = binom * (k - i) / (i + 1);
  }
  return sum;
}

TEST(PldNoiseEvents, DiscreteLaplaceCompositionContainsKov) {
  const unsigned long k = 30;
  const mpq_class t(4);
  for (const char* e : {"0", "1/2", "2"}) {
    const mpq_class eps(e);
    const auto a = pld::pld_delta({{RdpEvent::plain(laws::discrete_laplace_event(t, 1)), k}}, eps,
                                  Neighbouring::kAddRemove, grid(1000));
    EXPECT_TRUE(contains(a.value, rr_delta(k, t, eps))) << e;
  }
}

// Subsampled discrete pairs, brute force: delta(eps) = sum_x (P(x) - e^eps Q(x))^+ over the
// integers (|x| <= 400, the rest below 10^-40 for these laws), for both orders; the route's
// answer must contain the larger.
struct Pmf {
  std::vector<Interval> q0, q1;  // x = -400 .. 400
};
Pmf discrete_gaussian_pmf(const mpq_class& sigma2, long delta) {
  Pmf out;
  Interval z(0L, kP);
  for (long x = -400; x <= 400; ++x) {
    out.q0.push_back(exp(-Interval(mpq_class(x * x) / (2 * sigma2), kP)));
    out.q1.push_back(exp(-Interval(mpq_class((x - delta) * (x - delta)) / (2 * sigma2), kP)));
    z = z + out.q0.back();
  }
  const Interval zz = hull(z, z + Interval(mpq_class(1, 1000000), kP) * mpq_class(1, 1000000));  // tail slack
  for (auto& v : out.q0) v = v / zz;
  for (auto& v : out.q1) v = v / zz;
  return out;
}
Pmf discrete_laplace_pmf(const mpq_class& t, long delta) {
  Pmf out;
  const Interval e1 = exp(-Interval(1 / t, kP));
  const Interval z = (e1 + mpq_class(1)) / (Interval(1L, kP) - e1);
  for (long x = -400; x <= 400; ++x) {
    out.q0.push_back(exp(-Interval(mpq_class(std::labs(x)) / t, kP)) / z);
    out.q1.push_back(exp(-Interval(mpq_class(std::labs(x - delta)) / t, kP)) / z);
  }
  return out;
}
Interval brute_delta(const Pmf& f, const mpq_class& q, const mpq_class& eps) {
  const Interval ee = exp(Interval(eps, kP));
  Interval rem(0L, kP), add(0L, kP);
  for (std::size_t i = 0; i < f.q0.size(); ++i) {
    const Interval mix = f.q0[i] * (1 - q) + f.q1[i] * q;
    rem = rem + max(mix - ee * f.q0[i], Interval(0L, kP));
    add = add + max(f.q0[i] - ee * mix, Interval(0L, kP));
  }
  return max(rem, add);
}

TEST(PldNoiseEvents, SubsampledDiscreteStepsContainTheBruteForceDelta) {
  const mpq_class q(1, 10);
  const Pmf dg = discrete_gaussian_pmf(mpq_class(3), 2);
  const Pmf dl = discrete_laplace_pmf(mpq_class(3, 2), 2);
  for (const char* e : {"0", "1/20", "1/5", "1/2"}) {
    const mpq_class eps(e);
    const auto a = pld::pld_delta(
        {{RdpEvent::poisson_subsampled(laws::discrete_gaussian_event(mpq_class(3), 2), q), 1}}, eps,
        Neighbouring::kAddRemove, grid(2000));
    EXPECT_TRUE(contains(a.value, brute_delta(dg, q, eps))) << "dg " << e;
    const auto b = pld::pld_delta(
        {{RdpEvent::poisson_subsampled(laws::discrete_laplace_event(mpq_class(3, 2), 2), q), 1}}, eps,
        Neighbouring::kAddRemove, grid(2000));
    EXPECT_TRUE(contains(b.value, brute_delta(dl, q, eps))) << "dl " << e;
  }
}

// Subsampled Laplace, one step, against a brute-force Riemann enclosure on a fine x-grid
// (the integrand (p - e^eps q)^+ of each order bounded per slice by the slice's extreme
// densities: the densities are monotone on each side of 0 and of 1).
Interval laplace_brute_delta(const mpq_class& q, const mpq_class& eps) {
  const Interval ee = exp(Interval(eps, kP));
  Interval rem_lo(0L, kP), rem_hi(0L, kP), add_lo(0L, kP), add_hi(0L, kP);
  const long slices = 15500;  // x in [-15, 16], width w = 1/500: 0 and 1 are slice ends
  const mpq_class w(1, 500);
  const auto dens = [](const mpq_class& x, long shift) {
    mpq_class d = x - shift;
    if (d < 0) d = -d;
    return exp(-Interval(d, kP)) * mpq_class(1, 2);
  };
  for (long i = 0; i < slices; ++i) {
    const mpq_class a = mpq_class(-15) + w * i, b = a + w;
    // Each density is monotone on the slice (the kinks 0 and 1 are slice ends): hull of the ends.
    const Interval q0 = hull(dens(a, 0), dens(b, 0)), q1 = hull(dens(a, 1), dens(b, 1));
    const Interval mix = q0 * (1 - q) + q1 * q;
    const Interval r = max(mix - ee * q0, Interval(0L, kP)) * w, s = max(q0 - ee * mix, Interval(0L, kP)) * w;
    rem_lo = rem_lo + Interval::point(r.lower(), kP);
    rem_hi = rem_hi + Interval::point(r.upper(), kP);
    add_lo = add_lo + Interval::point(s.lower(), kP);
    add_hi = add_hi + Interval::point(s.upper(), kP);
  }
  // tails beyond [-15, 16]: mass < e^-14, added to the upper ends
  const Interval tail = exp(Interval(-14L, kP));
  return hull(max(rem_lo, add_lo), max(rem_hi, add_hi) + tail);
}

TEST(PldNoiseEvents, SubsampledLaplaceStepContainsTheRiemannEnclosure) {
  const mpq_class q(1, 5);
  for (const char* e : {"1/20", "1/5"}) {
    const mpq_class eps(e);
    const auto a = pld::pld_delta({{RdpEvent::poisson_subsampled(laws::laplace_event(mpq_class(1), 1), q), 1}},
                                  eps, Neighbouring::kAddRemove, grid(2000));
    const Interval truth = laplace_brute_delta(q, eps);
    // The route's interval and the enclosure of the truth must overlap (both contain it).
    EXPECT_LE(mpfr_cmp(a.value.lower(), truth.upper()), 0) << e;
    EXPECT_GE(mpfr_cmp(a.value.upper(), truth.lower()), 0) << e;
  }
}

// poisson-laplace has RDP up to sensitivity/scale 1000 (rdp_subsampled_laplace.h); beyond, the
// rdp route refuses and names the pld route.
TEST(PldNoiseEvents, RdpRefusesTheNewSubsampledEventsNamingTheRoute) {
  EXPECT_TRUE(RdpEvent::poisson_subsampled(laws::laplace_event(mpq_class(1), 1), mpq_class(1, 100)).has_rdp());
  const RdpEvent e = RdpEvent::poisson_subsampled(laws::laplace_event(mpq_class(1, 2000), 1), mpq_class(1, 100));
  EXPECT_FALSE(e.has_rdp());
  try {
    (void)e.rdp(2, Neighbouring::kAddRemove, kP);
    ADD_FAILURE() << "no throw";
  } catch (const ParameterError& err) {
    EXPECT_NE(std::string(err.what()).find("route"), std::string::npos) << err.what();
  }
  EXPECT_THROW((void)RdpEvent::poisson_subsampled(laws::zcdp_event(mpq_class(1)), mpq_class(1, 2)), ParameterError);
  EXPECT_THROW((void)RdpEvent::poisson_subsampled(laws::laplace_event(mpq_class(1), 1), mpq_class(0)), ParameterError);
  EXPECT_TRUE(RdpEvent::poisson_subsampled(laws::gaussian_event(mpq_class(1), 1), mpq_class(1, 2)).has_rdp());
}

}  // namespace pld_noise_events_test
}  // namespace
}  // namespace exactdp::accounting
