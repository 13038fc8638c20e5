#!/usr/bin/env bash
# bench/aggregate_cli_bench.sh [EXACTDP] [RECORDS] — CPU time, wall time and peak memory of
# `exactdp aggregate` on RECORDS generated records (default 10^6; the scale target is 10^7) of
# 10^5 units and 10^3 groups, uniform: --count --sum amount --bounds 0,100.00, L0 = 3, Linf = 2,
# private partition selection. The figures of docs/AGGREGATE.md ("Limits and cost") and
# BENCHMARKS.md ("Aggregate") are this script's output. Prints one line, with the load average
# (the machine may be shared: CPU time moves less with the load than wall time does).
# Generating the records (awk) is not timed; 10^7 records are 208 MB in $TMPDIR.
set -euo pipefail
exe=${1:-build/cli/exactdp}
records=${2:-1000000}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
awk -v n="$records" 'BEGIN {
  srand(1);
  print "user,region,amount";
  for (i = 0; i < n; i++) {
    printf "u%d,g%d,%d.%02d\n", int(rand() * 100000), int(rand() * 1000), int(rand() * 100), int(rand() * 100);
  }
}' > "$dir/records.csv"
/usr/bin/time -f "%U %S %e %M" -o "$dir/time" "$exe" aggregate --privacy-unit user --group-by region \
  --count --sum amount --bounds 0,100.00 --max-groups 3 --max-rows 2 --epsilon 1 --delta 1e-6 \
  < "$dir/records.csv" > /dev/null 2> "$dir/err" || { cat "$dir/err" >&2; exit 1; }
read -r user sys wall kb < "$dir/time"
echo "exactdp aggregate: $records records ($(stat -c %s "$dir/records.csv") bytes)," \
  "$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }') s CPU (user $user, sys $sys), $wall s wall," \
  "peak $((kb / 1024)) MiB; load average $(cut -d' ' -f1-3 /proc/loadavg)"
