#!/usr/bin/env bash
# `make editor`: the main job. On a fresh machine installs what is missing (.venv, node modules, Chromium's
# dependencies, Node 24 and code-server), builds the .vsix, installs it into a code-server kept under .cache/,
# and serves the real VS Code workbench on 127.0.0.1 with examples/ open and sharpbits.interpreter set to the
# project's .venv. Runs until Ctrl+C, then stops everything it started.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=editor_env.sh
source scripts/editor_env.sh

bash scripts/setup_python.sh
bash scripts/setup_node.sh
bash scripts/setup_editor.sh
vsix=$(bash scripts/build_vsix.sh | tail -1)

state=$REPO_ROOT/.cache/editor-session
mkdir -p "$state"/{user-data,extensions,home,config,data,cache,tmp}
export HOME=$state/home XDG_CONFIG_HOME=$state/config XDG_DATA_HOME=$state/data XDG_CACHE_HOME=$state/cache TMPDIR=$state/tmp
export PATH="$EDITOR_NODE_BIN:$PATH"
cs_args=(--user-data-dir "$state/user-data" --extensions-dir "$state/extensions")
"$CODE_SERVER" "${cs_args[@]}" --force --install-extension "$REPO_ROOT/$vsix" >"$state/install.log" 2>&1 \
  || { cat "$state/install.log" >&2; echo "editor: installing $vsix failed" >&2; exit 1; }
write_editor_settings "$state/user-data" "$REPO_ROOT/.venv/bin/python"

port=${PORT:-8765}
if ! python3 -c "import socket,sys; s=socket.socket(); s.bind(('127.0.0.1', int(sys.argv[1])))" "$port" 2>/dev/null; then
  port=$(free_port)
fi
setsid "$CODE_SERVER" "${cs_args[@]}" --bind-addr "127.0.0.1:$port" --auth none --disable-telemetry \
  --disable-update-check --disable-getting-started-override "$REPO_ROOT/examples" >"$state/code-server.log" 2>&1 </dev/null &
cs_pid=$!
stop() {
  trap - INT TERM EXIT
  kill -TERM -- "-$cs_pid" 2>/dev/null || true
  for _ in $(seq 50); do kill -0 -- "-$cs_pid" 2>/dev/null || break; sleep 0.1; done
  kill -KILL -- "-$cs_pid" 2>/dev/null || true
  echo "editor: stopped" >&2
}
trap stop EXIT
trap 'exit 130' INT TERM
wait_healthy "$port" "$cs_pid" || { cat "$state/code-server.log" >&2; echo "editor: code-server did not start" >&2; exit 1; }
url="http://127.0.0.1:$port/?folder=$REPO_ROOT/examples"
echo
echo "JAX Sharp Bits is running in VS Code (code-server): $url"
echo "Open a file in examples/ to see the sharp bits; Ctrl+C stops the editor."
wait "$cs_pid"
