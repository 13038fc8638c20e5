# shellcheck shell=bash disable=SC2034  # build_dir, prefix and version are set for the caller
# tests/install/install_args.sh — sourced by check_installed_headers.sh and consumer_test.sh: the
# arguments they share.
#
# parse_install_args WITH_VERSION "$@" reads --build-dir BUILD | --prefix PREFIX (at least one),
# and [--version X.Y.Z] too when WITH_VERSION is "with-version". It sets build_dir, prefix and
# version (as given: "" when absent); an unknown or missing argument prints the caller's usage
# and exits 2.
parse_install_args() {
  local with_version=$1 usage="usage: $0 --build-dir BUILD | --prefix PREFIX"
  shift
  if [[ $with_version == with-version ]]; then usage+=" [--version X.Y.Z]"; fi
  build_dir="" prefix="" version=""
  while (($#)); do
    case "$1" in
      --build-dir) build_dir=$2; shift 2 ;;
      --prefix) prefix=$2; shift 2 ;;
      --version)
        [[ $with_version == with-version ]] || { echo "$usage" >&2; exit 2; }
        version=$2
        shift 2 ;;
      *) echo "$usage" >&2; exit 2 ;;
    esac
  done
  if [[ -z "$build_dir" && -z "$prefix" ]]; then
    echo "$usage" >&2
    exit 2
  fi
}
