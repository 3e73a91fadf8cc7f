"""`sharpbits trace` end to end through the installed console script (a fresh worker per run)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO, listing
from known_peak import keep_known_peak  # tests/trace is on sys.path, as for conftest

EXE = Path(sys.executable).with_name("sharpbits")


def sharpbits(*args: str, cwd: Path = REPO, env_extra: dict | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env.update(env_extra or {})
    return subprocess.run([str(EXE), "trace", *args], capture_output=True, text=True, cwd=cwd, env=env,
                          timeout=300)


@pytest.fixture(scope="module")
def cache_env(tmp_path_factory):
    cache = tmp_path_factory.mktemp("cli-cache")
    keep_known_peak(cache)  # the roofline's side of the ridge, whatever this machine would measure
    return {"SHARPBITS_JAX_CACHE": str(cache)}


def test_selu_text(cache_env):
    before = listing(REPO / "examples")
    p = sharpbits("examples/tracing_selu.py::selu", "--budget", "0.2", env_extra=cache_env)
    assert p.returncode == 0, p.stderr
    out = p.stdout
    assert "selu(x=f32[1000000])" in out and "directive on line" in out
    # the one count: jnp.where's own jit and its 6 equations... all 7 equations, nested included
    assert "jaxpr: 7 equations, nested jaxprs included (6 at the top level)" in out
    assert "memory-bound: " in out and "GB/s (cache)" in out  # 8 MiB fit in the caches: the cache's bandwidth
    assert "return lmbda * jnp.where" in out and "select_n" in out  # a source line with its primitives
    assert "steady state:" in out and "compile" in out and "eager" in out
    assert "cost:" in out and "Mflop" in out
    assert listing(REPO / "examples") == before


def test_selu_json_all(cache_env):
    p = sharpbits("examples/tracing_selu.py::selu", "--format", "json", "--show", "all", "--budget", "0.1",
                  "--no-eager", env_extra=cache_env)
    assert p.returncode == 0, p.stderr
    r = json.loads(p.stdout)
    assert r["ok"] and r["spec"]["source"] == "directive"
    assert {"jaxpr", "stablehlo", "hlo", "cost", "timings"} <= set(r)
    assert r["device"]["platform"] == "cpu"
    assert r["stablehlo"]["lines"] and r["hlo"]["lines"]
    assert r["timings"]["run"]["median_s"] > 0 and "eager" not in r["timings"]


def test_explicit_args_and_jax_error_exit_1(tmp_path, cache_env):
    f = tmp_path / "bad.py"
    f.write_text("import jax.numpy as jnp\n\ndef f(x):\n    if x.sum() > 0:\n        return x\n    return -x\n")
    p = sharpbits(f"{f}::f", "--args", "x=f32[3]", "--show", "jaxpr", env_extra=cache_env)
    assert p.returncode == 1
    assert "TracerBoolConversionError" in p.stdout and f"{f}:4" in p.stdout.replace(os.path.relpath(f), str(f))
    p = sharpbits(f"{f}::f", "--args", "x=f32[3]", "--show", "jaxpr", "--format", "json", env_extra=cache_env)
    assert p.returncode == 1
    err = json.loads(p.stdout)["error"]
    assert err["type"] == "TracerBoolConversionError" and err["line"] == 4
    assert listing(tmp_path) == {"bad.py"}


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["examples/tracing_selu.py"], "FILE::FUNCTION"),
        (["examples/tracing_selu.py::selu", "--args", "x=f32[n]"], "non-negative"),
        (["examples/tracing_selu.py::selu", "--show", "pictures"], "unknown --show"),
        (["examples/nope.py::selu"], "cannot read"),
        (["examples/tracing_selu.py::nothing_here"], "no argument spec"),
    ],
)
def test_usage_errors_exit_2(args, needle):
    p = sharpbits(*args)
    assert p.returncode == 2
    assert needle in p.stderr and p.stderr.startswith("sharpbits: error:")
    assert p.stdout == ""


def test_worker_failure_exit_2(tmp_path, cache_env):
    p = sharpbits("examples/tracing_selu.py::selu", "--interpreter", "/nonexistent/python", env_extra=cache_env)
    assert p.returncode == 2 and "WorkerStartError" in p.stderr and len(p.stderr.strip().splitlines()) == 1
    f = tmp_path / "slow.py"
    f.write_text("import time\n\ndef f(x):\n    time.sleep(60)\n")
    p = sharpbits(f"{f}::f", "--args", "x=f32[1]", "--timeout", "3", env_extra=cache_env)
    assert p.returncode == 2 and "Timeout" in p.stderr


def test_loops_example_fori_twin(cache_env):
    p = sharpbits("examples/tracing_loops.py::fori_twin", "--format", "json", "--show", "jaxpr,cost",
                  env_extra=cache_env)
    assert p.returncode == 0, p.stderr
    r = json.loads(p.stdout)
    assert r["jaxpr"]["eqns_top_level"] < 10 < r["jaxpr"]["eqns_leaves"] + 10
    assert r["jaxpr"]["eqns_leaves"] < r["jaxpr"]["eqns"]
    assert r["arguments"][1] == {"name": "steps", "static": True, "spec": "1000"}


def test_jit_alias_uses_the_wrapped_functions_directive(cache_env):
    p = sharpbits("examples/tracing_selu.py::selu_jit", "--show", "jaxpr", "--format", "json", env_extra=cache_env)
    assert p.returncode == 0, p.stderr
    r = json.loads(p.stdout)
    assert r["jitted_by_user"] and r["spec"]["source"] == "directive" and r["jaxpr"]["eqns"] == 7


def test_platform_without_a_backend_exit_2(cache_env):
    p = sharpbits("examples/tracing_selu.py::selu", "--platform", "tpu", env_extra=cache_env)
    assert p.returncode == 2 and "no 'tpu' backend" in p.stderr and "launch prefix" in p.stderr


def test_platform_gpu_lets_jax_choose_and_says_when_it_found_no_gpu(cache_env):
    # JAX_PLATFORMS=gpu fails unless the CUDA, ROCm and oneAPI plugins are all there (on an H100 with CUDA only:
    # "Unable to initialize backend 'rocm'"), so `gpu` leaves JAX to choose and checks that it chose a GPU
    p = sharpbits("examples/tracing_selu.py::selu", "--platform", "gpu", env_extra={**cache_env, "JAX_PLATFORMS": "cpu"})
    assert p.returncode == 2 and "JAX found no GPU: its backend is 'cpu'" in p.stderr, p.stderr
    assert "Unable to initialize backend" not in p.stderr and "launch prefix" in p.stderr


def test_memory_limit_flag(tmp_path, cache_env):
    (tmp_path / "hog.py").write_text("import numpy as np\n\n\ndef hog(x):\n    big = np.ones((1 << 30,))\n"
                                     "    return x + big[0]\n")
    p = sharpbits("hog.py::hog", "--args", "x=f32[4]", "--show", "jaxpr", "--memory-limit-mb", "1024",
                  cwd=tmp_path, env_extra=cache_env)
    assert p.returncode == 1, p.stderr  # the traced code raised: a MemoryError at its line, not a dead machine
    assert "MemoryError" in p.stdout and "hog.py:5" in p.stdout
    bad = sharpbits("hog.py::hog", "--args", "x=f32[4]", "--memory-limit-mb", "-1", cwd=tmp_path)
    assert bad.returncode == 2 and "--memory-limit-mb must be 0 (no limit) or a size in MiB" in bad.stderr


def test_compile_time_split_and_the_lines_with_most_equations(tmp_path, cache_env):
    (tmp_path / "loop.py").write_text("import jax.numpy as jnp\n\n\n# sharpbits: trace(x=f32[8])\ndef f(x):\n"
                                      "    for _ in range(40):\n        x = jnp.sin(x) * 2\n    return jnp.sum(x)\n")
    p = sharpbits("loop.py::f", "--show", "jaxpr,timing", "--no-eager", "--budget", "0.05", "--format", "json",
                  cwd=tmp_path, env_extra=cache_env)
    assert p.returncode == 0, p.stderr
    comp = json.loads(p.stdout)["compile"]
    assert comp["total_s"] == pytest.approx(comp["trace_s"] + comp["lower_s"] + comp["compile_s"])
    assert comp["equations"] == 81
    assert comp["top_lines"][0] == {"line": 7, "equations": 80, "primitives": {"sin": 40, "mul": 40}}
    assert comp["top_lines"][1]["line"] == 8
    text = sharpbits("loop.py::f", "--show", "jaxpr,timing", "--no-eager", "--budget", "0.05", cwd=tmp_path,
                     env_extra=cache_env)
    assert "compile time: " in text.stdout and " = tracing " in text.stdout and " + XLA compile " in text.stdout
    assert "lines of the function with the most equations (of 81; a call counts what it calls):" in text.stdout
    assert "7 | x = jnp.sin(x) * 2" in text.stdout and "80 eqns (99%)" in text.stdout
