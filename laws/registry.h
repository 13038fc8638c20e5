// registry.h — the one list of noise laws (law.h). Every interface that names a law (the CLI's
// sample, audit, audit-timing, profile, compose --event and `exactdp laws`; the C interface's
// exactdp_sampler_new; Python's exactdp.laws) looks it up here, so adding a law is its folder
// under laws/, one line in registry.cc, its tests and its docs (docs/DESIGN.md, "Adding a law").
#pragma once

#include <string_view>
#include <vector>

#include <exactdp/laws/law.h>

namespace exactdp::laws {

// Every law, in the order `exactdp laws` lists them.
[[nodiscard]] const std::vector<const Law*>& all_laws();

// The law of that name, or nullptr.
[[nodiscard]] const Law* find_law(std::string_view name);

// The law of that name; ParameterError naming "law" (with the allowed names) otherwise.
[[nodiscard]] const Law& law_named(std::string_view name);

// "discrete-gaussian, discrete-laplace, ..." of the laws with capability c, for messages.
[[nodiscard]] std::string law_names_with(Capability c);

}  // namespace exactdp::laws
