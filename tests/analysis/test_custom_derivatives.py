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


# --- what a bwd rule's residuals and a loop's carry elements hold --------------------------------------------

RESIDUALS = '''import jax
import jax.numpy as jnp


@jax.custom_vjp
def norm(x):
    return jnp.sqrt(jnp.sum(x ** 2))


def norm_fwd(x):
    n = norm(x)
    return n, ({residuals})


def norm_bwd(res, g):
    x, n = res
    if {test}:
        return (g * x,)
    return (jnp.zeros_like(x),)


norm.defvjp(norm_fwd, norm_bwd)


@jax.jit
def grad_norm(x):
    return jax.grad(norm)(x)
'''


def _lines(code: str, rule: str) -> list[int]:
    return [f.line for f in analyze(code, "case.py", Selection()).findings if f.rule == rule]


def test_a_bwd_rule_unpacks_the_residuals_its_fwd_returned():
    # fwd returns (x, n), both arrays: under jit of the gradient, `if n > 0` branches on a tracer
    assert _lines(RESIDUALS.format(residuals="x, n", test="n > 0"), "traced-control-flow") == [17]
    # a residual fwd returns as a Python value (here a None) is not known to be an array: silent
    assert _lines(RESIDUALS.format(residuals="x, None", test="n is None"), "traced-control-flow") == []


CARRY = '''import jax.numpy as jnp
from jax import lax


def solve(lo, hi, tol):
    def cond(state):
        lo, hi, i = state
        {guard}return (hi - lo > tol) and (i < 100)

    def body(state):
        lo, hi, i = state
        mid = 0.5 * (lo + hi)
        return mid, hi, i + 1

    return lax.while_loop(cond, body, (lo, hi, 0))
'''


def test_a_carry_element_used_as_a_number_is_a_leaf_so_an_array():
    # `hi - lo`: no container, None or pytree has `-`, so both are leaves of the carry, traced inside the loop
    assert _lines(CARRY.format(guard=""), "traced-control-flow") == [8]
    # tested against None first: each may be None (an empty pytree), and then the arithmetic never runs
    guarded = CARRY.format(guard="if lo is None or hi is None:\n            return i < 100\n        ")
    assert _lines(guarded, "traced-control-flow") == []
