"""What a recompile finding says changed, from the signatures the agent records (no JAX needed), and how the
report merges the records of several processes."""

from __future__ import annotations

import json
from pathlib import Path

from sharpbits.runtime.agent import explain_recompiles
from sharpbits.runtime.report import findings_from_records, read_records


def sig(**parts: str) -> dict[str, str]:
    base = {"structure": "x,s", "shape:x": "(8,)", "dtype:x": "float32", "weak:x": "strong", "aval:x": "f32[8]",
            "shape:s": "()", "dtype:s": "float32", "weak:s": "strong", "aval:s": "f32[]"}
    base.update(parts)
    return base


def test_weak_type_change():
    changes, advice = explain_recompiles("f", [sig(), sig(**{"weak:s": "weak"})], 1)
    assert changes == ["argument `s` was a weakly typed Python scalar in some calls and a typed array in others"]
    assert "jnp.asarray(value, jnp.float32)" in advice[0]


def test_dtype_change():
    changes, _ = explain_recompiles("f", [sig(), sig(**{"dtype:x": "int32", "aval:x": "i32[8]"})], 1)
    assert changes == ["argument `x` changed dtype (float32, int32)"]


def test_static_argument_values():
    changes, advice = explain_recompiles("f", [sig(**{"static:n": str(n)}) for n in (1, 2, 3)], 1)
    assert changes == ["static argument `n` took 3 values (1, 2, 3)"]
    assert "traced (non-static) argument" in advice[0]


def test_a_new_function_object_each_time():
    changes, advice = explain_recompiles("<lambda>", [sig(), sig(), sig(), sig()], 4)
    assert changes == ["`jax.jit` was applied to 4 different function objects defined at the same place (a lambda "
                       "or inner function created again on each call or loop iteration)"]
    assert advice == ["hoist the `jax.jit` out of the loop (or the function called in it): create the jitted "
                      "function once and reuse it"]


def test_structure_change():
    changes, _ = explain_recompiles("f", [sig(), sig(structure="x,s,extra")], 1)
    assert changes[0].startswith("the structure of its arguments changed (2 different pytree structures)")


def test_nothing_the_user_passes_changed():
    changes, _ = explain_recompiles("f", [sig(), sig()], 1)
    assert "tracing context" in changes[0]


def _record(key: str, count: int, line: int = 3) -> dict[str, object]:
    return {"key": key, "count": count, "kind": "key-reuse", "code": "SB201", "rule": "prng-key-reuse",
            "severity": "warning", "message": "m", "related": [],
            "site": {"path": "/nowhere/prog.py", "line": line, "column": 1, "end_line": line, "end_column": 5}}


def test_records_last_line_per_key_summed_over_processes(tmp_path: Path):
    (tmp_path / "records-1.jsonl").write_text(
        json.dumps(_record("a", 1)) + "\n" + json.dumps(_record("a", 2)) + "\n" + '{"key": "a", "cou', encoding="utf-8")
    (tmp_path / "records-2.jsonl").write_text(json.dumps(_record("a", 4)) + "\n", encoding="utf-8")
    [record] = read_records(tmp_path)
    assert record["count"] == 6  # 2 (the last complete line of process 1) + 4; the cut-off line is skipped
    findings, notes = findings_from_records([record])
    assert notes == [] and findings[0].count == 6
    assert findings[0].static_checked is False  # the file does not exist: nothing said about static analysis
    assert findings[0].to_json()["static"] is None
