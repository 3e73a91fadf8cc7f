"""Value-dependent shapes computed eagerly, before the jitted function (whose size is then a static argument)."""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=1)
def one_hot(labels, num_classes):
    return jax.nn.one_hot(labels, num_classes) + jnp.zeros((num_classes,))


if __name__ == "__main__":
    labels = jnp.array([3, 1, 3, 0])
    classes = jnp.unique(labels)
    (nz,) = jnp.nonzero(labels)
    print(one_hot(labels, int(classes.shape[0]) + 1), labels[: int(nz[0])])
