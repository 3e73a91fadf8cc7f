"""Flax linen: an iterative-refinement module binds its dense layer once and runs the 100 refinement steps in a
`lax.fori_loop` over the layer's apply function, so the jitted apply stays small.
"""
import flax.linen as nn
import jax
import jax.numpy as jnp


class Step(nn.Module):
    @nn.compact
    def __call__(self, x):
        return x + 0.01 * jnp.tanh(nn.Dense(x.shape[-1])(x))


if __name__ == "__main__":
    step = Step()
    x = jnp.ones((1, 4))
    params = step.init(jax.random.key(0), x)

    def refine(params, x):
        return jax.lax.fori_loop(0, 100, lambda _, h: step.apply(params, h), x)

    lines = str(jax.make_jaxpr(jax.jit(refine))(params, x)).count("\n")
    if lines > 300:
        print(f"SHARP BIT: the jaxpr has {lines} lines")
    print(jax.jit(refine)(params, x))
