"""Sharp Bits / "Control flow": a `while` loop inside a function decorated with `@jax.vmap`.

`vmap` traces the body; the loop condition on a batched value raises TracerBoolConversionError.
"""
import jax
import jax.numpy as jnp


@jax.vmap
def collatz_steps(n):
    steps = 0
    while n != 1:  # expect: traced-control-flow
        n = jnp.where(n % 2 == 0, n // 2, 3 * n + 1)
        steps += 1
    return steps


if __name__ == "__main__":
    print(collatz_steps(jnp.array([6, 7, 8])))
