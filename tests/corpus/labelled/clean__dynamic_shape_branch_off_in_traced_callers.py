"""A padding helper that builds `jnp.zeros(n)` only on its eager path: the jitted caller passes `exact=False`, a
literal, so the `if exact:` branch is never traced and `n` never sizes an array under the trace. Called eagerly
with `exact=True`, `n` is a Python int and the zeros are fine."""
import jax
import jax.numpy as jnp


def pad(x, n, exact):
    if exact:
        return jnp.concatenate([x, jnp.zeros(n - x.shape[0])])
    return jnp.where(jnp.arange(x.shape[0]) < n, x, 0.0)


@jax.jit
def masked(x, n):
    return pad(x, n, exact=False)


if __name__ == "__main__":
    x = jnp.arange(4.0)
    print(masked(x, 2), pad(x, 6, exact=True))
