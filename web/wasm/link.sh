#!/usr/bin/env bash
# The linker web/build.sh gives web/wasm: rust-lld (wasm flavour, $IMCTS_WEB_LLD) exporting only
# the functions listed in web/exports.txt. rustc asks the linker to export every `#[no_mangle]`
# function of the C ABI crate; with fewer exports, wasm-ld's garbage collection drops the others
# together with the read-only data (strings, tables) that only they use, which binaryen cannot
# take out of a linked module afterwards. All other arguments pass through unchanged.
set -euo pipefail
keep=" $(grep -v '^#' "$(dirname "$0")/../exports.txt" | tr -s ' \t\n' '   ') "
args=()
[ "${1:-}" = -flavor ] || args=(-flavor wasm)
while [ $# -gt 0 ]; do
  case "$1" in
    --export) name=$2; shift 2 ;;
    --export=*) name=${1#--export=}; shift ;;
    *) args+=("$1"); shift; continue ;;
  esac
  if [[ $keep == *" $name "* ]]; then args+=(--export "$name"); fi
done
exec "${IMCTS_WEB_LLD:?set by web/build.sh}" "${args[@]}"
