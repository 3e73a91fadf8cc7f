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

mkdir -p dist build/vsix
rm -f "dist/sharpbits-$version$suffix.vsix"
# The extension page shows extension/README.md (a user's page: what it does, screenshots, settings), not the
# repository's README (the developers'). An extension's page shows only https: images (VS Code's sanitizer drops
# a relative path or a data: URI from it: checked by tests/e2e/extension_page.test.ts), and there is no public
# host for them. So the packaged copy keeps a screenshot only where SHARPBITS_README_IMAGES_URL (an https: folder
# holding extension/images/*.png, e.g. where a release publishes them) says where it is; otherwise it leaves the
# screenshots out, and the page shows no broken image.
.venv/bin/python - extension/README.md build/vsix/README.md "${SHARPBITS_README_IMAGES_URL:-}" <<'PY'
import pathlib, re, sys
source, target, base = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]), sys.argv[3].rstrip("/")
if base and not base.startswith("https://"):
    sys.exit(f"build_vsix: SHARPBITS_README_IMAGES_URL must be an https: URL (the page shows no other), not {base}")
image = re.compile(r"!\[((?:[^\]`]|`[^`]*`)*)\]\((extension/images/([\w.-]+\.png))\)")
def place(m):
    if not pathlib.Path(m.group(2)).is_file():
        sys.exit(f"build_vsix: {source} shows {m.group(2)}, which does not exist")
    return f"![{m.group(1)}]({base}/{m.group(3)})" if base else ""
text, n = image.subn(place, source.read_text())
if re.search(r"!\[(?:[^\]`]|`[^`]*`)*\]\((?!https://)", text):
    sys.exit(f"build_vsix: {source} shows an image that is neither under extension/images/ nor https:")
target.write_text(re.sub(r"\n{3,}", "\n\n", text))
print(f"build_vsix: {n} README screenshots " + (f"linked to {base}" if base else "left out (no SHARPBITS_README_IMAGES_URL)"), file=sys.stderr)
PY
CI=true npx --no-install vsce package --no-dependencies --skip-license --allow-missing-repository \
  --no-rewrite-relative-links --readme-path build/vsix/README.md -o "dist/sharpbits-$version$suffix.vsix" </dev/null >&2
echo "dist/sharpbits-$version$suffix.vsix"
