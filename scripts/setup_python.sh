#!/usr/bin/env bash
# Creates .venv at the repository root with sharpbits installed editable plus the test tools.
# Re-running is a no-op unless pyproject.toml changed.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
stamp=.venv/.sharpbits-installed
if [[ -x .venv/bin/python && -f $stamp && $stamp -nt pyproject.toml ]]; then
  exit 0
fi
echo "setup: creating .venv and installing sharpbits[dev] (first run downloads JAX, ~1-2 min)" >&2
[[ -x .venv/bin/python ]] || "$PY" -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check --upgrade pip 2>&1 | grep -v "^WARNING: Location" || true
.venv/bin/python -m pip install -q --disable-pip-version-check -e ".[dev]" 2>&1 | grep -v "^WARNING: Location" || true
.venv/bin/python -c "import sharpbits, pygls, libcst, jax" # fails loudly if the install did not work
touch "$stamp"
