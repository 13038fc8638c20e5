#!/usr/bin/env bash
# tests/install/installed_headers_power.sh SOURCE_DIR — the power of check_installed_headers.sh
# (ctest: installed_headers_catches_defects). It builds small fake installed trees, each from a
# clean base (the real exactdp.h and one self-contained header) plus exactly one defect, and
# requires the checker to pass on the clean base and to fail on every defective tree with the
# message that names the defect:
#   an internal/ folder installed; a public header including an internal one; a header that does
#   not compile on its own; a header without include guard; the definition of an opaque C
#   handle; exactdp.h that is not C99; a header installed that the curated set (--curated) lacks,
#   one it has that is not installed, and more than 30 headers.
set -euo pipefail
source_dir=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/exactdp-headers-power.XXXXXX")
trap 'rm -rf "$work"' EXIT
say() { echo "installed_headers_power: $*"; }

base() {  # base PREFIX: the clean tree
  mkdir -p "$1/include/exactdp/samplers"
  cp "$source_dir/include/exactdp/exactdp.h" "$1/include/exactdp/exactdp.h"
  printf '#pragma once\n#include <vector>\nnamespace probe { inline std::vector<int> v; }\n' \
    >"$1/include/exactdp/samplers/clean.h"
}

# expect NAME PATTERN [ARGS...]: the checker (with ARGS) fails on prefix NAME and its output
# matches PATTERN.
expect() {
  local name=$1 pattern=$2 out
  shift 2
  if out=$("$here/check_installed_headers.sh" --prefix "$work/$name" "$@" 2>&1); then
    echo "$out"
    say "FAILED: the checker passed the tree with defect '$name'"
    exit 1
  fi
  if ! grep -qE "$pattern" <<<"$out"; then
    echo "$out"
    say "FAILED: defect '$name' was not reported as /$pattern/"
    exit 1
  fi
  say "defect '$name' caught"
}

base "$work/clean"
"$here/check_installed_headers.sh" --prefix "$work/clean" ||
  { say "FAILED: the checker rejects the clean tree"; exit 1; }

base "$work/internal_folder"
mkdir -p "$work/internal_folder/include/exactdp/samplers/internal"
printf '#pragma once\n' >"$work/internal_folder/include/exactdp/samplers/internal/tables.h"
expect internal_folder 'internal path installed: include/exactdp/samplers/internal'

base "$work/includes_internal"
printf '#pragma once\n#include <exactdp/samplers/internal/tables.h>\n' \
  >"$work/includes_internal/include/exactdp/samplers/leaky.h"
expect includes_internal 'leaky.h includes <exactdp/samplers/internal/tables.h>, which is not installed'

base "$work/not_alone"
printf '#pragma once\nnamespace probe { inline std::vector<int> w; }\n' \
  >"$work/not_alone/include/exactdp/samplers/needs_vector.h"
expect not_alone 'needs_vector.h does not compile on its own \(c\+\+20\)'

base "$work/no_guard"
printf 'namespace probe { struct Twice {}; }\n' >"$work/no_guard/include/exactdp/samplers/no_guard.h"
expect no_guard 'no_guard.h does not compile on its own'

base "$work/handle_defined"
printf '#pragma once\n#include <memory>\nstruct exactdp_bits {\n  std::unique_ptr<int> source;\n};\n' \
  >"$work/handle_defined/include/exactdp/samplers/handles.h"
expect handle_defined 'opaque handle struct exactdp_bits is defined in an installed header'

base "$work/not_c99"
printf '\n#include <vector>\n' >>"$work/not_c99/include/exactdp/exactdp.h"
expect not_c99 'exactdp.h does not compile on its own \(c99\)'

# The curated set: the clean tree is its own curated set; one header more or one less installed
# than the set is a defect, and so is a set of more than 30 headers.
"$here/check_installed_headers.sh" --prefix "$work/clean" --curated "$work/clean/include" ||
  { say "FAILED: the checker rejects the clean tree as its own curated set"; exit 1; }
base "$work/uncurated"
printf '#pragma once\n' >"$work/uncurated/include/exactdp/samplers/extra.h"
expect uncurated 'installed but not in the curated set .*: exactdp/samplers/extra.h' --curated "$work/clean/include"
base "$work/missing"
rm "$work/missing/include/exactdp/samplers/clean.h"
expect missing 'in the curated set but not installed: exactdp/samplers/clean.h' --curated "$work/clean/include"
base "$work/too_many"
for i in $(seq 1 30); do printf '#pragma once\n' >"$work/too_many/include/exactdp/samplers/h$i.h"; done
expect too_many '32 headers installed, more than the curated surface.s 30' --curated "$work/too_many/include"

say "the clean tree passes; 9 defective trees are rejected, each naming its defect"
