"""An init bound with `functools.partial` and then run for real: the key it was given is drawn from.

The twin of `clean__partial_init_under_eval_shape` (maxtext's `get_abstract_state`, which only evaluates the
partial under `jax.eval_shape`): here the partial is called, so the weights are drawn from `key`, and the noise
drawn from the same key afterwards equals them.
"""
import functools

import jax
import jax.numpy as jnp


def init_params(key, n):
    return {"w": jax.random.normal(key, (n,))}


def materialised_state(key, n):
    init = functools.partial(init_params, key, n)
    return init()


def setup(key, n):
    state = materialised_state(key, n)
    noise = jax.random.normal(key, (n,))  # expect: prng-key-reuse
    return state, noise


if __name__ == "__main__":
    state, noise = setup(jax.random.PRNGKey(0), 4)
    if bool(jnp.array_equal(state["w"], noise)):
        print("SHARP BIT: the noise equals the initial weights:", noise)
