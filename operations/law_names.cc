#include <exactdp/operations/law_names.h>

#include <exactdp/laws/registry.h>

namespace exactdp::operations {

std::string join_with_and(const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    out += (i == 0 ? "" : (i + 1 == names.size() ? " and " : ", ")) + names[i];
  }
  return out;
}

std::string law_names_and(laws::Capability c) {
  std::vector<std::string> names;
  for (const laws::Law* law : laws::all_laws()) {
    if (law->supports(c)) names.push_back(law->name());
  }
  return join_with_and(names);
}

}  // namespace exactdp::operations
