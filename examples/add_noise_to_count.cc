// add_noise_to_count — the smallest complete use of exactdp: add exact discrete Gaussian noise
// to an integer count. Build: part of the default build (build/examples/add_noise_to_count).
//   ./add_noise_to_count 1234 9/4
#include <iostream>
#include <string>

#include <exactdp/samplers/discrete_gaussian.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/samplers/system_bits.h>

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: add_noise_to_count COUNT SIGMA2\n";
    return 2;
  }
  try {
    const mpz_class count = exactdp::parse_integer("count", argv[1]);
    // Parameters are validated here, before any randomness is drawn.
    const auto params = exactdp::DiscreteGaussianParams::make(exactdp::parse_rational("sigma2", argv[2]), count);
    exactdp::SystemBits bits;  // the OS CSPRNG; one per thread
    std::cout << exactdp::sample_discrete_gaussian(bits, params) << "\n";
    return 0;
  } catch (const exactdp::ParameterError& e) {
    std::cerr << "add_noise_to_count: " << e.what() << "\n";
    return 2;
  }
}
