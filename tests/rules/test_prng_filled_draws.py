"""Issue 22 (round 25, jaxzoo): draws from one key written into one result piecewise, `res = jnp.where(m_k,
draw_k(key, shape), res)` with masks that exclude each other (`low != -inf & high == inf` against `low == -inf`),
never meet: each element keeps one draw, made from the key's bits at its own position. Anything that lets two
draws' values meet (a partial fill read, a draw broadcast over a larger result, a sampler that mixes positions,
masks that may overlap) keeps the finding."""

import pytest
from sharpbits.analysis.engine import analyze


def _reuse_lines(source: str) -> list[int]:
    return [f.line for f in analyze(source, "case.py").findings if f.rule == "prng-key-reuse"]


CLEAN = [
    # jaxzoo's box sampler: four masks partitioning the bound cases, through names bound once
    "import jax.numpy as jnp\nfrom jax import random\n"
    "def sample(key, low, high, shape):\n    res = jnp.empty(shape)\n"
    "    ab = jnp.logical_and(low != -jnp.inf, high != jnp.inf)\n"
    "    res = jnp.where(ab, random.uniform(key, shape, minval=low, maxval=high), res)\n"
    "    a = jnp.logical_and(low != -jnp.inf, high == jnp.inf)\n"
    "    res = jnp.where(a, random.exponential(key, shape) + low, res)\n"
    "    b = jnp.logical_and(low == -jnp.inf, high != jnp.inf)\n"
    "    res = jnp.where(b, -random.exponential(key, shape) + high, res)\n"
    "    n = jnp.logical_and(low == -jnp.inf, high == jnp.inf)\n"
    "    res = jnp.where(n, random.normal(key, shape), res)\n    return res\n",
    # inline masks `x > 0` and `x <= 0`, zeros as the start
    "import jax\nimport jax.numpy as jnp\n"
    "def f(key, x, s):\n    out = jnp.zeros(s)\n    out = jnp.where(x > 0, jax.random.normal(key, s), out)\n"
    "    out = jnp.where(x <= 0, jax.random.uniform(key, s), out)\n    return out * 2\n",
]

REPORTED = [
    # the partial fill is read before the second draw is written
    "import jax\nimport jax.numpy as jnp\n"
    "def f(key, x, s):\n    out = jnp.zeros(s)\n    out = jnp.where(x > 0, jax.random.normal(key, s), out)\n"
    "    t = out.sum()\n    out = jnp.where(x <= 0, jax.random.uniform(key, s), out)\n    return out, t\n",
    # masks that may overlap
    "import jax\nimport jax.numpy as jnp\n"
    "def f(key, x, y, s):\n    out = jnp.zeros(s)\n    out = jnp.where(x > 0, jax.random.normal(key, s), out)\n"
    "    out = jnp.where(y > 0, jax.random.uniform(key, s), out)\n    return out\n",
    # the result is larger than the draws: each draw is broadcast over rows
    "import jax\nimport jax.numpy as jnp\n"
    "def f(key, g, n, d):\n    out = jnp.zeros((n, d))\n    out = jnp.where(g == 0, jax.random.normal(key, (d,)), out)\n"
    "    out = jnp.where(g != 0, jax.random.uniform(key, (d,)), out)\n    return out\n",
    # a mask built here may broadcast the draws over more elements
    "import jax\nimport jax.numpy as jnp\n"
    "def f(key, n, d):\n    out = jnp.zeros((d,))\n    top = jnp.arange(n)[:, None] < n // 2\n"
    "    out = jnp.where(top, jax.random.normal(key, (d,)), out)\n    bottom = jnp.arange(n)[:, None] >= n // 2\n"
    "    out = jnp.where(bottom, jax.random.uniform(key, (d,)), out)\n    return out\n",
    # a sampler that mixes positions
    "import jax\nimport jax.numpy as jnp\n"
    "def f(key, x, s):\n    out = jnp.zeros(s)\n    out = jnp.where(x > 0, jax.random.normal(key, s), out)\n"
    "    out = jnp.where(x <= 0, jax.random.permutation(key, s), out)\n    return out\n",
    # the tested value is assigned between the masks
    "import jax\nimport jax.numpy as jnp\n"
    "def f(key, x, s):\n    out = jnp.zeros(s)\n    out = jnp.where(x > 0, jax.random.normal(key, s), out)\n"
    "    x = -x\n    out = jnp.where(x <= 0, jax.random.uniform(key, s), out)\n    return out\n",
    # the draw mixed with another value beside the select
    "import jax\nimport jax.numpy as jnp\n"
    "def f(key, x, s):\n    out = jnp.zeros(s)\n    out = jnp.where(x > 0, jax.random.normal(key, s), out)\n"
    "    out = jnp.where(x <= 0, jax.random.uniform(key, s), out)\n    return out + jax.random.normal(key, s)\n",
]


@pytest.mark.parametrize("source", CLEAN)
def test_draws_filled_under_excluding_masks_do_not_meet(source):
    assert _reuse_lines(source) == []


@pytest.mark.parametrize("source", REPORTED)
def test_fills_where_draws_may_meet_are_still_reported(source):
    assert _reuse_lines(source) != []
