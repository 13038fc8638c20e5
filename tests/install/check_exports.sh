#!/usr/bin/env bash
# tests/install/check_exports.sh LIBRARY HEADER [SONAME]
# The dynamic symbols LIBRARY defines (`nm -D --defined-only`) must be exactly the functions HEADER
# declares with EXACTDP_API: no internal symbol (C++ code, standard-library instantiations,
# GMP/MPFR/libsodium helpers), and no public function missing. With SONAME, the library's
# DT_SONAME must be it. Prints the count and exits 0, or lists the differences and exits 1.
# (ctest: shared_library_exports; its power: shared_library_exports_catches_leak.)
set -euo pipefail
lib=$1 header=$2 soname=${3:-}
[[ -f "$lib" ]] || { echo "check_exports: no library $lib" >&2; exit 1; }
exported=$(nm -D --defined-only "$lib" | awk 'NF >= 3 { sub(/@.*/, "", $3); print $3 }' | sort -u)
declared=$(sed -n 's/^EXACTDP_API[^(]*[^A-Za-z0-9_]\([A-Za-z_][A-Za-z0-9_]*\)(.*/\1/p' "$header" | sort -u)
[[ -n "$declared" ]] || { echo "check_exports: no EXACTDP_API function in $header" >&2; exit 1; }
status=0
extra=$(comm -23 <(echo "$exported") <(echo "$declared"))
missing=$(comm -13 <(echo "$exported") <(echo "$declared"))
if [[ -n "$extra" ]]; then
  echo "check_exports: $lib exports internal symbols (not EXACTDP_API in $header):"
  echo "$extra" | sed 's/^/  /' | head -n 50
  status=1
fi
if [[ -n "$missing" ]]; then
  echo "check_exports: $lib does not export these public functions of $header:"
  echo "$missing" | sed 's/^/  /'
  status=1
fi
if [[ -n "$soname" ]]; then
  actual=$(readelf -d "$lib" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
  if [[ "$actual" != "$soname" ]]; then
    echo "check_exports: $lib has SONAME '${actual}', expected '$soname'"
    status=1
  fi
fi
if ((status == 0)); then
  echo "check_exports: $lib exports exactly the $(echo "$declared" | wc -l) EXACTDP_API functions of $(basename "$header")${soname:+, SONAME $soname}"
fi
exit "$status"
