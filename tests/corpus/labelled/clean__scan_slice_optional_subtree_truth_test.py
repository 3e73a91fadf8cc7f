"""A scan over a tuple of per-level inputs where one entry is an optional group of arrays (a tuple, or None when the
scheme is off). The body unpacks the slice; `if freezing:` tests the group itself, a Python tuple or None, not a
tracer, and the group is unpacked in the branch (the pattern of cloud-microphysics column loops)."""

import jax
import jax.numpy as jnp


def column(temperature, humidity, freezing=None):
    def level_step(carry, level_in):
        t_k, q_k, freezing_k = level_in
        out = carry + t_k * q_k
        if freezing_k:
            rate_k, dust_k = freezing_k
            out = out + rate_k * dust_k
        return out, out

    xs = (temperature, humidity, freezing)
    total, per_level = jax.lax.scan(level_step, jnp.zeros(()), xs)
    return total, per_level


if __name__ == "__main__":
    t = jnp.linspace(250.0, 290.0, 8)
    q = jnp.linspace(0.001, 0.01, 8)
    print(jax.jit(column)(t, q)[0])
    print(jax.jit(column)(t, q, (jnp.ones(8), jnp.full(8, 0.5)))[0])
