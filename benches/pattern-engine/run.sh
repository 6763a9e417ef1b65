#!/bin/bash
# regex-lite (shipped) against regex as the `pattern` engine: clean debug
# build of contract-core (twice each, alternating), then a release probe
# (binary size, first-use compile time, ns per match on the tests' patterns).
# Works on two copies of the committed tree under $OUT (default /tmp/pattern-engine).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${OUT:-/tmp/pattern-engine}
rm -rf "$OUT" && mkdir -p "$OUT"
for v in lite regex; do
  mkdir -p "$OUT/$v"
  (cd "$ROOT" && git ls-files -z | xargs -0 -I{} cp --parents {} "$OUT/$v/")
  mkdir -p "$OUT/$v/contract-core/examples"
  cp "$ROOT/benches/pattern-engine/probe.rs" "$OUT/$v/contract-core/examples/engine_probe.rs"
done
# The regex copy: same code, `regex::Regex` for `regex_lite::Regex`.
cd "$OUT/regex"
sed -i 's/^regex-lite = "0.1"$/regex-lite = "0.1"\nregex = "1"/' Cargo.toml
sed -i 's/^regex-lite.workspace = true$/regex.workspace = true/' contract-core/Cargo.toml
sed -i 's/regex_lite::/regex::/g' contract-core/src/decode/formats.rs
for round in 1 2; do
  for v in lite regex; do
    rm -rf "$OUT/t-$v"
    cd "$OUT/$v"
    echo "== $v round $round, load $(cut -d' ' -f1-3 /proc/loadavg)"
    /usr/bin/time -f "$v build: %e s wall, %U s user, %S s sys" \
      cargo build -q -p contract-core --target-dir "$OUT/t-$v"
  done
done
for v in lite regex; do
  cd "$OUT/$v"
  cargo build -q --release -p contract-core --example engine_probe --target-dir "$OUT/r-$v"
  cp "$OUT/r-$v/release/examples/engine_probe" "$OUT/probe-$v" && strip "$OUT/probe-$v"
  echo "$v probe: $(stat -c %s "$OUT/r-$v/release/examples/engine_probe") bytes, $(stat -c %s "$OUT/probe-$v") stripped"
  for _ in 1 2 3; do "$OUT/probe-$v"; done
done
