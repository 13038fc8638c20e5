// mechanisms.h — the mechanisms the accounting operations describe (profile, measure-gdp,
// calibrate): ONE table of the registry laws each operation offers, with their parameters, and
// pure-dp-composition, which is no law. A face gives a mechanism's parameters as (name, text)
// pairs; the row checks them and builds the validated MechanismSpec, with the face's spelling in
// its messages (operations/spelling.h: "missing required option --sigma (see --help)" or
// "missing required argument sigma").
//
// Errors: ParameterError naming the parameter for a missing or bad value, or a parameter of
// another of the operation's mechanisms; UnsupportedError (naming "hardened") for --hardened on
// a law without a hardened sampler.
//
// Example:
//   const MechanismRow* row = find_mechanism(MechanismCommand::kProfile, "gaussian");
//   const MechanismSpec m = row->build({{"sigma", "2"}}, kPythonSpelling);   // m.delta(eps, o)
#pragma once

#include <gmpxx.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <exactdp/accounting/gdp_transformation.h>
#include <exactdp/accounting/law_privacy.h>
#include <exactdp/accounting/ziv.h>
#include <exactdp/operations/spelling.h>

namespace exactdp::operations {

// The operations that describe mechanisms; each row says which offer it.
enum class MechanismCommand { kProfile, kMeasureGdp, kCalibrate };

enum class SensitivityKind { kNone, kReal, kInteger };

// A mechanism's parameters as a face gives them: (name, exact text), in the face's order.
using GivenParameters = std::vector<std::pair<std::string, std::string>>;

// A validated mechanism.
struct MechanismSpec {
  std::string name;  // "gaussian", "discrete-laplace", ...
  // The parameters as given, for the output: {"sigma", "3/2"}, {"sensitivity", "1"}.
  std::vector<std::pair<std::string, std::string>> parameters;
  // The noise parameter (sigma, scale, sigma2, mu or epsilon) and the sensitivity (1 when the
  // mechanism has none); k for pure-dp-composition.
  std::string noise_name;
  mpq_class noise;
  mpq_class sensitivity = 1;
  bool sensitivity_given = false;
  unsigned long k = 1;
  // The certified profile delta(eps) at a working precision, and to a tolerance.
  accounting::ProfileFunction delta_at;
  std::function<accounting::Certified(const mpq_class&, const accounting::ZivOptions&)> delta;
  // delta(eps) = 0 for eps >= this (pure DP kinds).
  std::optional<mpq_class> pure_epsilon;
  // The law's privacy maps (accounting/law_privacy.h; null for pure-dp-composition).
  std::shared_ptr<const accounting::LawPrivacy> maps;
  // With hardened noise (with_hardened_noise): the sampler's certified TV bound tau, already
  // charged in delta_at and delta.
  std::optional<mpq_class> hardened_tau;

  // "name(noise=N, sensitivity=S)" or "gdp(mu=M)": how outputs and plot titles name it.
  [[nodiscard]] std::string describe() const;
};

struct MechanismRow {
  std::string name;
  std::vector<std::string> parameters;  // the parameters it takes, noise parameter first
  SensitivityKind sensitivity;
  std::vector<MechanismCommand> commands;
  std::string help;  // "--sigma R  [--sensitivity R]", for the commands' --help
  // Checks every required parameter is given (in the row's order) and its value, then builds.
  std::function<MechanismSpec(const GivenParameters&, const Spelling&)> build;
};

// The table, in help order.
[[nodiscard]] const std::vector<MechanismRow>& mechanism_table();

// The mechanism names `command` offers, in help order.
[[nodiscard]] std::vector<std::string> mechanism_names(MechanismCommand command);

// The same names as "a, b, c", for messages.
[[nodiscard]] std::string mechanism_list(MechanismCommand command);

// Every parameter of the rows `command` offers, each once, in table order.
[[nodiscard]] std::vector<std::string> mechanism_parameters(MechanismCommand command);

// The row of `name` if `command` offers it, else nullptr.
[[nodiscard]] const MechanismRow* find_mechanism(MechanismCommand command, const std::string& name);

// The first given parameter that `row` does not take, if any (for the operation's message).
[[nodiscard]] std::optional<std::string> foreign_parameter(const MechanismRow& row, const GivenParameters& given);

// The same mechanism with the noise of the hardened (isochronous) sampler of its law
// (samplers/hardening.h): delta(eps) becomes delta(eps) + (1 + e^eps) tau with tau the sampler's
// certified tau_upper() (accounting/hardened_charge.h), and the parameters name tau_bits.
// discrete-gaussian and discrete-laplace only (UnsupportedError naming "hardened" otherwise);
// ParameterError naming the noise parameter outside the hardened range (never a fallback).
[[nodiscard]] MechanismSpec with_hardened_noise(MechanismSpec m, unsigned tau_bits, const Spelling& spelling);

// tau_bits from its text, kMinTauBits..kMaxTauBits (samplers/hardening.h), else ParameterError
// naming it as the face spells it (tau-bits on the command line); for profile and sample alike.
[[nodiscard]] unsigned checked_tau_bits(const std::string& text, const Spelling& spelling);

}  // namespace exactdp::operations
