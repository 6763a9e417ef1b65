#!/usr/bin/env bash
# Baseline C (not part of CI): installs pydantic into a virtualenv beside this
# script and times it on the documents of benches/documents.json.
# Usage: benches/pydantic/run.sh [CONTRACT ...]   (default: all six)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
venv="$here/.venv"
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet "pydantic>=2,<3"
fi
exec "$venv/bin/python" "$here/bench.py" "$@"
