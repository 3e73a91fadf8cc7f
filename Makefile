# Entry points. Each target installs what it needs on a fresh machine and reuses caches after that.
SHELL := /bin/bash

.PHONY: test editor vsix lint setup docs bench clean

## Run every test suite (Python, language server over stdio, TypeScript, real editor); ends with "N passed, N failed".
test:
	@bash scripts/test.sh

## Launch a real VS Code (code-server) on 127.0.0.1 with the extension and examples/ open. Ctrl+C stops it.
editor:
	@bash scripts/editor.sh

## Build the VS Code extension package (.vsix) into dist/.
vsix:
	@bash scripts/setup_node.sh && bash scripts/build_vsix.sh

## ruff + mypy on the Python package, tsc --noEmit on the client.
lint:
	@bash scripts/setup_python.sh && bash scripts/setup_node.sh
	.venv/bin/ruff check server tests bench
	.venv/bin/mypy
	npx --no-install tsc --noEmit -p extension

## Create .venv with the package installed editable.
setup:
	@bash scripts/setup_python.sh

clean:
	rm -rf build dist artifacts extension/out

## Print the benchmark figures (ratios measured in one run): speed (also of notebooks), precision/recall, false alarms, loop rewrite, tracing; then the long fuzz run.
bench:
	@bash scripts/setup_python.sh
	.venv/bin/python bench/speed.py
	.venv/bin/python bench/incremental.py
	.venv/bin/python bench/notebook_speed.py
	.venv/bin/python bench/precision_recall.py
	.venv/bin/python bench/realcode.py
	.venv/bin/python bench/realistic_findings.py
	.venv/bin/python bench/fori_loop_compile.py
	.venv/bin/python bench/trace_overhead.py
	.venv/bin/python bench/trace_timing.py
	.venv/bin/python bench/fuzz.py

## Regenerate docs/rules/ from the rules.
docs:
	@bash scripts/setup_python.sh
	.venv/bin/python -m sharpbits.docs
