// consumer.cc — a C++20 program built against an INSTALLED exactdp only, through
// find_package(exactdp) and exactdp::exactdp (tests/install/consumer_test.sh), using the C++
// facade: a seeded discrete Gaussian draw reproduced exactly, a certified privacy profile from
// the law registry and the same through the operation `profile` (<exactdp/operations.h>), and a
// ParameterError thrown by the static library and caught here, naming
// the parameter. Exit 0 when all hold.
#include <exactdp/bits.h>
#include <exactdp/core/decimal.h>
#include <exactdp/core/errors.h>
#include <exactdp/laws.h>
#include <exactdp/operations.h>
#include <exactdp/sampler.h>

#include <mpfr.h>

#include <iostream>

int main() {
  const char* seed = "0700000000000000000000000000000000000000000000000000000000000000";
  const auto sampler = exactdp::Sampler::make("discrete-gaussian", {{"sigma2", "9/4"}});
  exactdp::Bits bits1 = exactdp::Bits::seeded(seed), bits2 = exactdp::Bits::seeded(seed);
  const mpz_class a = sampler.draw(bits1);
  const mpz_class b = sampler.draw(bits2);
  if (a != b || bits1.consumed() != bits2.consumed()) {
    std::cerr << "consumer_cxx: the same seed gave different draws\n";
    return 1;
  }
  const exactdp::Interval delta =
      exactdp::law_delta("discrete-gaussian", {{"sigma2", "14"}, {"sensitivity", "1"}}, mpq_class(1));
  const exactdp::ProfileReport report = exactdp::profile(
      {.law = "discrete-gaussian", .parameters = {{"sigma2", "14"}, {"sensitivity", "1"}}, .epsilons = {"1"}});
  if (report.rows.size() != 1 || mpfr_equal_p(report.rows[0].delta.upper(), delta.upper()) == 0) {
    std::cerr << "consumer_cxx: the operation profile and law_delta disagree\n";
    return 1;
  }
  try {
    (void)exactdp::Sampler::make("discrete-gaussian", {{"sigma2", "-1"}});
    std::cerr << "consumer_cxx: sigma2 = -1 was not refused\n";
    return 1;
  } catch (const exactdp::ParameterError& e) {
    if (e.parameter() != "sigma2") {
      std::cerr << "consumer_cxx: the refusal names '" << e.parameter() << "', not sigma2\n";
      return 1;
    }
    std::cout << "consumer_cxx: refused as expected: " << e.what() << "\n";
  }
  std::cout << "consumer_cxx: " << sampler.describe() << ": draw " << a << "; delta(1) of sigma2 = 14 in "
            << exactdp::to_decimal_string(delta, 6) << "\n";
  return 0;
}
