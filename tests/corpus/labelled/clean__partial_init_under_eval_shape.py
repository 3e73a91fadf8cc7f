"""An init bound with `functools.partial` and evaluated only abstractly (maxtext's `get_abstract_state`).

`jax.eval_shape(init)` and `jax.jit(init).eval_shape()` compute shapes and dtypes without drawing a number, so
handing `key` to `abstract_state` and then drawing from it is no reuse.
"""
import functools

import jax


def init_params(key, n):
    return {"w": jax.random.normal(key, (n,))}


def abstract_state(key, n):
    init = functools.partial(init_params, key, n)
    return jax.eval_shape(init), jax.jit(init).eval_shape()


def setup(key, n):
    shapes, jitted = abstract_state(key, n)
    noise = jax.random.normal(key, (n,))
    return shapes, jitted, noise


if __name__ == "__main__":
    shapes, jitted, noise = setup(jax.random.PRNGKey(0), 4)
    assert shapes["w"].shape == (4,) and jitted["w"].shape == (4,) and noise.shape == (4,)
    print("ok:", shapes["w"])
