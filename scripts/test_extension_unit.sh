#!/usr/bin/env bash
# TypeScript suite: `tsc --noEmit` (as the test case "tsc --noEmit ...") plus the unit tests of the pure
# modules (no `vscode` import), run with node's test runner. Usage: test_extension_unit.sh OUT.xml
# The tests are bundled with esbuild without marking `vscode` external: a pure module that imports it
# fails the bundle step, loudly.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: $0 OUT.xml}
mkdir -p "$(dirname "$out")"
rm -f "$out"
build=build/ts-unit
fail_report() { # writes a one-case failing report so the summary counts it
  python3 - "$out" "$1" <<'PY'
import sys
from xml.sax.saxutils import escape
out, msg = sys.argv[1], sys.argv[2]
open(out, "w").write(f'<?xml version="1.0"?>\n<testsuites><testsuite name="typescript" tests="1" failures="1">'
  f'<testcase name="typescript suite setup" classname="typescript"><failure message="{escape(msg, {chr(34): "&quot;"})}"/></testcase></testsuite></testsuites>\n')
PY
}
bash scripts/setup_node.sh || { fail_report "npm ci failed"; echo "typescript: npm ci failed" >&2; exit 1; }
rm -rf "$build"
tests=(tests/extension/*.test.ts)
if ! npx --no-install esbuild "${tests[@]}" --bundle --platform=node --format=cjs --target=node20 \
     --outdir="$build" --log-level=warning; then
  fail_report "esbuild could not bundle the unit tests (does a pure module import vscode?)"
  echo "typescript: bundling the unit tests failed" >&2
  exit 1
fi
SHARPBITS_REPO=$PWD node --test --test-reporter=spec --test-reporter-destination=stdout \
  --test-reporter=junit --test-reporter-destination="$out" "$build"/*.test.js
