"""`lax.map` over a function that returns a tuple of arrays gives a tuple of stacked arrays.

Unlike a function returning a list of lists, here `res[0]` is already an array (every sample's sine, stacked),
so `res[0][1] = ...` assigns into a JAX array and raises TypeError (run: it does).
"""
import jax
import jax.numpy as jnp


def sin_cos(samples):
    def per_sample(s):
        return jnp.sin(s), jnp.cos(s)

    res = jax.lax.map(per_sample, samples)
    res[0][1] = 0.0  # expect: in-place-update
    return res


if __name__ == "__main__":
    print(sin_cos(jnp.arange(4.0)))
