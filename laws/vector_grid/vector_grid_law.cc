#include <exactdp/laws/vector_grid/vector_grid_law.h>

#include <exactdp/accounting/grid_noise.h>
#include <exactdp/core/rational.h>
#include <exactdp/laws/vector_grid/vector_grid_privacy.h>

namespace exactdp::laws {
namespace {

constexpr const char* kGranularityRange = "granularity = 2^k for an integer k, -1074 <= k <= 1023";

bool is_power_of_two(const mpz_class& n) { return sgn(n) > 0 && mpz_popcount(n.get_mpz_t()) == 1; }

// Whether g = 2^k for an integer k with -1074 <= k <= 1023.
bool granularity_ok(const mpq_class& g) {
  if (g.get_num() == 1 && is_power_of_two(g.get_den())) return mpz_sizeinbase(g.get_den_mpz_t(), 2) <= 1075;
  if (g.get_den() == 1 && is_power_of_two(g.get_num())) return mpz_sizeinbase(g.get_num_mpz_t(), 2) <= 1024;
  return false;
}

void require_in(const LawParameters& p, const char* name, const mpq_class& high, const char* range) {
  const mpq_class& v = p.rational(name);
  if (sgn(v) <= 0 || v > high) throw ParameterError::out_of_range(name, abbreviate(to_string(v)), range);
}

class VectorGridLaw final : public Law {
 public:
  using Factory = std::shared_ptr<const accounting::LawPrivacy> (*)(GridParameters);
  using Check = void (*)(const GridParameters&);  // checks involving several parameters
  VectorGridLaw(std::string name, std::string summary, const char* noise, const char* noise_help,
                const char* norm, Factory factory, Check check)
      : Law(std::move(name), std::move(summary),
            {{noise, ValueKind::kRational, Role::kNoise, std::nullopt, std::string("0 < ") + noise + " <= 10^9",
              noise_help},
             {"dim", ValueKind::kInteger, Role::kNoise, std::nullopt, "1 <= dim <= 10^12",
              "the number of coordinates noised"},
             {"granularity", ValueKind::kRational, Role::kNoise, std::nullopt, kGranularityRange,
              "the grid g: coordinates are rounded to multiples of g"},
             {"sensitivity", ValueKind::kRational, Role::kPrivacy, "1", "0 < sensitivity <= 10^9",
              std::string("the ") + norm + " sensitivity of the real query before rounding"}},
            Capability::kProfile | Capability::kEvent | Capability::kSubsample),
        noise_(noise), factory_(factory), check_(check) {}

  accounting::PrivacyEvent privacy_event(const LawParameters& p) const override {
    return accounting::PrivacyEvent::of_law(factory_(grid(p)));
  }

 protected:
  void validate(LawParameters& p, Use /*use*/) const override {
    require_in(p, noise_, mpq_class(1'000'000'000), (std::string("0 < ") + noise_ + " <= 10^9").c_str());
    const mpz_class dim = p.integer("dim");
    if (dim < 1 || dim > mpz_class("1000000000000")) {
      throw ParameterError::out_of_range("dim", abbreviate(dim.get_str()), "1 <= dim <= 10^12");
    }
    if (!granularity_ok(p.rational("granularity"))) {
      throw ParameterError::out_of_range("granularity", abbreviate(to_string(p.rational("granularity"))),
                                         kGranularityRange);
    }
    if (p.has("sensitivity")) require_in(p, "sensitivity", mpq_class(1'000'000'000), "0 < sensitivity <= 10^9");
    check_(grid(p));
  }

 private:
  GridParameters grid(const LawParameters& p) const {
    return {p.rational(noise_), p.has("sensitivity") ? p.rational("sensitivity") : mpq_class(1), p.integer("dim"),
            p.rational("granularity")};
  }

  const char* noise_;
  Factory factory_;
  Check check_;
};

// (sigma/g)^2 >= 10^-6 D2 (as the discrete Gaussian's sigma2 / sensitivity^2 >= 10^-6): below, rho
// exceeds 5 * 10^5 and no route converts it.
void check_gaussian(const GridParameters& g) {
  const mpz_class d2 = accounting::grid_l2_sensitivity_squared(g.sensitivity, g.granularity, g.dim);
  const mpq_class sigma_int = g.noise / g.granularity;
  if (sigma_int * sigma_int * 1'000'000 < d2) {
    throw ParameterError::out_of_range(
        "sigma", abbreviate(to_string(g.noise)),
        "(sigma/granularity)^2 >= 10^-6 D2, D2 = " + abbreviate(d2.get_str()) +
            " the squared L2 sensitivity of the rounded query (docs/REAL_VALUED_ACCOUNTING.md)");
  }
}

// eps0 = L1 g / scale <= 10^6 (the accounting routes' range for a pure epsilon).
void check_laplace(const GridParameters& g) {
  const mpz_class l1 = accounting::grid_l1_sensitivity(g.sensitivity, g.granularity, g.dim);
  if (mpq_class(l1) * g.granularity > g.noise * 1'000'000) {
    throw ParameterError::out_of_range(
        "scale", abbreviate(to_string(g.noise)),
        "L1 granularity / scale <= 10^6 (the pure epsilon), L1 = " + abbreviate(l1.get_str()) +
            " the L1 sensitivity of the rounded query (docs/REAL_VALUED_ACCOUNTING.md)");
  }
}

}  // namespace

const Law& vector_discrete_gaussian_law() {
  static const VectorGridLaw law(
      "vector-discrete-gaussian",
      "real vectors rounded to the grid g plus discrete Gaussian N_Z(0, (sigma/g)^2) noise per coordinate "
      "(accounting only)",
      "sigma", "the noise's standard-deviation parameter, in output units", "L2",
      [](GridParameters g) -> std::shared_ptr<const accounting::LawPrivacy> {
        return std::make_shared<VectorDiscreteGaussianPrivacy>(std::move(g));
      },
      check_gaussian);
  return law;
}

const Law& vector_discrete_laplace_law() {
  static const VectorGridLaw law(
      "vector-discrete-laplace",
      "real vectors rounded to the grid g plus discrete Laplace noise of scale scale/g per coordinate "
      "(accounting only)",
      "scale", "the noise's scale, in output units", "L1",
      [](GridParameters g) -> std::shared_ptr<const accounting::LawPrivacy> {
        return std::make_shared<VectorDiscreteLaplacePrivacy>(std::move(g));
      },
      check_laplace);
  return law;
}

}  // namespace exactdp::laws
