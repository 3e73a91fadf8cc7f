"""Flax linen: an iterative-refinement module runs `for _ in range(self.num_steps)` with `num_steps=100` in
`__call__`; `jax.jit(model.apply)` unrolls the 100 refinement steps into one huge program.
"""
import flax.linen as nn
import jax
import jax.numpy as jnp


class Refine(nn.Module):
    num_steps: int = 100

    @nn.compact
    def __call__(self, x):
        dense = nn.Dense(x.shape[-1])
        for _ in range(self.num_steps):  # expect: python-loop-in-jit
            x = x + 0.01 * jnp.tanh(dense(x))
        return x


if __name__ == "__main__":
    model = Refine()
    x = jnp.ones((1, 4))
    params = model.init(jax.random.key(0), x)
    lines = str(jax.make_jaxpr(jax.jit(model.apply))(params, x)).count("\n")
    if lines > 300:
        print(f"SHARP BIT: apply's jaxpr has {lines} lines (100 refinement steps unrolled)")
