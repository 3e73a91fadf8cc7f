#!/usr/bin/env bash
# The device check of `sharpbits trace` and `sharpbits run` on an accelerator (issue 25's "runs where the
# accelerator is"). Run from the repository root on a machine with an NVIDIA GPU where `python3` has JAX with
# CUDA; nothing is installed (sharpbits runs from server/ via PYTHONPATH; pygls, lsprotocol and libcst are not
# needed). Writes everything under $OUT (default: ./gpu-check-out) and prints a summary; about 1-2 minutes.
#
# A copy is committed as examples/gpu/gpu_check.sh (with the two example programs it runs).
#
#   OUT=/tmp/out bash examples/gpu/gpu_check.sh          # or PYTHON=/path/to/python bash ...
set -u
[ -d server/sharpbits ] && [ -f examples/gpu/matmul_roofline.py ] || {
  echo "run from the sharpbits repository root (server/sharpbits and examples/gpu/ needed)"; exit 2; }
OUT=${OUT:-$PWD/gpu-check-out}
PY=${PYTHON:-python3}
mkdir -p "$OUT"
export PYTHONPATH="$PWD/server${PYTHONPATH:+:$PYTHONPATH}"
export PYTHONUNBUFFERED=1
unset JAX_PLATFORMS SHARPBITS_RUNTIME_OPTIONS
step() { echo; echo "=== $1"; }
started=$(date +%s)

step "nvidia-smi -L"
{ nvidia-smi -L; nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv; } \
  > "$OUT/01_nvidia_smi.txt" 2>&1
cat "$OUT/01_nvidia_smi.txt"

step "jax.devices()"
timeout 90 "$PY" - > "$OUT/02_jax_devices.txt" 2>&1 <<'PYEOF'
import sys, jax
print("python", sys.version.split()[0], "jax", jax.__version__)
print("devices", jax.devices())
print("device_kind", jax.devices()[0].device_kind, "platform", jax.devices()[0].platform)
PYEOF
cat "$OUT/02_jax_devices.txt"

step "which of our modules the trace and run CLI paths import (pygls/lsprotocol/libcst must not be needed)"
timeout 60 "$PY" - > "$OUT/03_imports.txt" 2>&1 <<'PYEOF'
import sys
import sharpbits.cli, sharpbits.trace.cli, sharpbits.trace.client, sharpbits.trace.render, sharpbits.trace.roofline
import sharpbits.runtime.command, sharpbits.runtime.report, sharpbits.output_formats
import sharpbits.analysis.engine, sharpbits.check_command, sharpbits.config
heavy = [m for m in ("pygls", "lsprotocol", "libcst", "jax") if m in sys.modules]
print("imported by the trace/run CLI modules:", heavy or "none of pygls/lsprotocol/libcst/jax")
for name in ("pygls", "lsprotocol", "libcst"):
    try:
        __import__(name)
        print(name, "available (not needed)")
    except ImportError:
        print(name, "absent")
PYEOF
cat "$OUT/03_imports.txt"

step "sharpbits trace (f32 matmul-heavy jitted function): device kind, timings, cost, roofline, compile split"
timeout 150 "$PY" -m sharpbits trace examples/gpu/matmul_roofline.py::mlp_block --show cost,timing,lines \
  --budget 1 --timeout 120 > "$OUT/04_trace_f32.txt" 2>&1
echo "exit $?" >> "$OUT/04_trace_f32.txt"
cat "$OUT/04_trace_f32.txt"

step "sharpbits trace (bf16), as JSON; roofline percent of peak"
timeout 150 "$PY" -m sharpbits trace examples/gpu/matmul_roofline.py::mlp_block_bf16 --show cost,timing \
  --budget 1 --timeout 120 --format json > "$OUT/05_trace_bf16.json" 2> "$OUT/05_trace_bf16.stderr"
echo "exit $?" >> "$OUT/05_trace_bf16.stderr"
timeout 30 "$PY" - "$OUT/05_trace_bf16.json" > "$OUT/05_trace_bf16_summary.txt" 2>&1 <<'PYEOF'
import json, sys
r = json.load(open(sys.argv[1]))
print("device", r.get("device"))
print("error", r.get("error"))
print("timings", json.dumps(r.get("timings"))[:900])
print("cost", json.dumps(r.get("cost"))[:600])
roof = r.get("roofline") or {}
print("roofline", json.dumps(roof)[:900])
if "fraction_of_peak" in roof:
    pct = 100 * roof["fraction_of_peak"]
    print(f"bf16 roofline: {roof.get('bound')}-bound, {pct:.1f}% of peak", "(<= 100%: ok)" if pct <= 100 else "OVER 100%")
PYEOF
cat "$OUT/05_trace_bf16_summary.txt" "$OUT/05_trace_bf16.stderr"
for f in "$OUT/04_trace_f32.txt"; do
  grep -Eo "[0-9.]+% of peak" "$f" | while read -r pct _; do
    v=${pct%\%}; awk -v v="$v" 'BEGIN { if (v > 100) print "ROOFLINE OVER 100%: " v "%"; else print "roofline " v "% of peak (<= 100%: ok)" }'
  done
done | tee "$OUT/06_roofline_check.txt"

step "sharpbits run (text): a jitted step compiled for 4 batch shapes, a PRNGKey reused"
timeout 150 "$PY" -m sharpbits run -- "$PY" examples/gpu/recompile_and_key_reuse.py > "$OUT/07_run_text.stdout" \
  2> "$OUT/07_run_text.stderr"
echo "exit $?" >> "$OUT/07_run_text.stderr"
cat "$OUT/07_run_text.stdout" "$OUT/07_run_text.stderr"

step "sharpbits run (json)"
timeout 150 "$PY" -m sharpbits run --format json -o "$OUT/08_run.json" -- "$PY" examples/gpu/recompile_and_key_reuse.py \
  > "$OUT/08_run_json.stdout" 2>&1
echo "exit $?" >> "$OUT/08_run_json.stdout"
timeout 30 "$PY" - "$OUT/08_run.json" <<'PYEOF' | tee "$OUT/08_run_summary.txt"
import json, sys
findings = json.load(open(sys.argv[1]))
for f in findings:
    print(f"{f['code']} {f['path']}:{f['line']} count={f['count']} static={f['static']}: {f['message'][:160]}")
codes = sorted({f["code"] for f in findings})
print("codes", codes, "- expected SB201 and SB601:", "ok" if {"SB201", "SB601"} <= set(codes) else "MISSING")
PYEOF

step "done in $(( $(date +%s) - started )) s; files in $OUT"
ls -la "$OUT"
