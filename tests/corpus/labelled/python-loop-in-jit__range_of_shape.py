"""Sharp Bits / "Control flow": looping over `range(x.shape[0])` in jit unrolls once per row.

The shape is static, so it traces, but 1,000 rows means 1,000 copies of the body in the program.
"""
import jax
import jax.numpy as jnp


@jax.jit
def running_mean(x):
    total = jnp.zeros(x.shape[1:])
    means = []
    for t in range(x.shape[0]):  # expect: python-loop-in-jit
        total = total + x[t]
        means.append(total / (t + 1))
    return jnp.stack(means)


if __name__ == "__main__":
    x = jnp.ones((200, 3))
    print("SHARP BIT: equations:", len(jax.make_jaxpr(running_mean.__wrapped__)(x).jaxpr.eqns))
