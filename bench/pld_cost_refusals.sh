#!/bin/bash
# pld_cost_refusals.sh BINARY [OUTFILE] — times the cost-limit refusals of the pld route, the
# tolerance and the audit against an exactdp binary, each under `ulimit -t 60 -v 4000000`, one
# line per case: exit status, user+system CPU, peak memory and the first 160 characters of
# stderr. Each refusal comes from an estimate made before any discretisation, convolution, Ziv
# loop or draw, so it shows as rc=2 within milliseconds and a few MB; before the cost model these
# ran 40-60 s or past 1 GiB (SECURITY.md "Limits"). The last lines are requests just within the
# limits, to show what still answers and how long it takes. Not a test: no timing asserts.
set -u
B=${1:?usage: pld_cost_refusals.sh BINARY [OUTFILE]}
OUT=${2:-/dev/stdout}
L=$(mktemp -d)
trap 'rm -rf "$L"' EXIT
run() {  # label, args...
  local label=$1
  shift
  local res
  res=$(bash -c 'ulimit -t 60 -v 4000000; /usr/bin/time -f "%U+%S s %M KB" "$@" > '"$L"'/out 2> '"$L"'/err; echo "rc=$?"' _ "$B" "$@" 2>&1)
  local t msg
  t=$(tail -1 "$L/err")
  msg=$(grep -v " KB$" "$L/err" | head -c 160 | tr '\n' ' ')
  echo "$label | $res | $t | $msg" >> "$OUT"
}
PG=poisson-gaussian:sigma=1,q=0.01
run pld_step_fine compose --event $PG --count 1000 --delta 1e-5 --route pld --pld-step 1/10000000
run pld_step_1e5 compose --event $PG --count 1000 --delta 1e-5 --route pld --pld-step 1/100000
run pld_step_1 compose --event $PG --count 1000 --delta 1e-5 --route pld --pld-step 1
run pld_step_1_auto compose --event $PG --count 1000 --delta 1e-5 --pld-step 1
run pld_count_1e9 compose --event $PG --count 1000000000 --delta 1e-5 --route pld
run pdg_step_fine compose --event poisson-discrete-gaussian:sigma2=1,q=0.01 --count 1000 --delta 1e-5 --route pld --pld-step 1/10000000
run audit_dg_huge audit discrete-gaussian --sigma2 1e100000 --samples 10000
run conv_gdp_tol1500 convert gdp --mu 1 --delta 1e-5 --tolerance 1e-1500
run conv_pure_tol3000 convert pure-dp --epsilon 1 --tolerance 1e-3000
run pure_all_tol3000 compose pure-dp --epsilon 1 --k 100 --delta 1e-5 --method all --tolerance 1e-3000
run event_digits_tol3000 compose --event $PG --count 100 --delta 1e-5 --digits 10000 --tolerance 1e-3000
# within the limits
run ok_pld_count_1e6 compose --event $PG --count 1000000 --delta 1e-5 --route pld
run ok_pld_step_2e4 compose --event $PG --count 1000 --delta 1e-5 --route pld --pld-step 1/20000
run ok_conv_gdp_tol600 convert gdp --mu 1 --delta 1e-5 --tolerance 1e-600
run ok_event_tol210 compose --event $PG --count 100 --delta 1e-5 --tolerance 1e-210
run ok_pure_all_tol180 compose pure-dp --epsilon 1 --k 100 --delta 1e-5 --method all --tolerance 1e-180
run ok_audit_dg_huge_350 audit discrete-gaussian --sigma2 1e100000 --samples 350
