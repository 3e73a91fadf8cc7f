"""The bug beside `clean__own_setitem_object`: the same paste on the image's array itself.

`image` is a JAX array here (no class of its own behind it), so `image[2:4] += stamp` raises TypeError: JAX
arrays are immutable (use `image.at[2:4].add(stamp)`).
"""
import jax
import jax.numpy as jnp


@jax.jit
def paste(image, stamp):
    image[2:4] += stamp  # expect: in-place-update
    return image


if __name__ == "__main__":
    print(paste(jnp.zeros(4), jnp.ones(2)))
