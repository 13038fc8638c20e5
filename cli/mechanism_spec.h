// mechanism_spec.h — "<mechanism> --noise R [--sensitivity R|INT] ..." on the command line,
// shared by the accounting commands (profile, measure-gdp, calibrate; later release) the way
// sampler_spec.h is shared by sample and audit: ONE table of mechanisms with their options,
// sensitivity kind and profile.
//
// A row names the mechanism, the options it takes, the commands that offer it, its help line
// and how it is built from parsed options (validated by the library's checks, before any
// computation). A per-mechanism flag (e.g. a future --hardened of the discrete mechanisms) is
// one more entry in the row's `options` and a read of it in the row's builder; the commands
// pick up the option spec from mechanism_option_specs().
//
// Errors: UsageError for an unknown mechanism, one the command does not offer, or an option that
// belongs to another mechanism; ParameterError (from accounting/parameter_checks.h) for a bad
// value, naming the parameter.
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
#include "cli/args.h"

namespace exactdp::cli {

// The commands that describe mechanisms; each row says which offer it.
enum class MechanismCommand { kProfile, kMeasureGdp, kCalibrate };

enum class SensitivityKind { kNone, kReal, kInteger };

// A validated mechanism from the command line.
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
  std::vector<std::string> options;  // the options it takes, noise parameter first
  SensitivityKind sensitivity;
  std::vector<MechanismCommand> commands;
  std::string help;  // "--sigma R  [--sensitivity R]", for the commands' --help
  std::function<MechanismSpec(const ParsedArgs&)> build;
};

// The table, in help order.
[[nodiscard]] const std::vector<MechanismRow>& mechanism_table();

// The mechanism names `command` offers, in help order.
[[nodiscard]] std::vector<std::string> mechanism_names(MechanismCommand command);

// The same names as "a, b, c", for messages.
[[nodiscard]] std::string mechanism_list(MechanismCommand command);

// Every option of the rows `command` offers, to merge into its specs.
[[nodiscard]] std::vector<OptionSpec> mechanism_option_specs(MechanismCommand command);

// The row of `name` if `command` offers it, else nullptr.
[[nodiscard]] const MechanismRow* find_mechanism(MechanismCommand command, const std::string& name);

// Rejects an option of another of the command's mechanisms given on the command line;
// `message(option)` is the command's wording of the UsageError.
void reject_foreign_options(MechanismCommand command, const MechanismRow& row, const ParsedArgs& parsed,
                            const std::function<std::string(const std::string&)>& message);

// The same mechanism with the noise of the hardened (isochronous) sampler of its law
// (samplers/hardening.h): delta(eps) becomes delta(eps) + (1 + e^eps) tau with tau the sampler's
// certified tau_upper() (accounting/hardened_charge.h), and the parameters name tau_bits and tau.
// discrete-gaussian and discrete-laplace only (UsageError otherwise); ParameterError naming the
// noise parameter outside the hardened range (never a silent fallback).
[[nodiscard]] MechanismSpec with_hardened_noise(MechanismSpec m, unsigned tau_bits);

}  // namespace exactdp::cli
