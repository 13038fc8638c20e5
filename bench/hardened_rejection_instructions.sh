#!/usr/bin/env bash
# bench/hardened_rejection_instructions.sh — instructions a draw of the hardened rejection method's
# batch (docs/HARDENED.md, "The rejection method"), counted by valgrind's callgrind: the inclusive
# instruction count of draw_hardened_rejection_n over the benchmark's batches, divided by its
# number of calls times 256 (draws a call). Independent of the machine's load, unlike times.
#
# Usage: bench/hardened_rejection_instructions.sh [HARDENED_BENCH] [SIGMA2_INDEX] [PATH]
#   HARDENED_BENCH  default build-bench/bench/hardened_bench (a -DEXACTDP_BUILD_BENCH=ON build)
#   SIGMA2_INDEX    kSigma2 index in bench/hardened_bench.cc (default 6: sigma2 = 2^40, grid noise
#                   at sigma/g = 2^20; 5: 2^36)
#   PATH            optional: BatchPaths' path argument instead of the default batch (1: the AVX2
#                   group, 2: the portable group; valgrind has no AVX-512, so the default batch runs
#                   the AVX2 group where valgrind reports AVX2)
# Prints: instructions, calls, draws and instructions a draw. Needs valgrind (scripts/setup).
# EXACTDP_CALLGRIND_OUT=FILE keeps the profile in FILE: `callgrind_annotate FILE` then gives each
# function's instructions, which divided by the printed draws is its share a draw.
set -euo pipefail
bench=${1:-build-bench/bench/hardened_bench}
index=${2:-6}
if [[ -n "${EXACTDP_CALLGRIND_OUT:-}" ]]; then
  out=$EXACTDP_CALLGRIND_OUT
else
  out=$(mktemp /tmp/exactdp-callgrind.XXXXXX)
  trap 'rm -f "$out"' EXIT
fi
filter="BM_HardenedDiscreteGaussianRejectionBatch/sigma2_index:${index}\$"
if [[ -n "${3:-}" ]]; then filter="BM_HardenedRejectionBatchPaths/sigma2_index:${index}/path:${3}\$"; fi
valgrind --tool=callgrind --callgrind-out-file="$out" "$bench" --benchmark_filter="$filter" \
  --benchmark_min_time=0.05 >/dev/null 2>&1
line=$(callgrind_annotate --inclusive=yes --tree=caller "$out" 2>/dev/null |
  grep -B1 '\* .*draw_hardened_rejection_n' | head -1)
instructions=$(awk '{gsub(",", "", $1); print $1}' <<<"$line")
calls=$(grep -o '([0-9,]*x)' <<<"$line" | tr -d '(x),')  # callgrind writes 1,205x for 1205 calls
if [[ -z "$instructions" || -z "$calls" ]]; then
  echo "hardened_rejection_instructions: no draw_hardened_rejection_n in the profile" >&2
  exit 1
fi
draws=$((calls * 256))
echo "instructions=$instructions calls=$calls draws=$draws instructions_per_draw=$((instructions / draws))"
