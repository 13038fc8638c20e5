// core/cpu_level.h — the highest instruction-set level the run-time dispatchers may use (not
// installed). Every vector path of exactdp (the ChaCha20 keystream, the hardened rejection
// method's group kernels and exponential, the grid mapping) is chosen once per process from the
// CPU; this caps that choice. The paths compute the same values and read the same bits, so the cap
// changes speed only: it exists so that one machine can run, test and time what a CPU without
// AVX-512 (or without AVX2) runs.
//
// The cap comes from the environment variable EXACTDP_CPU_LEVEL, read once:
//   native (or unset, or empty)  what the CPU has
//   avx512ifma                   the same as native on every CPU exactdp knows
//   avx512                       AVX-512F, no IFMA (the exponential and group kernels of an AVX2 CPU)
//   avx2                         AVX2 and BMI2, no AVX-512
//   baseline                     no AVX2 (SSE2 x86-64, or any other CPU)
// Code compiled as target_clones (the threshold scans, the x86-64-v3 copy of the 64-bit product
// code) is chosen by the dynamic loader from the CPU alone and does not follow the cap.
// Any other value: cpu_level_setting_problem() says so (the command line and the Python module
// refuse to start), and the dispatchers use the CPU's own level.
#pragma once

#include <optional>
#include <string>

namespace exactdp {

enum class CpuLevel : unsigned char { kBaseline = 0, kAvx2 = 1, kAvx512 = 2, kAvx512Ifma = 3 };

// True when the dispatchers may use `level`'s paths: EXACTDP_CPU_LEVEL's cap is at or above it.
// Each dispatcher still checks that the CPU has the instructions. Read once, thread-safe.
[[nodiscard]] bool cpu_level_allows(CpuLevel level) noexcept;

// The cap as its name ("native", "avx512ifma", "avx512", "avx2" or "baseline").
[[nodiscard]] const char* cpu_level_cap_name() noexcept;

// A message naming EXACTDP_CPU_LEVEL and its allowed values when it holds anything else.
[[nodiscard]] std::optional<std::string> cpu_level_setting_problem();

// The level a setting names (nullopt for an unknown one; "native" and "" give kAvx512Ifma).
[[nodiscard]] std::optional<CpuLevel> parse_cpu_level(const std::string& text) noexcept;

}  // namespace exactdp
