// The Skellam law's vector sensitivities (laws/skellam/skellam_privacy.h): the AKL21 bound with
// separate L1 and L2 norms against the formula as the paper's code writes it (variance 2 mu,
// values from Python's exact fractions), the default L1 bound from dim, the scalar case
// unchanged (exact profile only there), the registry's event with l1 and dim, the
// Poisson-subsampled form over the vector curve, and bad input refused naming the parameter.
#include <gtest/gtest.h>

#include <exactdp/core/errors.h>
#include <exactdp/laws/registry.h>
#include <exactdp/laws/skellam/skellam_privacy.h>

namespace exactdp::laws {
namespace {
namespace skellam_vector_test {  // this file's own names in a unity build (tests/CMakeLists.txt)

constexpr mpfr_prec_t kP = 128;

SkellamPrivacy vector_maps(const char* mu, const char* l2, std::optional<const char*> l1, long dim) {
  SkellamSensitivity s{mpq_class(l2), std::nullopt, dim};
  if (l1) s.l1 = mpq_class(*l1);
  return SkellamPrivacy(mpq_class(mu), s);
}

TEST(SkellamVector, RdpBoundIsAkl21WithBothNorms) {
  // a alpha Delta2^2 / (2 var) + min(((2 alpha - 1) Delta2^2 + 6 Delta1) / (4 var^2), 3 Delta1 / (2 var))
  EXPECT_EQ(vector_maps("1000", "10", "30", 1000).rdp_bound(mpq_class(8)), mpq_class(40021, 200000));
  EXPECT_EQ(vector_maps("50", "3", "5", 9).rdp_bound(mpq_class(2)), mpq_class(3657, 40000));
  EXPECT_EQ(vector_maps("100000", "40", "900", 4096).rdp_bound(mpq_class(32)), mpq_class(102400531, 800000000));
  // the RDP bound lies under alpha rho at every order
  const SkellamPrivacy maps = vector_maps("1000", "10", "30", 1000);
  for (const long a : {2L, 5L, 64L, 256L}) EXPECT_LE(maps.rdp_bound(mpq_class(a)), *maps.rho() * a) << a;
}

TEST(SkellamVector, TheL1BoundIsTheLeastOfL1L2SquaredAndRootDimL2) {
  EXPECT_EQ(vector_maps("10", "10", std::nullopt, 4).l1_bound(), mpq_class(20));       // sqrt(4) 10
  EXPECT_EQ(vector_maps("10", "3", std::nullopt, 1'000'000).l1_bound(), mpq_class(9));  // 3^2
  EXPECT_EQ(vector_maps("10", "10", "7", 4).l1_bound(), mpq_class(7));
  // sqrt(2) 3 rounded up to 2^-20: ceil(2^20 sqrt(2)) 3 / 2^20
  EXPECT_EQ(vector_maps("10", "3", std::nullopt, 2).l1_bound(), mpq_class(4448733, 1048576));
}

TEST(SkellamVector, TheScalarCaseIsUnchangedAndAloneHasTheExactProfile) {
  const SkellamPrivacy scalar(mpq_class(1000), 10);
  EXPECT_EQ(scalar.l1_bound(), mpq_class(10));
  EXPECT_EQ(scalar.describe(), "skellam(mu=1000, sensitivity=10)");
  EXPECT_TRUE(scalar.exact_profile());
  EXPECT_FALSE(vector_maps("1000", "10", std::nullopt, 2).exact_profile());
  EXPECT_FALSE(vector_maps("1000", "10", "10", 1).exact_profile());
  EXPECT_FALSE(vector_maps("1000", "21/2", std::nullopt, 1).exact_profile());
  // the vector's delta is the RDP conversion's, and a larger L1 costs more
  const Interval wide = vector_maps("1000", "10", "100", 100).delta_at(mpq_class(1), kP);
  const Interval narrow = vector_maps("1000", "10", "10", 100).delta_at(mpq_class(1), kP);
  EXPECT_TRUE(certainly_less_equal(narrow, wide)) << narrow.debug_string() << " " << wide.debug_string();
}

TEST(SkellamVector, TheRegistryEventCarriesL1AndDim) {
  const Law& law = law_named("skellam");
  const accounting::PrivacyEvent e =
      law.privacy_event(law.parse({{"mu", "1000"}, {"sensitivity", "10"}, {"l1", "30"}, {"dim", "1000"}}, Use::kPrivacy));
  const Interval rdp = e.maps().rdp(mpq_class(8), kP);
  EXPECT_TRUE(rdp.contains(mpq_class(40021, 200000))) << rdp.debug_string();
  EXPECT_EQ(e.maps().describe(), "skellam(mu=1000, sensitivity=10, l1=30, dim=1000)");
  // Poisson-subsampled: the vector curve under Zhu and Wang's bound, at most the unsampled value
  const SkellamPrivacy maps = vector_maps("1000", "10", "30", 1000);
  const Interval sub = maps.subsampled_rdp(mpq_class(1, 100), mpq_class(8), kP);
  EXPECT_TRUE(certainly_less(sub, maps.rdp(mpq_class(8), kP))) << sub.debug_string();
  EXPECT_TRUE(certainly_less(vector_maps("1000", "10", "10", 1000).subsampled_rdp(mpq_class(1, 100), mpq_class(8), kP), sub));
}

TEST(SkellamVector, BadSensitivitiesAreRefusedNamingThem) {
  const Law& law = law_named("skellam");
  const auto refused = [&](const char* name, const char* value) {
    try {
      (void)law.parse({{"mu", "1000"}, {name, value}}, Use::kPrivacy);
    } catch (const ParameterError& e) {
      return std::string(e.what()).find(name) != std::string::npos;
    }
    return false;
  };
  EXPECT_TRUE(refused("l1", "0"));
  EXPECT_TRUE(refused("l1", "1000000000000000001"));
  EXPECT_TRUE(refused("dim", "0"));
  EXPECT_TRUE(refused("dim", "1000000001"));
  EXPECT_TRUE(refused("sensitivity", "1/2"));
}

}  // namespace skellam_vector_test
}  // namespace
}  // namespace exactdp::laws
