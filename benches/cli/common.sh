# Shared by the `contract-check` benchmarks (sourced, from the repository
# root): the binary to measure and the input they read.

# The release `contract-check`, built here unless CONTRACT_CHECK names
# another build to measure.
contract_check_bin() {
  if [ -n "${CONTRACT_CHECK:-}" ]; then
    echo "$CONTRACT_CHECK"
  else
    cargo build -q --release -p contract-examples --bin contract-check
    echo "${CARGO_TARGET_DIR:-$PWD/target}/release/contract-check"
  fi
}

# Writes at least SIZE_MB MiB of vacation lines (the shipped example file,
# repeated) to PATH.
make_input() {
  python3 - "$1" "$2" <<'PY'
import sys
path, size = sys.argv[1], int(sys.argv[2]) * 1024 * 1024
lines = open("examples/data/vacation.jsonl", "rb").read().splitlines(keepends=True)
block = b"".join(lines) * 64
with open(path, "wb") as f:
    written = 0
    while written < size:
        f.write(block)
        written += len(block)
PY
}
