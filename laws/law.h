// law.h — a noise law as a type: laws::Law, one descriptor per law that carries everything an
// interface needs (its name, its parameter schema, its samplers, the exact reference law an
// audit compares with, and its privacy maps), so that the CLI, the C interface, Python, the audit
// and the accounting read one description instead of keeping their own lists. The registry
// (registry.h) lists the laws; docs/DESIGN.md ("Noise laws") explains how to add one.
//
// A law is described in three parts:
//   * the schema: its parameters (name, exact type, range, default, role), checked by parse(),
//     which throws ParameterError naming the parameter before anything is computed or drawn;
//   * what it supports (Capability): a sampler (plain; hardened where an isochronous sampler
//     exists), an audit reference law, a certified profile delta(eps), an accounting event, a
//     calibration map (noise_calibration.h);
//   * the factories: make_sampler(), reference_law(), privacy_event(), calibrate(), each refusing with
//     UnsupportedError (a ParameterError naming "law") when the law lacks the capability. An
//     interface never treats a law it cannot serve as another law.
//
// Parameters have a ROLE: kNoise parameters define the law (sigma2, scale, gamma, r); kSampling
// ones only shift samples (mean); kPrivacy ones only matter to the privacy maps (the sensitivity
// of the query the noise is added to). A law whose sensitivity is part of the noise itself (the
// staircase, built for one sensitivity) declares it kNoise. parse(given, use) accepts the
// parameters of the roles `use` allows and fills defaults.
//
// Thread-safety: Law objects are immutable singletons (registry.h); every method is const and
// may run concurrently. A Sampler is immutable after construction and may be shared between
// threads; a BitSource may not.
#pragma once

#include <gmpxx.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <exactdp/accounting/accountant.h>
#include <exactdp/samplers/bit_source.h>
#include <exactdp/core/errors.h>
#include <exactdp/samplers/hardening.h>
#include <exactdp/samplers/wide_value.h>
#include <exactdp/laws/noise_calibration.h>
#include <exactdp/verification/reference_law.h>

namespace exactdp::laws {

// A law the interface asked for lacks what it asked for (no sampler, no hardened sampler, no
// profile, ...): names "law".
class UnsupportedError : public ParameterError {
 public:
  using ParameterError::ParameterError;
};

enum class ValueKind { kRational, kInteger };

enum class Role {
  kNoise,     // defines the law (sigma2, scale, gamma, r; the staircase's sensitivity)
  kSampling,  // only shifts samples (mean)
  kPrivacy,   // only enters the privacy maps (the sensitivity of a profile or event)
};

// Which roles a use of the law accepts.
enum class Use {
  kSample,   // noise + sampling (exactdp sample, audit, the C and Python samplers)
  kPrivacy,  // noise + privacy (profile, compose --event)
  kCalibrate,  // privacy only: the noise parameter is what calibrate() computes
};

struct ParameterSpec {
  std::string name;                  // "sigma2"
  ValueKind kind = ValueKind::kRational;
  Role role = Role::kNoise;
  // Default value as text; nullopt: required; "": optional, computed by the law (validate()).
  std::optional<std::string> fallback;
  std::string range;                 // "sigma2 > 0" (in messages and `exactdp laws`)
  std::string help;                  // one line
};

enum class Capability : unsigned {
  kSample = 1U << 0,    // make_sampler without hardening
  kHardened = 1U << 1,  // make_sampler with hardening (an isochronous sampler)
  kAudit = 1U << 2,     // reference_law
  kProfile = 1U << 3,   // privacy_event(...) has a certified profile delta(eps)
  kEvent = 1U << 4,     // privacy_event(...) composes (compose --event, the accountants)
  kSubsample = 1U << 5, // the event may be Poisson-subsampled (poisson-<law>)
  kTiming = 1U << 6,    // timing_unit(): audit-timing classes its outputs
  kCalibrate = 1U << 7, // calibrate(): the noise parameter that meets a target (epsilon, delta)
};

// The composition theorem release (mechanisms/release, docs/RELEASE.md) uses for many cells of a
// law's noise: a fact about the law's shape that its privacy maps do not state.
enum class ReleaseRoute {
  kNone,
  kPureL1,  // privacy loss linear in the change, |v| / t (pure DP): release's pure-dp-l1 route
  kRenyi,   // (alpha v^2 / (2 sigma2))-Renyi DP per cell (zCDP across cells) and an exact one-cell
            // profile: release's zcdp and exact-profile routes
};

// One measured point of a law's draw cost: a draw at parameters of `digits` characters of exact
// text in all (LawParameters::as_text) takes `nanoseconds` of CPU (Law::draw_costs).
struct DrawCostPoint {
  std::uint64_t digits;
  std::uint64_t nanoseconds;
};

// The validated, exact parameters of a law, in schema order (defaults filled in).
class LawParameters {
 public:
  LawParameters() = default;
  // The value of a parameter of the schema (std::logic_error for a name not in it).
  [[nodiscard]] const mpq_class& rational(std::string_view name) const;
  // An integer parameter's value (its schema kind is kInteger).
  [[nodiscard]] mpz_class integer(std::string_view name) const;
  // True when the user gave it (not its default).
  [[nodiscard]] bool given(std::string_view name) const;
  [[nodiscard]] bool has(std::string_view name) const;
  // name=value pairs (values as exact text: "9/4", "0.25"), schema order.
  [[nodiscard]] std::vector<std::pair<std::string, std::string>> as_text() const;
  // "sigma2=9/4 mean=0".
  [[nodiscard]] std::string describe() const;

  void set(const std::string& name, mpq_class value, bool given);

 private:
  struct Entry {
    std::string name;
    mpq_class value;
    bool given = false;
  };
  [[nodiscard]] const Entry* find(std::string_view name) const;
  std::vector<Entry> entries_;
};

// A ready sampler of a law at validated parameters (plain or hardened).
class Sampler {
 public:
  virtual ~Sampler() = default;
  // One draw of the law (any size).
  virtual void sample(BitSource& bits, mpz_class& out) const = 0;
  // n draws into out, exactly the values and bits of n sample() calls; returns n, or the index
  // of the first draw that does not fit in int64 (that draw is spent; out[i..n) not written).
  virtual std::size_t sample_int64(BitSource& bits, std::int64_t* out, std::size_t n) const;
  // n draws, exactly the values and bits of n sample() calls; a value outside int64 goes to
  // `wide` with its index (out[i] = 0) and the batch goes on: no draw is spent or redrawn.
  virtual void sample_wide(BitSource& bits, std::int64_t* out, std::size_t n, std::vector<WideValue>& wide) const;

  // The hardened (isochronous) samplers: every draw reads bits_per_sample() bits and runs the
  // same instructions, whatever the value; their law is within total variation tau_upper() of
  // the exact law (samplers/hardening.h).
  [[nodiscard]] virtual bool hardened() const noexcept { return false; }
  // One isochronous draw; only when hardened() (std::logic_error otherwise, before any draw).
  [[nodiscard]] virtual std::int64_t sample_isochronous(BitSource& bits) const;
  [[nodiscard]] virtual const mpq_class& tau_upper() const;
  [[nodiscard]] virtual unsigned tau_bits() const;
  [[nodiscard]] virtual std::uint64_t bits_per_sample() const;

  // "discrete-gaussian sigma2=9/4 mean=0" (" hardened tau_bits=64" appended when hardened).
  [[nodiscard]] const std::string& describe() const noexcept { return description_; }

 protected:
  explicit Sampler(std::string description) : description_(std::move(description)) {}

 private:
  std::string description_;
};

// The unit of audit-timing's output classes (|x - mean| in units of it): its exact square and how
// the report names it, e.g. {sigma2, "sqrt(sigma2) = sqrt(9/4)"}.
struct TimingUnit {
  mpq_class square;
  std::string text;
};

class Law {
 public:
  virtual ~Law() = default;
  Law(const Law&) = delete;
  Law& operator=(const Law&) = delete;

  // The one spelling of the law everywhere: "discrete-gaussian".
  [[nodiscard]] const std::string& name() const noexcept { return name_; }
  [[nodiscard]] const std::string& summary() const noexcept { return summary_; }
  [[nodiscard]] const std::vector<ParameterSpec>& parameters() const noexcept { return parameters_; }
  [[nodiscard]] bool supports(Capability c) const noexcept { return (capabilities_ & static_cast<unsigned>(c)) != 0; }
  // "sample, hardened, audit, profile, event, poisson" for `exactdp laws`.
  [[nodiscard]] std::string capability_list() const;

  // Checks the names, parses the values exactly and checks every range; fills defaults.
  // ParameterError naming the parameter (an unknown name: naming it, with the allowed list).
  [[nodiscard]] LawParameters parse(const std::vector<std::pair<std::string, std::string>>& given, Use use) const;
  // The same from exact values (C++ and Python callers).
  [[nodiscard]] LawParameters parse_values(const std::vector<std::pair<std::string, mpq_class>>& given, Use use) const;

  // Plain sampler when hardening is nullopt, hardened otherwise (UnsupportedError when absent;
  // ParameterError when the parameters lie outside the hardened sampler's range: never a
  // silent fallback to the plain sampler).
  [[nodiscard]] virtual std::unique_ptr<Sampler> make_sampler(const LawParameters& p,
                                                              const std::optional<Hardening>& hardening) const;
  // The exact law a sample of make_sampler() is audited against (the hardened sampler is audited
  // against the EXACT law: its tau is what the audit may find).
  [[nodiscard]] virtual std::unique_ptr<verification::ReferenceLaw> reference_law(const LawParameters& p) const;
  // The accounting event of the law at these parameters (its privacy maps: profile, pure
  // epsilon, rho, RDP, PLD atoms, as accounting/accountant.h describes).
  [[nodiscard]] virtual accounting::PrivacyEvent privacy_event(const LawParameters& p) const;
  // The law's release route (kNone: release does not add this noise).
  [[nodiscard]] virtual ReleaseRoute release_route() const { return ReleaseRoute::kNone; }
  // The work of one sample in draws of the law's component sampler (the distributed discrete
  // Gaussian: one discrete Gaussian per surviving client); operations/draw_cost.h charges it.
  [[nodiscard]] virtual unsigned long long draws_per_sample(const LawParameters& /*p*/) const { return 1; }
  // The CPU time of one such draw by the commands that draw many (audit, audit-timing, release:
  // the value's handling included), at growing digits (bench/draw_cost_bench.py), rounded up;
  // operations/draw_cost.h interpolates them. Empty (the default): draw_cost.h's model for any law.
  [[nodiscard]] virtual std::span<const DrawCostPoint> draw_costs() const { return {}; }
  // audit-timing's class unit (nullopt: the law is not timing-audited).
  [[nodiscard]] virtual std::optional<TimingUnit> timing_unit(const LawParameters& p) const;
  // The calibration map (noise_calibration.h): the noise parameter, on the private side, that
  // makes the law (target.epsilon, target.delta)-DP for the privacy parameters p (parsed with
  // Use::kCalibrate: the sensitivity). check_calibration() runs the same parameter checks alone,
  // for callers that report a bad parameter before anything else. UnsupportedError without
  // Capability::kCalibrate.
  [[nodiscard]] virtual NoiseCalibration calibrate(const CalibrationTarget& target, const LawParameters& p) const;
  virtual void check_calibration(const CalibrationTarget& target, const LawParameters& p) const;

 protected:
  Law(std::string name, std::string summary, std::vector<ParameterSpec> parameters, unsigned capabilities)
      : name_(std::move(name)), summary_(std::move(summary)), parameters_(std::move(parameters)),
        capabilities_(capabilities) {}
  // Law-specific checks after the per-parameter ones (ranges that involve two parameters,
  // computed defaults such as the staircase's r). Default: none.
  virtual void validate(LawParameters& p, Use use) const;
  [[noreturn]] void unsupported(const std::string& what) const;

 private:
  [[nodiscard]] const ParameterSpec* spec_of(std::string_view name) const;
  std::string name_;
  std::string summary_;
  std::vector<ParameterSpec> parameters_;
  unsigned capabilities_;
};

// Bitwise or of capabilities, for law constructors.
[[nodiscard]] constexpr unsigned operator|(Capability a, Capability b) noexcept {
  return static_cast<unsigned>(a) | static_cast<unsigned>(b);
}
[[nodiscard]] constexpr unsigned operator|(unsigned a, Capability b) noexcept { return a | static_cast<unsigned>(b); }

}  // namespace exactdp::laws
