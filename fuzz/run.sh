#!/usr/bin/env bash
# Runs one fuzz target for a while:  fuzz/run.sh TARGET SECONDS [libFuzzer flags...]
#
# Needs cargo-fuzz (`cargo install cargo-fuzz`). Works on the stable toolchain
# through RUSTC_BOOTSTRAP=1. New inputs go to fuzz/corpus/TARGET (ignored by
# git); the committed seeds in fuzz/seeds/ are read, never written. A crash is
# saved under fuzz/artifacts/TARGET/ and the script exits non-zero.
#
# Build: release with debug assertions and overflow checks, no sanitizer
# (the crates under test forbid `unsafe`; set FUZZ_SANITIZER=address to add
# AddressSanitizer, at about half the speed). FUZZ_DEBUG_ASSERTIONS=0 builds
# without debug assertions: the code an optimised user build runs, where
# the generated decoders read members in runs (`cfg(not(debug_assertions))`).
set -euo pipefail
cd "$(dirname "$0")"

if [ $# -lt 2 ]; then
  echo "usage: $0 TARGET SECONDS [libFuzzer flags...]" >&2
  exit 2
fi
target=$1
seconds=$2
shift 2

case "$target" in
  json_parse | differential)
    seeds=(seeds/common seeds/close_ticket seeds/triage seeds/vacation seeds/settings seeds/step) ;;
  decode_close_ticket) seeds=(seeds/close_ticket seeds/common) ;;
  decode_triage) seeds=(seeds/triage seeds/common) ;;
  decode_vacation) seeds=(seeds/vacation seeds/common) ;;
  edit_policy) seeds=(seeds/settings seeds/common) ;;
  edit_patch) seeds=(seeds/patch seeds/settings) ;;
  decode_step) seeds=(seeds/step seeds/common) ;;
  decode_tree) seeds=(seeds/tree seeds/common) ;;
  stream) seeds=(seeds/stream) ;;
  sse) seeds=(seeds/sse) ;;
  check_calls) seeds=(seeds/calls seeds/common) ;;
  *)
    echo "unknown target $target (see fuzz/Cargo.toml)" >&2
    exit 2 ;;
esac

# The fuzz crate is its own workspace with its own target directory.
unset CARGO_TARGET_DIR
mkdir -p "corpus/$target"
assertions=(--debug-assertions)
[ "${FUZZ_DEBUG_ASSERTIONS:-1}" = 0 ] && assertions=()
RUSTC_BOOTSTRAP=1 exec cargo fuzz run \
  --sanitizer "${FUZZ_SANITIZER:-none}" "${assertions[@]}" \
  "$target" "corpus/$target" "${seeds[@]}" -- \
  -dict=json.dict -max_len=8192 -timeout=10 -rss_limit_mb=2048 \
  -max_total_time="$seconds" -print_final_stats=1 "$@"
