// core/cpu_level.cc — EXACTDP_CPU_LEVEL (cpu_level.h).
#include <exactdp/core/cpu_level.h>

#include <cstdlib>

namespace exactdp {
namespace {

struct Setting {
  CpuLevel cap = CpuLevel::kAvx512Ifma;
  const char* name = "native";
  bool valid = true;
  std::string text;
};

const Setting& setting() noexcept {
  static const Setting s = [] {
    Setting out;
    const char* env = std::getenv("EXACTDP_CPU_LEVEL");
    if (env == nullptr) return out;
    out.text = env;
    const std::optional<CpuLevel> level = parse_cpu_level(out.text);
    if (!level) {
      out.valid = false;
      return out;
    }
    out.cap = *level;
    static const char* const kNames[] = {"baseline", "avx2", "avx512", "avx512ifma"};
    out.name = out.text.empty() || out.text == "native" ? "native" : kNames[static_cast<unsigned>(*level)];
    return out;
  }();
  return s;
}

}  // namespace

std::optional<CpuLevel> parse_cpu_level(const std::string& text) noexcept {
  if (text.empty() || text == "native" || text == "avx512ifma") return CpuLevel::kAvx512Ifma;
  if (text == "avx512") return CpuLevel::kAvx512;
  if (text == "avx2") return CpuLevel::kAvx2;
  if (text == "baseline") return CpuLevel::kBaseline;
  return std::nullopt;
}

bool cpu_level_allows(CpuLevel level) noexcept {
  return static_cast<unsigned>(level) <= static_cast<unsigned>(setting().cap);
}

const char* cpu_level_cap_name() noexcept { return setting().name; }

std::optional<std::string> cpu_level_setting_problem() {
  const Setting& s = setting();
  if (s.valid) return std::nullopt;
  return "EXACTDP_CPU_LEVEL is '" + s.text +
         "'; allowed: native, avx512ifma, avx512, avx2, baseline (or unset: native)";
}

}  // namespace exactdp
