"""A jitted update validates its inputs on the host only `if validate is True:`; callers pass `validate=True` as an
argument, so under jit the flag is a tracer, never the object True, and the host-side check is skipped while
tracing instead of calling `int()` on a traced value.
"""
import jax
import jax.numpy as jnp


@jax.jit
def update(cache, x, validate):
    if validate is True:
        assert int(x.sum()) >= 0
    return cache + x


if __name__ == "__main__":
    print(update(jnp.zeros(3), jnp.ones(3), True))
