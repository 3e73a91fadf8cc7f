"""vmap docs "in_axes": an argument with `in_axes=None` is passed through unbatched.

Here it is a Python int counting the batch dimensions to peel; the recursion branches on it at trace time.
"""
import jax
import jax.numpy as jnp


def diagonalise(v, batch_dims):
    if batch_dims == 0:
        return jnp.diag(v)
    return jax.vmap(diagonalise, in_axes=(0, None))(v, batch_dims - 1)


if __name__ == "__main__":
    print(diagonalise(jnp.ones((2, 3)), 1).shape)
