#!/usr/bin/env bash
# Real-editor suite: packages the .vsix, installs it into a fresh code-server, opens a temporary copy of
# examples/ and drives headless Chromium with playwright-core (tests/e2e/*.test.ts, node:test).
# Usage: test_e2e.sh OUT.xml   (always writes OUT.xml: a failed setup becomes a failing test case)
# Everything runs under a per-run folder (HOME, XDG_*, TMPDIR, user data, extensions); code-server and the
# test runner are started with setsid and their process groups are killed on exit, whatever happens.
# SB_E2E_TEST_PATTERN (a regular expression) runs only the tests whose names match it (node --test-name-pattern).
# SHARPBITS_E2E_PYTHON overrides the interpreter written into sharpbits.interpreter (default: .venv/bin/python).
set -uo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=editor_env.sh
source scripts/editor_env.sh
out=${1:?usage: $0 OUT.xml}
mkdir -p "$(dirname "$out")"
out=$(cd "$(dirname "$out")" && pwd)/$(basename "$out")
rm -f "$out"
artifacts=$REPO_ROOT/artifacts/e2e
rm -rf "$artifacts" && mkdir -p "$artifacts"
python=${SHARPBITS_E2E_PYTHON:-$REPO_ROOT/.venv/bin/python}

fail_report() { # $1 = what failed; writes a one-case failing report so the summary counts it
  python3 - "$out" "$1" "$artifacts" <<'PY'
import sys
from xml.sax.saxutils import escape, quoteattr
out, msg, logs = sys.argv[1:4]
open(out, "w").write('<?xml version="1.0"?>\n<testsuites><testsuite name="e2e" tests="1" failures="1">'
  f'<testcase name="e2e setup" classname="e2e"><failure message={quoteattr(msg)}>{escape(msg)} (logs: {escape(logs)})</failure>'
  '</testcase></testsuite></testsuites>\n')
PY
  echo "e2e: $1" >&2
}

run=$(mktemp -d "${TMPDIR:-/tmp}/sharpbits-e2e.XXXXXX")
cs_pid="" cs2_pid="" test_pid=""
kill_group() { # $1 = leader pid of a setsid group
  [[ -n $1 ]] || return 0
  kill -TERM -- "-$1" 2>/dev/null || return 0
  for _ in $(seq 50); do kill -0 -- "-$1" 2>/dev/null || return 0; sleep 0.1; done
  kill -KILL -- "-$1" 2>/dev/null || true
}
cleanup() {
  kill_group "$test_pid"
  kill_group "$cs_pid"
  kill_group "$cs2_pid"
  # playwright starts Chromium in a process group of its own; find what is left of this run by its folder.
  local pids=() p
  for p in /proc/[0-9]*; do
    grep -qsF -- "$run" "$p/cmdline" && pids+=("${p#/proc/}")
  done
  ((${#pids[@]})) && kill -KILL "${pids[@]}" 2>/dev/null
  cp -f "$run"/code-server*.log "$run"/*report.json "$artifacts"/ 2>/dev/null
  n=0; while IFS= read -r log; do n=$((n+1)); cp -f "$log" "$artifacts/extension-output-$n.log"; [[ $n == 1 ]] && cp -f "$log" "$artifacts/extension-output.log"; done < <(find "$run/user-data/logs" -name '*JAX Sharp Bits*' 2>/dev/null)
  rm -rf "$run"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

bash scripts/setup_editor.sh || { fail_report "setup_editor.sh failed"; exit 1; }
vsix=$(SHARPBITS_TEST_HOOKS=1 bash scripts/build_vsix.sh | tail -1) && [[ -f $vsix ]] || { fail_report "build_vsix.sh failed"; exit 1; }
npx --no-install esbuild tests/e2e/*.test.ts --bundle --platform=node --format=cjs --target=node20 \
  --external:playwright-core --outdir=build/e2e --log-level=warning || { fail_report "bundling tests/e2e failed"; exit 1; }

mkdir -p "$run"/{home,config,data,cache,tmp,user-data,extensions,workspace}
# the trace worker's kept CPU peak: known figures, so which side of the roofline's ridge a function falls on does
# not depend on how busy this machine was when it measured (tests/trace/known_peak.py)
"$python" tests/trace/known_peak.py "$run/cache/sharpbits/jax-cache" >/dev/null \
  || { fail_report "tests/trace/known_peak.py failed"; exit 1; }
cp -r examples "$run/workspace/examples"
export HOME=$run/home XDG_CONFIG_HOME=$run/config XDG_DATA_HOME=$run/data XDG_CACHE_HOME=$run/cache TMPDIR=$run/tmp
export PATH="$EDITOR_NODE_BIN:$PATH"
cs_args=(--user-data-dir "$run/user-data" --extensions-dir "$run/extensions")
"$CODE_SERVER" "${cs_args[@]}" --install-extension "$REPO_ROOT/$vsix" >"$run/install.log" 2>&1 \
  || { cp "$run/install.log" "$artifacts/"; fail_report "code-server --install-extension failed"; exit 1; }
write_editor_settings "$run/user-data" "$python"

port=$(free_port)
SHARPBITS_E2E_REPORT=$run/report.json setsid "$CODE_SERVER" "${cs_args[@]}" --bind-addr "127.0.0.1:$port" \
  --auth none --disable-telemetry --disable-update-check --disable-getting-started-override \
  --disable-workspace-trust "$run/workspace/examples" >"$run/code-server.log" 2>&1 </dev/null &
cs_pid=$!
wait_healthy "$port" "$cs_pid" || { fail_report "code-server did not become healthy on port $port"; exit 1; }
echo "e2e: code-server pid $cs_pid on 127.0.0.1:$port; workspace $run/workspace/examples" >&2

# A second code-server with Workspace Trust on, for tests/e2e/untrusted.test.ts (its own user data, settings
# and copy of the examples: the folder starts untrusted).
mkdir -p "$run"/{user-data-untrusted,workspace-untrusted,markers}
cp -r examples "$run/workspace-untrusted/examples"
# Modules named like what the server, the preflight and the worker import: each writes a marker if imported.
for name in json enum uuid typing_extensions typing re logging asyncio dataclasses pathlib inspect importlib \
            runpy warnings contextlib pygls lsprotocol cattrs attrs libcst tomli sharpbits; do
  printf 'open(%s, "w").close()\n' "'$run/markers/$name'" > "$run/workspace-untrusted/examples/$name.py"
done
write_editor_settings "$run/user-data-untrusted" "$python"
sed -i 's/"security.workspace.trust.enabled": false/"security.workspace.trust.enabled": true/' "$run/user-data-untrusted/User/settings.json"
port2=$(free_port)
SHARPBITS_E2E_REPORT=$run/untrusted-report.json setsid "$CODE_SERVER" --user-data-dir "$run/user-data-untrusted" \
  --extensions-dir "$run/extensions" --bind-addr "127.0.0.1:$port2" --auth none --disable-telemetry \
  --disable-update-check --disable-getting-started-override "$run/workspace-untrusted/examples" \
  >"$run/code-server-untrusted.log" 2>&1 </dev/null &
cs2_pid=$!
wait_healthy "$port2" "$cs2_pid" || { fail_report "the untrusted code-server did not become healthy"; exit 1; }

SB_E2E_URL="http://127.0.0.1:$port/?folder=$run/workspace/examples" SB_E2E_WORKSPACE="$run/workspace/examples" \
SB_E2E_REPORT="$run/report.json" SB_E2E_ARTIFACTS="$artifacts" SB_E2E_PYTHON="$python" CHROMIUM="$CHROMIUM" \
SB_E2E_UNTRUSTED_URL="http://127.0.0.1:$port2/?folder=$run/workspace-untrusted/examples" \
SB_E2E_UNTRUSTED_REPORT="$run/untrusted-report.json" SB_E2E_UNTRUSTED_PID="$cs2_pid" \
SB_E2E_UNTRUSTED_WORKSPACE="$run/workspace-untrusted/examples" SB_E2E_MARKERS="$run/markers" \
  setsid node --test --test-concurrency=1 --test-timeout=180000 ${SB_E2E_TEST_PATTERN:+"--test-name-pattern=$SB_E2E_TEST_PATTERN"} --test-reporter=spec --test-reporter-destination=stdout \
  --test-reporter=junit --test-reporter-destination="$out" build/e2e/*.test.js </dev/null &
test_pid=$!
wait "$test_pid"; rc=$?
test_pid=""
[[ -s $out ]] || fail_report "the e2e test runner wrote no report (exit $rc)"
exit "$rc"
