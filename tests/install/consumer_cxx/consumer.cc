// consumer.cc — a C++20 program built against an INSTALLED exactdp only, through
// find_package(exactdp) and exactdp::exactdp (tests/install/consumer_test.sh): a seeded discrete
// Gaussian draw reproduced exactly, a certified privacy profile, and a ParameterError thrown by
// the static library and caught here. Exit 0 when all hold.
#include <exactdp/core/decimal.h>
#include <exactdp/accounting/discrete_gaussian_profile.h>
#include <exactdp/samplers/discrete_gaussian.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/samplers/seeded_bits.h>

#include <iostream>

int main() {
  const exactdp::Seed seed{7};
  const auto params =
      exactdp::DiscreteGaussianParams::make(exactdp::parse_rational("sigma2", "9/4"));
  exactdp::SeededBits bits1(seed), bits2(seed);
  const mpz_class a = exactdp::sample_discrete_gaussian(bits1, params);
  const mpz_class b = exactdp::sample_discrete_gaussian(bits2, params);
  if (a != b) {
    std::cerr << "consumer_cxx: the same seed gave different draws\n";
    return 1;
  }
  const auto delta = exactdp::accounting::discrete_gaussian_delta(mpq_class(1), mpq_class(14), 1);
  try {
    (void)exactdp::DiscreteGaussianParams::make(mpq_class(-1));
    std::cerr << "consumer_cxx: sigma2 = -1 was not refused\n";
    return 1;
  } catch (const exactdp::ParameterError& e) {
    std::cout << "consumer_cxx: refused as expected: " << e.what() << "\n";
  }
  std::cout << "consumer_cxx: draw " << a << ", delta(1) of sigma2 = 14 in "
            << exactdp::to_decimal_string(delta.value, 6) << "\n";
  return 0;
}
