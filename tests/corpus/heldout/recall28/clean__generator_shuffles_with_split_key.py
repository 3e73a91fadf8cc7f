"""A data generator that shuffles every epoch: it splits its key at the start of each epoch and permutes with
the fresh half, so the epochs visit the examples in different orders.
"""
import jax
import jax.numpy as jnp


def epochs(data, key, num_epochs, batch_size):
    n = data.shape[0]
    for _ in range(num_epochs):
        key, perm_key = jax.random.split(key)
        order = jax.random.permutation(perm_key, n)
        for start in range(0, n, batch_size):
            yield data[order[start:start + batch_size]]


if __name__ == "__main__":
    data = jnp.arange(12.0)
    batches = list(epochs(data, jax.random.key(0), num_epochs=2, batch_size=12))
    if bool(jnp.all(batches[0] == batches[1])):
        print("SHARP BIT: both epochs use the same shuffle:", batches[0])
