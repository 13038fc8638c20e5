#!/usr/bin/env bash
# compose_extremes.sh BINARY OUTFILE [JOBS [FILTER]] — times `exactdp compose --event` (and a few
# calibrate / calibrate dp-sgd / convert / profile cases) over a grid of extreme inputs against an
# exactdp binary, each under `ulimit -t 30 -v 4000000` (CPU seconds, KiB), and prints the 10
# slowest. The project's budget is 10 s of CPU and 1 GiB per valid input (or an up-front refusal,
# exit 2); this sweep looks for cases over ~5 s on a quiet machine. Not a test (no timing
# asserts): compare OUTFILE before and after a change (BENCHMARKS.md, "Extreme compose inputs").
#
# The grid: every subsampled kind (poisson-gaussian, -discrete-gaussian, -laplace,
# -discrete-laplace, -vector-discrete-gaussian) at noise/sensitivity in {10^-3 (sigma2 10^-6),
# 1, 2^64 (sigma2 2^128)} x q in {2^-64, 1/100, 1} x count in {1, 10^6} x target in {delta
# 10^-100000, delta 10^-10000, epsilon 1}; every plain kind (gaussian, discrete-gaussian, laplace,
# discrete-laplace, vector-discrete-gaussian) at the same noise, counts and targets; plus
# calibrations at the delta and epsilon edges. OUTFILE has one line per case:
#   CPU_SECONDS rc=EXIT peak=KB label | first 120 characters of stderr
# sorted slowest first. JOBS (default 2) cases run at once (CPU time is per process). An
# optional FILTER (4th argument, an extended regex) keeps only the cases whose label matches.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
out=$2
jobs=${3:-2}
work=$(mktemp -d "${TMPDIR:-/tmp}/compose-extremes.XXXXXX")
trap 'rm -rf "$work"' EXIT

cases=$work/cases
: >"$cases"
add() { printf '%s\t%s\n' "$1" "$2" >>"$cases"; }  # add LABEL "ARGS" (split on spaces)

q64=1/18446744073709551616
big=18446744073709551616            # 2^64 (its square 2^128: the sigma2 limit)
big2=340282366920938463463374607431768211456
targets=("--delta 1e-100000" "--delta 1e-10000" "--epsilon 1")
tname() { case "$1" in "--delta 1e-100000") echo d100000 ;; "--delta 1e-10000") echo d10000 ;; *) echo e1 ;; esac; }

for s in small one big; do
  case $s in
    small) sg=1/1000 s2=1/1000000 ;;
    one) sg=1 s2=1 ;;
    big) sg=$big s2=$big2 ;;
  esac
  vsg=$sg; [[ $s == big ]] && vsg=1000000000   # the vector laws take sigma <= 10^9
  for count in 1 1000000; do
    for t in "${targets[@]}"; do
      tn=$(tname "$t")
      for q in $q64 1/100 1; do
        qn=$q; [[ $q == "$q64" ]] && qn=2^-64
        add "pg s=$s q=$qn n=$count $tn" "compose --event poisson-gaussian:sigma=$sg,q=$q --count $count $t"
        add "pdg s=$s q=$qn n=$count $tn" "compose --event poisson-discrete-gaussian:sigma2=$s2,q=$q --count $count $t"
        add "pl s=$s q=$qn n=$count $tn" "compose --event poisson-laplace:scale=$sg,q=$q --count $count $t"
        add "pdl s=$s q=$qn n=$count $tn" "compose --event poisson-discrete-laplace:scale=$sg,q=$q --count $count $t"
        add "pvdg s=$s q=$qn n=$count $tn" \
          "compose --event poisson-vector-discrete-gaussian:sigma=$vsg,sensitivity=1,dim=1000,granularity=1/1024,q=$q --count $count $t"
      done
      add "g s=$s n=$count $tn" "compose --event gaussian:sigma=$sg --count $count $t"
      add "dg s=$s n=$count $tn" "compose --event discrete-gaussian:sigma2=$s2 --count $count $t"
      add "l s=$s n=$count $tn" "compose --event laplace:scale=$sg --count $count $t"
      add "dl s=$s n=$count $tn" "compose --event discrete-laplace:scale=$sg --count $count $t"
      add "vdg s=$s n=$count $tn" \
        "compose --event vector-discrete-gaussian:sigma=$vsg,sensitivity=1,dim=1000,granularity=1/1024 --count $count $t"
    done
  done
done
# Middle values the grid skips: the order search's worst region (a Poisson Gaussian at
# q = 1/100, counts 10 and 1000, the smallest deltas; the case that once took 10 s).
for d in 1e-100000 1e-30000 1e-10000 1e-1000; do
  for count in 10 1000; do
    add "pg s=1 q=1/100 n=$count delta=$d" "compose --event poisson-gaussian:sigma=1,q=1/100 --count $count --delta $d"
    add "pg s=4 q=1/100 n=$count delta=$d" "compose --event poisson-gaussian:sigma=4,q=1/100 --count $count --delta $d"
    add "pl s=1 q=1/100 n=$count delta=$d" "compose --event poisson-laplace:scale=1,q=1/100 --count $count --delta $d"
    add "pdg s=1 q=1/100 n=$count delta=$d" "compose --event poisson-discrete-gaussian:sigma2=1,q=1/100 --count $count --delta $d"
  done
done
# Other commands at the delta / epsilon edges.
for d in 1e-100000 1e-10000; do
  add "calibrate gaussian delta=$d" "calibrate gaussian --epsilon 1 --delta $d --sensitivity 1"
  add "calibrate discrete-gaussian delta=$d" "calibrate discrete-gaussian --epsilon 1 --delta $d --sensitivity 1"
  add "calibrate dp-sgd q=1/100 delta=$d" "calibrate dp-sgd --q 1/100 --steps 1000 --epsilon 1 --delta $d"
  add "calibrate dp-sgd q=2^-64 delta=$d" "calibrate dp-sgd --q $q64 --steps 1000000000 --epsilon 1 --delta $d"
  add "convert gdp delta=$d" "convert gdp --mu 1 --delta $d"
  add "profile gaussian delta=$d" "profile gaussian --sigma 1 --sensitivity 1 --delta $d"
done
add "calibrate dp-sgd eps=10^4" "calibrate dp-sgd --q 1/100 --steps 1000 --epsilon 10000 --delta 1e-5"
add "calibrate dp-sgd steps=10^9" "calibrate dp-sgd --q 1/100 --steps 1000000000 --epsilon 1 --delta 1e-5"

run_case() {  # run_case LABEL ARGS: one result line
  local label=$1 args=$2 log
  log=$(mktemp "$work/log.XXXXXX")
  # shellcheck disable=SC2086
  res=$(bash -c 'ulimit -t 30 -v 4000000; /usr/bin/time -f "@@ %U %S %M" "$@" >/dev/null 2>"'"$log"'"; echo $?' _ "$bin" $args 2>&1)
  local cpu rc peak msg
  read -r _ u s peak < <(grep '^@@ ' "$log" | tail -1)
  cpu=$(awk -v u="${u:-0}" -v s="${s:-0}" 'BEGIN{printf "%.2f", u + s}')
  rc=$(tail -1 <<<"$res")
  grep -q "Command terminated by signal" "$log" && rc=killed
  msg=$(grep -v '^@@ \|Command terminated' "$log" | head -c 120 | tr '\n' ' ')
  printf '%s rc=%s peak=%sKB %s | %s\n' "$cpu" "$rc" "${peak:-?}" "$label" "$msg"
}
export -f run_case
export bin work
if [[ -n "${4:-}" ]]; then grep -E "^[^\t]*(${4})" "$cases" >"$cases.kept" || true; mv "$cases.kept" "$cases"; fi
total=$(wc -l <"$cases")
echo "compose_extremes: $total cases, $jobs at a time, binary $bin" >&2
# Lines go to OUTFILE as they come (an interrupted sweep keeps what it measured), sorted at the end.
: >"$out"
tr '\t' '\037' <"$cases" | xargs -d '\n' -P "$jobs" -I{} bash -c 'IFS=$'"'"'\037'"'"' read -r l a <<<"$1"; run_case "$l" "$a"' _ {} \
  >>"$out"
sort -rn -o "$out" "$out"
echo "compose_extremes: the 10 slowest of $total (CPU s):"
head -n 10 "$out"
