"""A test checks that a jitted update donating its cache rejects a bad slot count; the call raises while tracing,
before anything runs, so the cache it was given is not donated and the test reads it again afterwards.
"""
from functools import partial

import jax
import jax.numpy as jnp
import pytest


@partial(jax.jit, donate_argnums=0)
def write_slots(cache, values):
    if values.shape[0] > cache.shape[0]:
        raise ValueError("more values than slots")
    return cache.at[: values.shape[0]].set(values)


def test_rejects_too_many_values():
    cache = jnp.zeros(4)
    with pytest.raises(ValueError):
        write_slots(cache, jnp.ones(5))
    assert float(cache.sum()) == 0.0


if __name__ == "__main__":
    test_rejects_too_many_values()
    print("cache kept")
