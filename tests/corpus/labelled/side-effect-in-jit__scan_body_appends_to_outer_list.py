"""Sharp Bits: "Pure functions" / lax.scan: a scan body that collects its carries in the caller's list.

The body is traced once into the scan; the list holds scan tracers, which leak when the caller stacks them.
Return the values as the scan's outputs instead.
"""
import jax
import jax.numpy as jnp


@jax.jit
def cumulative(xs):
    carries = []

    def body(c, x):
        c = c + x
        carries.append(c)  # expect: side-effect-in-jit
        return c, None

    total, _ = jax.lax.scan(body, 0.0, xs)
    return total, jnp.stack(carries)


if __name__ == "__main__":
    print(cumulative(jnp.arange(4.0)))
