#!/usr/bin/env bash
# `make test`: installs what is missing, runs every suite, prints one closing line `N passed, N failed`.
# Suites write JUnit XML into build/test-results/; scripts/summarize_tests.py adds them up.
set -uo pipefail
cd "$(dirname "$0")/.."
results=build/test-results
rm -rf "$results"; mkdir -p "$results"

bash scripts/setup_python.sh || { echo "setup of .venv failed"; echo "0 passed, 1 failed"; exit 1; }
bash scripts/setup_node.sh || { echo "setup of node modules failed"; echo "0 passed, 1 failed"; exit 1; }
bash scripts/setup_ssh.sh  # OpenSSH for the launch-prefix tests (tests/ssh/); never fails the run
bash scripts/setup_editor.sh || { echo "setup of code-server/chromium failed"; echo "0 passed, 1 failed"; exit 1; }

echo "== python: unit, rules, CLI, language server over stdio"
.venv/bin/python -m pytest -q -p no:cacheprovider --junitxml="$results/python.xml" || true

echo "== typescript: type-check and unit tests"
bash scripts/test_extension_unit.sh "$results/typescript.xml" || true

echo "== real editor: code-server + headless chromium"
bash scripts/test_e2e.sh "$results/e2e.xml" || true

echo "== summary"
.venv/bin/python scripts/summarize_tests.py "$results"/*.xml --expect python --expect typescript --expect e2e
