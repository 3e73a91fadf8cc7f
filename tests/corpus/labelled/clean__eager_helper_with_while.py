"""Control flow: a module with jitted functions and an eager helper containing a `while` loop; the helper
is only called from eager code, so it is never traced.
"""
import jax
import jax.numpy as jnp


@jax.jit
def step(x):
    return 0.5 * x


def run_until_small(x, tol=1e-3):
    n = 0
    while float(jnp.max(jnp.abs(x))) > tol:
        x = step(x)
        n += 1
    return x, n


if __name__ == "__main__":
    print(run_until_small(jnp.array([1.0, -2.0])))
