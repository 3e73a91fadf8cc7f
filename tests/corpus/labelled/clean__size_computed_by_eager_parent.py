"""A training driver (as brax's apg `train`) computes the number of updates eagerly and defines the pmapped
epoch that closes over it: the value is concrete when the epoch is traced, so `jnp.arange` of it works.
"""
import jax
import jax.numpy as jnp


def train(num_updates, num_evals):
    updates_per_epoch = jnp.round(num_updates / num_evals)

    def training_epoch(carry):
        return jax.lax.scan(lambda c, i: (c + i, None), carry, jnp.arange(updates_per_epoch))[0]

    training_epoch = jax.pmap(training_epoch)
    return training_epoch(jnp.zeros(jax.local_device_count()))


if __name__ == "__main__":
    print(train(30, 3))
