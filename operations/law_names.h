// law_names.h — the registry's laws named in the operations' messages (laws/registry.h): the
// laws with a capability as "a, b and c", never a list kept outside laws/.
//
// Example:
//   "--hardened applies to " + law_names_and(laws::Capability::kHardened) + ", not " + name
#pragma once

#include <string>
#include <vector>

#include <exactdp/laws/law.h>

namespace exactdp::operations {

// "a, b and c" ("a" alone, "a and b").
[[nodiscard]] std::string join_with_and(const std::vector<std::string>& names);

// The laws with capability c, in registry order, as "a, b and c".
[[nodiscard]] std::string law_names_and(laws::Capability c);

}  // namespace exactdp::operations
