#include <exactdp/operations/profile.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <optional>

#include <exactdp/accounting/parameter_checks.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/laws/registry.h>
#include <exactdp/laws/skellam/skellam_privacy.h>
#include <exactdp/operations/tolerance.h>
#include <exactdp/samplers/hardening.h>

namespace exactdp::operations {
namespace {

// The command line names the command and the mechanisms it offers; Python, whose law is known to
// the registry, the capability it lacks.
[[noreturn]] void refuse_mechanism(const ProfileRequest& r) {
  if (r.spelling.prefix.empty()) {
    throw laws::UnsupportedError("law", "law = " + abbreviate(r.mechanism) + " has no certified profile: allowed " +
                                            laws::law_names_with(laws::Capability::kProfile));
  }
  throw laws::UnsupportedError("law", "profile: unknown mechanism '" + abbreviate(r.mechanism) +
                                          "' (allowed: " + mechanism_list(MechanismCommand::kProfile) + ")");
}

}  // namespace

ProfilePlan plan_profile(const ProfileRequest& request) {
  const Spelling& s = request.spelling;
  if (request.tau_bits && !request.hardened) {
    throw ParameterError("tau_bits", s.name("tau_bits") + " applies only with " + s.flag("hardened"));
  }
  const MechanismRow* row = find_mechanism(MechanismCommand::kProfile, request.mechanism);
  if (row == nullptr) refuse_mechanism(request);
  if (const auto foreign = foreign_parameter(*row, request.parameters)) {
    throw ParameterError(*foreign, "profile " + request.mechanism + " takes no " + s.name(*foreign) + s.see_help);
  }
  if (!request.hardened) return {row->build(request.parameters, s)};
  const unsigned tau_bits = request.tau_bits ? checked_tau_bits(*request.tau_bits, s) : kDefaultTauBits;
  return {with_hardened_noise(row->build(request.parameters, s), tau_bits, s)};
}

accounting::ZivOptions profile_options(const ProfileRequest& request) {
  std::optional<mpq_class> tolerance;
  if (request.tolerance) tolerance = parse_rational("tolerance", *request.tolerance);
  return checked_ziv_options(tolerance, TinyTolerance::kOutOfRange);
}

mpq_class checked_epsilon(const std::string& text) {
  const mpq_class e = parse_rational("epsilon", text);
  accounting::require_nonnegative("epsilon", e);
  return e;
}

std::vector<mpq_class> checked_epsilons(const MechanismSpec& mechanism, const std::vector<std::string>& texts) {
  if (texts.empty()) throw ParameterError("epsilons", "epsilons: give at least one epsilon");
  std::vector<mpq_class> out;
  for (const std::string& text : texts) out.push_back(checked_epsilon(text));
  if (out.size() > 1) (void)checked_curve_points(mechanism, std::to_string(out.size()));
  return out;
}

namespace {

// The exact Skellam profile (mu <= 10^6, laws/skellam/skellam_privacy.h) sums its mass table at
// every point, at each precision of the Ziv loop: about 1 ms + 0.4 ms sqrt(mu) + 4 us mu a point
// (measured: 1 ms at mu = 1, 13 ms at 10^3, 0.5 s at 10^5, 3.9 s at 10^6; a 10,000-point curve at
// mu = 100 took 50 s). Its curves get the points that fit in 8 s, at least 2.
std::optional<long> exact_skellam_curve_points(const MechanismSpec& m) {
  const auto* skellam = dynamic_cast<const laws::SkellamPrivacy*>(m.maps.get());
  if (skellam == nullptr || !skellam->exact_profile()) return std::nullopt;
  const double mu = m.noise.get_d();
  const double seconds_a_point = 1e-3 + 4e-4 * std::sqrt(mu) + 4e-6 * mu;
  return std::clamp(static_cast<long>(8.0 / seconds_a_point), 2L, kMaxProfilePoints);
}

}  // namespace

// Each point costs time linear in the size of the mechanism's numbers (about 1.2 ms a point at
// sigma2 = 10^100000, 332,000 bits, for the discrete Gaussian).
long max_curve_points(const MechanismSpec& m) {
  if (const auto skellam = exact_skellam_curve_points(m)) return *skellam;
  const std::size_t bits = mpz_sizeinbase(m.noise.get_num_mpz_t(), 2) + mpz_sizeinbase(m.noise.get_den_mpz_t(), 2) +
                           mpz_sizeinbase(m.sensitivity.get_num_mpz_t(), 2) +
                           mpz_sizeinbase(m.sensitivity.get_den_mpz_t(), 2);
  constexpr std::size_t kFreeBits = std::size_t{1} << 16;
  if (bits <= kFreeBits) return kMaxProfilePoints;
  return std::max<long>(2, static_cast<long>(static_cast<std::size_t>(kMaxProfilePoints) * kFreeBits / bits));
}

long checked_curve_points(const MechanismSpec& m, const std::string& text) {
  const mpz_class n = parse_integer("points", text);
  const long max_points = max_curve_points(m);
  if (n < 2 || n > max_points) {
    std::string range = "2 <= POINTS <= " + std::to_string(max_points);
    if (max_points < kMaxProfilePoints) {
      range += exact_skellam_curve_points(m) ? " for skellam's exact profile at this mu (its cost grows with mu)"
                                             : " for parameters of this size (10,000 up to 2^16 bits)";
    }
    throw ParameterError::out_of_range("points", abbreviate(text), range);
  }
  return n.get_si();
}

void check_curve_range(const mpq_class& lo, const mpq_class& hi, const std::string& hi_text) {
  if (hi <= lo) {
    throw ParameterError::out_of_range("curve", abbreviate(hi_text),
                                       "EPS_MAX > EPS_MIN = " + abbreviate(to_string(lo)));
  }
}

}  // namespace exactdp::operations
