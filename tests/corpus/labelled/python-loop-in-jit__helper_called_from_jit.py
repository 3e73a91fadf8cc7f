"""Sharp Bits / "Control flow": the loop lives in a module-level helper that a jitted function calls.

The helper is traced along with its caller, so the loop is unrolled there too.
"""
import jax
import jax.numpy as jnp


def smooth(x):
    for _ in range(200):  # expect: python-loop-in-jit
        x = 0.25 * jnp.roll(x, 1) + 0.5 * x + 0.25 * jnp.roll(x, -1)
    return x


@jax.jit
def denoise(signal):
    return smooth(signal)


if __name__ == "__main__":
    print("SHARP BIT: equations:", len(jax.make_jaxpr(denoise.__wrapped__)(jnp.ones(8)).jaxpr.eqns))
