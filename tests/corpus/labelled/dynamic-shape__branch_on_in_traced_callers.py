"""The same padding helper with the jitted caller passing `exact=True`: the `if exact:` branch is traced and
`jnp.zeros` is sized by the traced `n` (TypeError: shapes must be concrete)."""
import jax
import jax.numpy as jnp


def pad(x, n, exact):
    if exact:
        return jnp.concatenate([x, jnp.zeros(n - x.shape[0])])  # expect: dynamic-shape
    return jnp.where(jnp.arange(x.shape[0]) < n, x, 0.0)


@jax.jit
def padded(x, n):
    return pad(x, n, exact=True)


if __name__ == "__main__":
    padded(jnp.arange(4.0), 6)
