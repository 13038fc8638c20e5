#!/usr/bin/env bash
# tests/install/check_installed_headers.sh — the installed headers are the public API only, and
# each one compiles on its own.
#
#   check_installed_headers.sh --build-dir BUILD
#       (the ctest test installed_headers) `cmake --install BUILD --component dev` into a
#       temporary prefix, then the checks below on it.
#   check_installed_headers.sh --prefix PREFIX
#       the checks on an existing installation (PREFIX/include/exactdp).
#   [--curated DIR]  (either form) also check 0: the installed headers are exactly those under
#       DIR/exactdp (the source tree's include/: what cmake/ExactdpInstall.cmake installs), and
#       at most MAX_HEADERS of them (the curated public surface, docs/ABI.md).
#
# Checks:
#   1. no installed path contains an internal/ folder;
#   2. every #include of an installed header that names <exactdp/...> (or "...") resolves to an
#      installed header: no installed header includes an internal or otherwise missing one;
#   3. the opaque handles of exactdp.h (each `typedef struct X X;`) are defined nowhere in the
#      installed tree (their definitions are internal to libexactdp);
#   4. each installed header compiles on its own, included twice, as C++20 with
#      -I PREFIX/include and the flags of GMP, MPFR and libsodium (pkg-config), warnings as errors;
#      exactdp.h also as C99. (-fsyntax-only, in parallel: EXACTDP_TEST_JOBS, default nproc.)
# CC and CXX choose the compilers (default cc and c++). Prints what it checked and exits 0, or
# lists every failure and exits 1. Its power: tests/install/installed_headers_power.sh.
set -euo pipefail

# shellcheck source=tests/install/install_args.sh
source "$(dirname "$0")/install_args.sh"
MAX_HEADERS=30
curated=""
args=()
while (($#)); do
  if [[ "$1" == --curated ]]; then curated=$2; shift 2; else args+=("$1"); shift; fi
done
parse_install_args without-version "${args[@]}"
cc=${CC:-cc}
cxx=${CXX:-c++}
jobs=${EXACTDP_TEST_JOBS:-$(nproc)}
work=$(mktemp -d "${TMPDIR:-/tmp}/exactdp-headers.XXXXXX")
trap 'rm -rf "$work"' EXIT
say() { echo "check_installed_headers: $*"; }

if [[ -n "$build_dir" ]]; then
  prefix=$work/prefix
  cmake --install "$build_dir" --prefix "$prefix" --component dev >"$work/install.log" 2>&1 ||
    { cat "$work/install.log"; say "FAILED: cmake --install $build_dir"; exit 1; }
fi
inc=$prefix/include
[[ -d "$inc/exactdp" ]] || { say "FAILED: no $inc/exactdp"; exit 1; }
mapfile -t headers < <(cd "$inc" && find exactdp -name '*.h' | LC_ALL=C sort)
((${#headers[@]} > 0)) || { say "FAILED: no header under $inc/exactdp"; exit 1; }
failures=$work/failures
: >"$failures"
fail() { echo "  $*" >>"$failures"; }

# 0. The curated set: exactly the source tree's include/exactdp/, and at most MAX_HEADERS.
if [[ -n "$curated" ]]; then
  while IFS= read -r extra; do
    fail "installed but not in the curated set ($curated/exactdp): $extra"
  done < <(comm -23 <(printf '%s\n' "${headers[@]}") <(cd "$curated" && find exactdp -name '*.h' | LC_ALL=C sort))
  while IFS= read -r missing; do
    fail "in the curated set but not installed: $missing"
  done < <(comm -13 <(printf '%s\n' "${headers[@]}") <(cd "$curated" && find exactdp -name '*.h' | LC_ALL=C sort))
  ((${#headers[@]} <= MAX_HEADERS)) ||
    fail "${#headers[@]} headers installed, more than the curated surface's $MAX_HEADERS (docs/ABI.md)"
fi

# 1. No internal/ folder.
while IFS= read -r path; do
  fail "internal path installed: ${path#"$prefix"/}"
done < <(find "$inc" -path '*/internal' -o -path '*/internal/*')

# 2. Every #include of the project resolves inside the installed tree.
for h in "${headers[@]}"; do
  dir=$(dirname "$h")
  while IFS= read -r line; do
    if [[ "$line" =~ ^[[:space:]]*#[[:space:]]*include[[:space:]]*\<(exactdp/[^>]*)\> ]]; then
      target=${BASH_REMATCH[1]}
      [[ -f "$inc/$target" ]] || fail "$h includes <$target>, which is not installed"
    elif [[ "$line" =~ ^[[:space:]]*#[[:space:]]*include[[:space:]]*\"([^\"]*)\" ]]; then
      target=${BASH_REMATCH[1]}
      [[ -f "$inc/$dir/$target" || -f "$inc/$target" ]] ||
        fail "$h includes \"$target\", which is not installed"
    fi
  done <"$inc/$h"
done

# 3. The opaque C handles stay opaque.
api=$inc/exactdp/exactdp.h
if [[ -f "$api" ]]; then
  mapfile -t handles < <(sed -n 's/^typedef struct \([a-z_]*\) \1;.*/\1/p' "$api")
  ((${#handles[@]} > 0)) || fail "exactdp.h declares no opaque handle (typedef struct X X;)"
  for handle in "${handles[@]}"; do
    while IFS= read -r where; do
      fail "the opaque handle struct $handle is defined in an installed header: ${where#"$inc"/}"
    done < <(grep -rnE "struct[[:space:]]+$handle([[:space:]]+final)?[[:space:]]*(:[^;{]*)?\{" "$inc" || true)
  done
else
  fail "exactdp/exactdp.h is not installed"
fi

# 4. Each header alone (twice: its include guard too), in parallel.
# shellcheck disable=SC2207
deps=($(pkg-config --cflags gmpxx gmp mpfr libsodium 2>/dev/null || true))
mkdir -p "$work/tu" "$work/log"
compile_one() {  # compile_one LANGUAGE HEADER: a translation unit with just that #include
  local lang=$1 h=$2 name
  name=$(echo "$lang-$h" | tr '/.' '__')
  printf '#include <%s>\n#include <%s>\n' "$h" "$h" >"$work/tu/$name"
  if [[ "$lang" == c99 ]]; then
    "$cc" -x c -std=c99 -pedantic-errors -Wall -Wextra -Werror -fsyntax-only -I"$inc" "${deps[@]}" \
      "$work/tu/$name" >"$work/log/$name" 2>&1
  else
    "$cxx" -x c++ -std=c++20 -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Werror -fsyntax-only \
      -I"$inc" "${deps[@]}" "$work/tu/$name" >"$work/log/$name" 2>&1
  fi || { echo "$lang $h" >>"$work/log/failed.$name"; }
}
export -f compile_one
export work cc cxx inc
export DEPS="${deps[*]}"
{
  for h in "${headers[@]}"; do printf 'c++20 %s\n' "$h"; done
  [[ -f "$api" ]] && printf 'c99 exactdp/exactdp.h\n'
} | xargs -P "$jobs" -L 1 bash -c 'deps=($DEPS); compile_one "$0" "$1"'
compiled=$(find "$work/tu" -type f | wc -l)
for f in "$work"/log/failed.*; do
  [[ -e "$f" ]] || continue
  read -r lang h <"$f"
  fail "$h does not compile on its own ($lang):"
  sed 's/^/      /' "$work/log/${f##*/failed.}" | head -n 20 >>"$failures"
done

if [[ -s "$failures" ]]; then
  say "FAILED for $prefix:"
  cat "$failures"
  exit 1
fi
say "${#headers[@]} installed headers${curated:+ (exactly the curated set)}, no internal path, every #include <exactdp/...> installed," \
    "${#handles[@]} opaque handles not defined; $compiled translation units compile alone (C++20; exactdp.h also C99)"
