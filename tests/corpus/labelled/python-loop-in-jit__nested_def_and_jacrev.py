"""Sharp Bits / "Control flow": a nested function inside a jitted function, and a function given to `jax.jacrev`.
"""
import jax
import jax.numpy as jnp


@jax.jit
def integrate(y0, k):
    def euler(y):
        for _ in range(250):  # expect: python-loop-in-jit
            y = y - 0.01 * k * y
        return y

    return euler(y0)


def trajectory_end(params):
    x = jnp.zeros(2)
    for t in range(120):  # expect: python-loop-in-jit
        x = x + params * jnp.sin(t * 0.1)
    return x


jacobian = jax.jacrev(trajectory_end)


if __name__ == "__main__":
    print(integrate(jnp.ones(2), 0.5))
    print(jacobian(jnp.ones(2)))
    print("SHARP BIT: jaxpr lines:", len(str(jax.make_jaxpr(integrate.__wrapped__)(jnp.ones(2), 0.5)).splitlines()),
          len(str(jax.make_jaxpr(jacobian)(jnp.ones(2))).splitlines()))
