#!/usr/bin/env bash
# Builds dist/sharpbits-<version>.vsix: the esbuild bundle plus the sharpbits wheel (pure Python,
# py3-none-any) under extension/bundled/, which the preflight's install command points at, so installing
# the server needs the .vsix only (pip still fetches pygls/libcst/... from the index).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup_python.sh
bash scripts/setup_node.sh
version=$(node -p 'require("./package.json").version')
pyversion=$(.venv/bin/python -c 'import tomllib; print(tomllib.load(open("pyproject.toml","rb"))["project"]["version"])')
if [[ $version != "$pyversion" ]]; then
  echo "build_vsix: package.json version $version differs from pyproject.toml version $pyversion" >&2
  exit 1
fi

rm -rf extension/bundled && mkdir -p extension/bundled
# With build isolation: pyproject.toml asks for setuptools>=69, newer than a fresh venv's.
.venv/bin/python -m pip wheel -q --disable-pip-version-check --no-deps -w extension/bundled . 2>&1 \
  | grep -vE "BuildBackendWarning|^\s*$|^ +(!!|\*+|Please|By 20|or your|See https|return|corresp)" >&2 || true
wheel=(extension/bundled/sharpbits-"$version"-py3-none-any.whl)
[[ -f ${wheel[0]} ]] || { echo "build_vsix: no pure-Python wheel was built (${wheel[0]})" >&2; exit 1; }

# SHARPBITS_TEST_HOOKS=1 (the end-to-end suite): a build with the test hooks (e2eReport), named -test-hooks.vsix;
# the shipped build leaves them out of the bundle entirely.
suffix="" build=build
if [[ ${SHARPBITS_TEST_HOOKS:-0} == 1 ]]; then suffix="-test-hooks" build=build:test-hooks; fi
npm run --silent "$build" -- --minify --log-level=warning
npx --no-install tsc --noEmit -p extension

mkdir -p dist
rm -f "dist/sharpbits-$version$suffix.vsix"
# The extension page shows extension/README.md (a user's page: what it does, screenshots, settings), not the
# repository's README (the developers'); its images are under extension/images/ and ship in the .vsix.
CI=true npx --no-install vsce package --no-dependencies --skip-license --allow-missing-repository \
  --no-rewrite-relative-links --readme-path extension/README.md -o "dist/sharpbits-$version$suffix.vsix" </dev/null >&2
echo "dist/sharpbits-$version$suffix.vsix"
