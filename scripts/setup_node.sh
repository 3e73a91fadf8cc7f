#!/usr/bin/env bash
# Installs the extension's pinned dev dependencies with `npm ci`. A no-op when node_modules is newer than
# package-lock.json (npm writes node_modules/.package-lock.json on every install).
set -euo pipefail
cd "$(dirname "$0")/.."
stamp=node_modules/.package-lock.json
if [[ -f $stamp && $stamp -nt package-lock.json && $stamp -nt package.json ]]; then
  exit 0
fi
echo "setup_node: npm ci" >&2
CI=true npm ci --no-audit --no-fund --loglevel=error </dev/null >&2
touch "$stamp"
