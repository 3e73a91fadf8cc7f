"""Sharp Bits / "Control flow": a per-row Python loop in a loss under `jax.jit(jax.value_and_grad(...))`.

`enumerate(x)` over a (256, d) array unrolls 256 row computations, forward and backward.
"""
import jax
import jax.numpy as jnp


def pairwise_hinge(w, x, y):
    scores = x @ w
    total = 0.0
    for i, row in enumerate(x):  # expect: python-loop-in-jit
        total = total + jnp.maximum(0.0, 1.0 - y[i] * scores[i]) + 1e-3 * jnp.sum(row ** 2)
    return total / x.shape[0]


step = jax.jit(jax.value_and_grad(pairwise_hinge))


if __name__ == "__main__":
    x, y = jnp.ones((256, 3)), jnp.ones(256)
    print(step(jnp.zeros(3), x, y)[0])
    print("SHARP BIT: equations:", len(jax.make_jaxpr(jax.value_and_grad(pairwise_hinge))(jnp.zeros(3), x, y).jaxpr.eqns))
