#!/usr/bin/env bash
# bench/aggregate_cli_bench.sh [EXACTDP] [RECORDS] — CPU time and peak memory of `exactdp
# aggregate` on RECORDS generated records (default 10^6) of 10^5 units and 10^3 groups:
# --count --sum amount --bounds 0,100, L0 = 3, Linf = 2, private partition selection. The figure
# in docs/AGGREGATE.md ("Limits and cost") is this script's output. Prints one line.
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
/usr/bin/time -f "%U %S %M" -o "$dir/time" "$exe" aggregate --privacy-unit user --group-by region \
  --count --sum amount --bounds 0,100.00 --max-groups 3 --max-rows 2 --epsilon 1 --delta 1e-6 \
  < "$dir/records.csv" > /dev/null 2> /dev/null
read -r user sys kb < "$dir/time"
echo "exactdp aggregate: $records records, $(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }') s CPU, peak $((kb / 1024)) MiB"
