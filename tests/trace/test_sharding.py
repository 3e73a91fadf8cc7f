"""Sharding on CPU with 8 host devices (XLA_FLAGS, inherited by the worker): each argument's and result's
sharding as a device grid, and the collectives of the optimized HLO with their bytes and source lines."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from sharpbits.trace import protocol, schema

EXE = Path(sys.executable).with_name("sharpbits")
DOC = '''import jax
import jax.numpy as jnp
from jax.sharding import AxisType, NamedSharding
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((4, 2), ("x", "y"), axis_types=(AxisType.Auto, AxisType.Auto))
rows = NamedSharding(mesh, P("x", None))


# sharpbits: trace(a=f32[16,8] @ rows)
def gram_rows(a):
    a = jax.lax.with_sharding_constraint(a, NamedSharding(mesh, P("x", "y")))
    b = jnp.sin(a) @ a.T
    return jax.lax.with_sharding_constraint(b.sum(axis=0), NamedSharding(mesh, P()))


# sharpbits: trace(a=f32[16,8] @ mesh)
def wrong(a):
    return a


# sharpbits: trace(a=f32[16,8])
def local(a):
    return a * 2
'''


@pytest.fixture(scope="module")
def doc(tmp_path_factory):
    folder = tmp_path_factory.mktemp("sharding")
    (folder / "sharded.py").write_text(DOC)
    return folder


def trace(doc: Path, function: str, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "XLA_FLAGS": "--xla_force_host_platform_device_count=8",
           "SHARPBITS_JAX_CACHE": str(doc / "cache")}
    return subprocess.run([str(EXE), "trace", f"sharded.py::{function}", "--show", "sharding", *args],
                          capture_output=True, text=True, cwd=doc, env=env, timeout=300)


def test_device_grids_and_collectives_in_json(doc):
    p = trace(doc, "gram_rows", "--format", "json")
    assert p.returncode == 0, p.stderr
    result = json.loads(p.stdout)
    assert schema.problems(result, protocol.TraceResult) == []
    sharding = result["sharding"]
    assert sharding["device_count"] == 8
    (a,) = sharding["arguments"]
    assert a["name"] == "a" and a["spec"] == "P('x', None)" and a["devices"] == 8 and not a["replicated"]
    assert a["grid"] == {"rows": [[0, 4], [4, 8], [8, 12], [12, 16]], "cols": [[0, 8]],
                         "cells": [[[0, 1]], [[2, 3]], [[4, 5]], [[6, 7]]]}
    (out,) = sharding["results"]
    assert out["spec"] == "P()" and out["replicated"] and out["grid"]["cells"] == [[list(range(8))]]
    collectives = result["collectives"]
    assert {c["op"] for c in collectives} >= {"all-reduce"}
    assert all(c["line"] in (13, 14) and c["bytes"] > 0 for c in collectives)
    # the final sum over the rows is an all-reduce of the f32[16] result: 64 bytes, at the line of the sum
    assert {"op": "all-reduce", "bytes": 64, "line": 14} in [{k: c[k] for k in ("op", "bytes", "line")}
                                                            for c in collectives]


def test_text_draws_the_grid_and_lists_the_collectives(doc):
    p = trace(doc, "gram_rows")
    assert p.returncode == 0, p.stderr
    assert "sharding: 8 devices" in p.stdout and "argument a: float32[16, 8] P('x', None)" in p.stdout
    assert "0:4  0,1" in p.stdout and "12:16  6,7" in p.stdout
    assert "collectives: " in p.stdout and "64 B  line   14 |" in p.stdout


def test_one_device_and_a_wrong_sharding_name(doc):
    p = trace(doc, "local")
    assert p.returncode == 0, p.stderr
    assert "sharding: every argument and result sits on one device" in p.stdout
    bad = trace(doc, "wrong", "--format", "json")
    assert bad.returncode == 1
    error = json.loads(bad.stdout)["error"]
    assert error["type"] == "TypeError" and "'mesh' in the spec is a Mesh, not a jax.sharding.Sharding" in error["message"]
