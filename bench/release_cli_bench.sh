#!/usr/bin/env bash
# bench/release_cli_bench.sh [EXACTDP] [ROWS] — wall-clock rows per second of the `exactdp
# release` command on a generated ROWS-row table (default 10^6; the same table as
# bench/release_bench.cc): regular file on stdin (read twice in place) and a pipe (spooled),
# discrete Gaussian and discrete Laplace on two columns. Prints one line per run.
set -euo pipefail
exe=${1:-build/cli/exactdp}
rows=${2:-1000000}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
awk -v n="$rows" 'BEGIN {
  split("North,South,\"East, coastal\",West", r, ","); r[3] = "\"East, coastal\""; r[4] = "West";
  split("18-29 30-44 45-64 65+", b, " ");
  print "region,age_band,count,sum_visits,note";
  for (i = 0; i < n; i++) {
    note = (i % 10 == 0) ? "\"wave 2, late\"" : "";
    printf "%s,%s,%d,%d,%s\n", r[i % 4 + 1], b[int(i / 4) % 4 + 1], 100 + i % 5000, 300 + (i * 7) % 20000, note;
  }
}' > "$dir/in.csv"
for mech in discrete-gaussian discrete-laplace; do
  for how in file pipe; do
    start=$(date +%s.%N)
    if [[ $how == file ]]; then
      "$exe" release --mechanism "$mech" --epsilon 1 --delta 1e-6 --column count --column sum_visits \
        < "$dir/in.csv" > "$dir/out.csv" 2>/dev/null
    else
      cat "$dir/in.csv" | "$exe" release --mechanism "$mech" --epsilon 1 --delta 1e-6 \
        --column count --column sum_visits > "$dir/out.csv" 2>/dev/null
    fi
    end=$(date +%s.%N)
    awk -v s="$start" -v e="$end" -v n="$rows" -v m="$mech" -v h="$how" \
      'BEGIN { printf "%-18s %-4s %8.2f s  %10.0f rows/s\n", m, h, e - s, n / (e - s) }'
  done
done
