"""`jax.custom_vjp` / `jax.custom_jvp` are not tracing transformations: a custom-derivative function that nothing
in the module traces runs on the caller's arrays (eagerly, or as a rule under `jax.grad`), so no rule may treat
its body as traced code; called from jitted code it is traced like any helper."""

from __future__ import annotations

import pytest
from sharpbits.analysis.engine import Selection, analyze

BODY = '''import jax
import jax.numpy as jnp
import numpy as np

LOG = []


@{decorator}
def host_step(x):
    out = x
    for _ in range(200):
        out = out + jnp.sin(out)
    LOG.append(x)
    print("x is", x)
    if x.sum() > 0:
        out = out * 2
    return jnp.asarray(np.array(out) * float(x.sum()))


def host_step_fwd(x):
    return host_step(x), x


def host_step_bwd(x, g):
    return (g,)


host_step.defvjp(host_step_fwd, host_step_bwd)

{caller}
'''
EAGER = "def run(x):\n    return host_step(x), jax.grad(lambda v: host_step(v).sum())(x)\n"
JITTED = "@jax.jit\ndef run(x):\n    return host_step(x)\n"
RULES = {"host-conversion-in-jit", "side-effect-in-jit", "python-loop-in-jit", "print-in-jit", "traced-control-flow"}


def _rules(code: str) -> set[str]:
    return {f.rule for f in analyze(code, "case.py", Selection()).findings}


@pytest.mark.parametrize("decorator", ["jax.custom_vjp", "jax.custom_jvp"])
def test_a_custom_derivative_function_nothing_traces_runs_on_values(decorator):
    code = BODY.format(decorator=decorator, caller=EAGER)
    if decorator == "jax.custom_jvp":
        code = code.replace("defvjp", "defjvp")
    assert _rules(code) & RULES == set()


def test_called_from_jitted_code_its_body_is_traced():
    assert _rules(BODY.format(decorator="jax.custom_vjp", caller=JITTED)) >= RULES
