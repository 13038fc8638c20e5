#!/bin/bash
# hostile_limits_bench.sh BINARY OUTFILE — times the extreme-input cases of the hostile-input
# review (event composition, DP-SGD calibration, selection, release, tolerance) against an exactdp
# binary, each under `ulimit -t 60 -v 4000000`, one line per case: exit status, user+system CPU,
# peak memory, stdout bytes and the first 160 characters of stderr. A refusal by an up-front cost
# limit shows as rc=2 within milliseconds; the budget is 10 s of CPU and 1 GiB. Not a test (no
# timing asserts): compare the lines before and after a change. Inputs go to /tmp/h.
set -u
mkdir -p /tmp/h
python3 - <<'PY'
import random
open('/tmp/h/scores_huge_30k.txt','w').write('1e100000\n'*30000)
open('/tmp/h/nines5000.txt','w').write('0.'+'9'*5000)
open('/tmp/h/rat9999.txt','w').write('1'+'3'*4998+'/'+'7'*5000)
random.seed(1)
open('/tmp/h/scores_1e5.txt','w').write(''.join(f'{random.randint(0,1000)}\n' for _ in range(100000)))
open('/tmp/h/nonutf8.csv','wb').write('name\xff\xfe,count\n'.encode('latin1')+b'a,1\nb,2\n')
open('/tmp/h/v16666.csv','w').write('v\n' + '1\n' * 16666)
PY
B=$1; OUT=$2; : > $OUT; L=/tmp/h/last.$$
N=$(cat /tmp/h/nines5000.txt); R=$(cat /tmp/h/rat9999.txt)
run() { # label, stdin file, args...
  local label=$1 inp=$2; shift 2
  local res
  res=$(bash -c 'ulimit -t 60 -v 4000000; /usr/bin/time -f "%U+%S s %M KB" "$@" < '"$inp"' > '"$L"'.out 2>'"$L"'.err; echo "rc=$?"' _ "$B" "$@" 2>&1)
  local t=$(tail -1 $L.err)
  local msg=$(grep -v " KB$" $L.err | head -c 160 | tr '\n' ' ')
  echo "$label | $res | $t | out=$(wc -c < $L.out)B | $msg" >> $OUT
}
run sel_huge_30k /tmp/h/scores_huge_30k.txt select --mechanism exponential --epsilon 1 --sensitivity 1 --seed $(printf 'a%.0s' {1..64})
run dg_sigma2_tiny /dev/null compose --event discrete-gaussian:sigma2=1e-5000 --delta 1e-5
run pg_q_tiny /dev/null compose --event poisson-gaussian:sigma=1,q=1e-5000 --count 100 --delta 1e-5
run pdg_sigma2_tiny /dev/null compose --event poisson-discrete-gaussian:sigma2=1e-5000,q=0.01 --count 100 --delta 1e-5
run dpsgd_q_nines /dev/null calibrate dp-sgd --q "$N" --steps 1000 --epsilon 1 --delta 1e-5
run dpsgd_eps_big /dev/null calibrate dp-sgd --q 0.01 --steps 1000 --epsilon "$R" --delta 1e-5
run pg_sigma_big_replace /dev/null compose --event "poisson-gaussian:sigma=$R,q=0.01" --count 10 --delta 1e-5 --neighbouring replace-one
EV=(); for i in $(seq 2000); do EV+=(--event gaussian:sigma=1e100000); done
run g_2000_events /dev/null compose "${EV[@]}" --delta 1e-5
run pld_step_fine /dev/null compose --event poisson-gaussian:sigma=1,q=0.01 --count 1000 --delta 1e-5 --route pld --pld-step 1/10000000
run pld_step_1 /dev/null compose --event poisson-gaussian:sigma=1,q=0.01 --count 1000 --delta 1e-5 --route pld --pld-step 1
run pld_count_1e9 /dev/null compose --event poisson-gaussian:sigma=1,q=0.01 --count 1000000000 --delta 1e-5 --route pld
run pdg_pld_fine /dev/null compose --event poisson-discrete-gaussian:sigma2=1,q=0.01 --count 1000 --delta 1e-5 --route pld --pld-step 1/10000000
run pdl_scale_big /dev/null compose --event poisson-discrete-laplace:scale=1e100000,q=0.01 --count 100 --delta 1e-5
run pdg_sigma2_1e-9 /dev/null compose --event poisson-discrete-gaussian:sigma2=1e-9,q=0.01 --count 100 --delta 1e-5
run pdg_sigma2_1e-10 /dev/null compose --event poisson-discrete-gaussian:sigma2=1e-10,q=0.01 --count 100 --delta 1e-5
run sel_top_1e4 /tmp/h/scores_1e5.txt select --mechanism exponential --epsilon 1 --sensitivity 1 --top 10000 --seed $(printf 'a%.0s' {1..64})
run sel_top_1e5 /tmp/h/scores_1e5.txt select --mechanism exponential --epsilon 1 --sensitivity 1 --top 100000 --seed $(printf 'a%.0s' {1..64})
run audit_dg_huge /dev/null audit discrete-gaussian --sigma2 1e100000 --samples 10000
# The most draws each law's own cost allows (operations/draw_cost.h): accepted, about 2-4 s each.
run audit_dg_1e1000_most /dev/null audit discrete-gaussian --sigma2 1e1000 --samples 1139072 --seed $(printf 'a%.0s' {1..64})
run audit_dg_1e10000_most /dev/null audit discrete-gaussian --sigma2 1e10000 --samples 24988 --seed $(printf 'a%.0s' {1..64})
run audit_dg_1e99999_most /dev/null audit discrete-gaussian --sigma2 1e99999 --samples 111 --seed $(printf 'a%.0s' {1..64})
run timing_dl_1e10000_most /dev/null audit-timing discrete-laplace --scale 1e10000 --calls 8329 --seed $(printf 'a%.0s' {1..64})
run release_dl_1e10000_most /tmp/h/v16666.csv release --mechanism discrete-laplace --epsilon 1e-9999 --column v --seed $(printf 'a%.0s' {1..64})
run ddg_sample_most /dev/null sample distributed-discrete-gaussian --sigma2 1/4 --clients 10000 -n 11428 --seed $(printf 'a%.0s' {1..64})
run release_nonutf8 /tmp/h/nonutf8.csv release --mechanism discrete-laplace --epsilon 1 --column count --json /tmp/h/nonutf8.json --seed $(printf 'a%.0s' {1..64})
python3 -c "import json;json.load(open('/tmp/h/nonutf8.json'))" 2>/dev/null && echo "nonutf8 json valid" >> $OUT || echo "nonutf8 json INVALID" >> $OUT
run conv_gdp_tol1500 /dev/null convert gdp --mu 1 --delta 1e-5 --tolerance 1e-1500
run conv_pure_tol3000 /dev/null convert pure-dp --epsilon 1 --tolerance 1e-3000
run pure_all_tol3000 /dev/null compose pure-dp --epsilon 1 --k 100 --delta 1e-5 --method all --tolerance 1e-3000
run event_digits10000 /dev/null compose --event poisson-gaussian:sigma=1,q=0.01 --count 100 --delta 1e-5 --digits 10000
