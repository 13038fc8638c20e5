#include <exactdp/laws/registry.h>

#include <exactdp/laws/bernoulli_exp/bernoulli_exp_law.h>
#include <exactdp/laws/continuous/privacy_laws.h>
#include <exactdp/laws/discrete_gaussian/discrete_gaussian_law.h>
#include <exactdp/laws/discrete_laplace/discrete_laplace_law.h>
#include <exactdp/laws/distributed_discrete_gaussian/ddg_law.h>
#include <exactdp/laws/skellam/skellam_law.h>
#include <exactdp/laws/staircase/staircase_law.h>
#include <exactdp/laws/vector_grid/vector_grid_law.h>
#include <exactdp/core/rational.h>

namespace exactdp::laws {

const std::vector<const Law*>& all_laws() {
  static const std::vector<const Law*> laws = {
      &discrete_gaussian_law(), &discrete_laplace_law(), &bernoulli_exp_law(), &staircase_law(),
      &gaussian_law(),          &laplace_law(),          &gdp_law(),           &pure_dp_law(),
      &zcdp_law(),
      &vector_discrete_gaussian_law(), &vector_discrete_laplace_law(), &skellam_law(), &distributed_discrete_gaussian_law(),
  };
  return laws;
}

const Law* find_law(std::string_view name) {
  for (const Law* law : all_laws()) {
    if (law->name() == name) return law;
  }
  return nullptr;
}

std::string law_names_with(Capability c) {
  std::string out;
  for (const Law* law : all_laws()) {
    if (law->supports(c)) out += (out.empty() ? "" : ", ") + law->name();
  }
  return out;
}

const Law& law_named(std::string_view name) {
  const Law* law = find_law(name);
  if (law == nullptr) {
    std::string all;
    for (const Law* l : all_laws()) all += (all.empty() ? "" : ", ") + l->name();
    throw ParameterError("law", "unknown law '" + abbreviate(name) + "': allowed " + all);
  }
  return *law;
}

}  // namespace exactdp::laws
