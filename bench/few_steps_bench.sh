#!/usr/bin/env bash
# bench/few_steps_bench.sh [--replace-one] NEW_CLI [OLD_CLI] — a few Poisson-subsampled Gaussian
# steps (q = 0.01) through the exact route's wide-mass pld (NEW_CLI --route exact) and, when
# OLD_CLI is given, the pld route as it answered before (OLD_CLI --route pld, the route auto
# picked there). Add/remove: k = 2, 3, 5, 10, 32; sigma 0.8 at eps 4, sigma 2 at eps 1/2; epsilon
# at delta 1e-5 and 1e-10. --replace-one: k = 2, 4, 8, 32; sigma 0.8 and 2, each at eps 4 and
# 1/2 and at delta 1e-5, under --neighbouring replace-one. Prints a markdown table: bracket,
# relative width, user+system CPU seconds and peak RSS (GNU time).
set -euo pipefail
relation=add-remove
if [[ ${1:-} == --replace-one ]]; then
  relation=replace-one
  shift
fi
new=${1:?usage: bench/few_steps_bench.sh [--replace-one] NEW_CLI [OLD_CLI]}
old=${2:-}
run() {  # run CLI ROUTE ARGS... -> "bracket|width|seconds|MB"
  local cli=$1 route=$2; shift 2
  local out t
  t=$(mktemp)
  out=$(/usr/bin/time -f "%U %S %M" -o "$t" "$cli" compose "$@" --route "$route" --neighbouring "$relation" --json)
  python3 - "$out" "$t" <<'PY'
import json, sys
from decimal import Decimal
d = json.loads(sys.argv[1])
q = "delta" if "epsilon" in d and isinstance(d["epsilon"], str) else "epsilon"
v = d[q]
lo, hi = Decimal(v["lower"]), Decimal(v["upper"])
u, s, m = open(sys.argv[2]).read().split()
w = (hi - lo) / hi if hi else Decimal(0)
print(f"[{lo:.5g}, {hi:.5g}]|{w:.2e}|{float(u) + float(s):.2f}|{int(m) // 1024}")
PY
  rm -f "$t"
}
echo "| case | k | before (pld) | width | s | MB | now (exact) | width | s | MB |"
echo "|---|---|---|---|---|---|---|---|---|---|"
if [[ $relation == replace-one ]]; then
  counts=(2 4 8 32)
  cases=("sigma=0.8 --epsilon 4" "sigma=0.8 --epsilon 1/2" "sigma=0.8 --delta 1e-5" "sigma=2 --epsilon 4"
         "sigma=2 --epsilon 1/2" "sigma=2 --delta 1e-5")
else
  counts=(2 3 5 10 32)
  cases=("sigma=0.8 --epsilon 4" "sigma=2 --epsilon 1/2" "sigma=0.8 --delta 1e-5" "sigma=0.8 --delta 1e-10"
         "sigma=2 --delta 1e-5" "sigma=2 --delta 1e-10")
fi
for k in "${counts[@]}"; do
  for c in "${cases[@]}"; do
    read -r s rest <<<"$c"
    args=(--event "poisson-gaussian:$s,q=1/100" --count "$k" $rest)
    b="-|-|-|-"
    [[ -n "$old" ]] && b=$(run "$old" pld "${args[@]}")
    a=$(run "$new" exact "${args[@]}")
    echo "| $s $rest | $k | ${b//|/ | } | ${a//|/ | } |"
  done
done
