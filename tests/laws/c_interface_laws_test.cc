// laws/c_interface_laws.h: each law a per-law C call stands for is a registry law whose noise
// parameter is the one the call takes.
#include <gtest/gtest.h>

#include <string>

#include <exactdp/laws/c_interface_laws.h>
#include <exactdp/laws/registry.h>

namespace exactdp::laws {
namespace {

bool noise_parameter_of(const CInterfaceLaw& c) {
  const Law* law = find_law(c.law);
  if (law == nullptr) return false;
  for (const auto& p : law->parameters()) {
    if (p.name == c.noise) return p.role == Role::kNoise;
  }
  return false;
}

TEST(CInterfaceLaws, EachIsARegistryLawWithThatNoiseParameter) {
  for (const CInterfaceLaw& c : {kCDiscreteGaussian, kCDiscreteLaplace, kCBernoulliExp}) {
    EXPECT_TRUE(noise_parameter_of(c)) << c.law << " " << c.noise;
  }
  EXPECT_TRUE(find_law(kCDiscreteGaussian.law)->supports(Capability::kHardened));
  EXPECT_TRUE(find_law(kCDiscreteLaplace.law)->supports(Capability::kHardened));
}

}  // namespace
}  // namespace exactdp::laws
