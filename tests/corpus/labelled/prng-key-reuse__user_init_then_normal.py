"""JAX PRNG docs: handing a key to a function consumes it, also when the function is your own `init`.

`init_params(key)` draws the weights from `key`; the caller then draws the input noise from the same key,
so the "noise" is the first row of the weights.
"""
import jax
import jax.numpy as jnp


def init_params(key, n_in, n_out):
    return {"w": jax.random.normal(key, (n_in, n_out)), "b": jnp.zeros(n_out)}


def make_problem(seed, n_in=3, n_out=2):
    key = jax.random.PRNGKey(seed)
    params = init_params(key, n_in, n_out)
    x = jax.random.normal(key, (n_in, n_out))  # expect: prng-key-reuse
    return params, x


if __name__ == "__main__":
    params, x = make_problem(0)
    if bool(jnp.all(params["w"] == x)):
        print("SHARP BIT: the input noise equals the initial weights")
