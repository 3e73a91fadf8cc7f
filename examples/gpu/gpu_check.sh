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
exec > >(tee "$OUT/00_gpu_check.log") 2>&1   # everything printed is also kept in one log
export PYTHONPATH="$PWD/server${PYTHONPATH:+:$PYTHONPATH}"
export PYTHONUNBUFFERED=1
unset JAX_PLATFORMS SHARPBITS_RUNTIME_OPTIONS
step() { echo; echo "=== $1"; }
started=$(date +%s)

step "nvidia-smi -L"
{ nvidia-smi -L; nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv; } \
  2>&1

step "jax.devices()"
timeout 90 "$PY" - 2>&1 <<'PYEOF'
import sys, jax
print("python", sys.version.split()[0], "jax", jax.__version__)
print("devices", jax.devices())
print("device_kind", jax.devices()[0].device_kind, "platform", jax.devices()[0].platform)
PYEOF

step "which of our modules the trace and run CLI paths import (pygls/lsprotocol/libcst must not be needed)"
timeout 60 "$PY" - 2>&1 <<'PYEOF'
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

step "sharpbits trace (f32 matmul-heavy jitted function): device kind, timings, cost, roofline, compile split"
timeout 150 "$PY" -m sharpbits trace examples/gpu/matmul_roofline.py::mlp_block --show cost,timing,lines \
  --budget 1 --timeout 120 > "$OUT/01_trace_f32.txt" 2>&1
echo "exit $?" >> "$OUT/01_trace_f32.txt"
cat "$OUT/01_trace_f32.txt"

step "sharpbits trace (bf16), as JSON; roofline percent of peak"
timeout 150 "$PY" -m sharpbits trace examples/gpu/matmul_roofline.py::mlp_block_bf16 --show cost,timing \
  --budget 1 --timeout 120 --format json > "$OUT/02_trace_bf16.json"
echo "exit $?"
timeout 30 "$PY" - "$OUT/02_trace_bf16.json" 2>&1 <<'PYEOF'
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
for f in "$OUT/01_trace_f32.txt"; do
  grep -Eo "[0-9.]+% of peak" "$f" | while read -r pct _; do
    v=${pct%\%}; awk -v v="$v" 'BEGIN { if (v > 100) print "ROOFLINE OVER 100%: " v "%"; else print "roofline " v "% of peak (<= 100%: ok)" }'
  done
done

step "XLA's cost analysis before and after optimization (on GPU a matmul becomes a cuBLAS custom call)"
timeout 120 "$PY" - 2>&1 <<'PYEOF'
import sys
sys.path.insert(0, "examples/gpu")
import jax, jax.numpy as jnp
from matmul_roofline import mlp_block
args = [jax.ShapeDtypeStruct((4096, 4096), jnp.float32)] * 3
lowered = mlp_block.lower(*args)
before = lowered.cost_analysis() or {}
after = lowered.compile().cost_analysis() or {}
after = after[0] if isinstance(after, list) else after
matmuls = 2 * 2 * 4096 ** 3
print(f"two 4096^3 matmuls: {matmuls / 1e9:.1f} Gflop")
print(f"cost_analysis before optimization: {before.get('flops', 0) / 1e9:.1f} Gflop; "
      f"after (what trace shows): {after.get('flops', 0) / 1e9:.3f} Gflop")
PYEOF

step "sharpbits run (text): a jitted step compiled for 4 batch shapes, a PRNGKey reused"
timeout 150 "$PY" -m sharpbits run -- "$PY" examples/gpu/recompile_and_key_reuse.py > "$OUT/03_run_text.txt" 2>&1
echo "exit $?" >> "$OUT/03_run_text.txt"
cat "$OUT/03_run_text.txt"

step "sharpbits run (json)"
timeout 150 "$PY" -m sharpbits run --format json -o "$OUT/04_run.json" -- "$PY" examples/gpu/recompile_and_key_reuse.py \
  > /dev/null 2>&1
echo "exit $?"
timeout 30 "$PY" - "$OUT/04_run.json" <<'PYEOF'
import json, sys
findings = json.load(open(sys.argv[1]))
for f in findings:
    print(f"{f['code']} {f['path']}:{f['line']} count={f['count']} static={f['static']}: {f['message'][:160]}")
codes = sorted({f["code"] for f in findings})
print("codes", codes, "- expected SB201 and SB601:", "ok" if {"SB201", "SB601"} <= set(codes) else "MISSING")
PYEOF

step "done in $(( $(date +%s) - started )) s; files in $OUT"
ls -la "$OUT"
