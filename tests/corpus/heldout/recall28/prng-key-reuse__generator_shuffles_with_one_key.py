"""A data generator that shuffles every epoch with `jax.random.permutation(key, n)` on the key it was given:
the key never changes inside the generator, so every epoch visits the examples in the same order.
"""
import jax
import jax.numpy as jnp


def epochs(data, key, num_epochs, batch_size):
    n = data.shape[0]
    for _ in range(num_epochs):
        order = jax.random.permutation(key, n)  # expect: prng-key-reuse
        for start in range(0, n, batch_size):
            yield data[order[start:start + batch_size]]


if __name__ == "__main__":
    data = jnp.arange(12.0)
    batches = list(epochs(data, jax.random.key(0), num_epochs=2, batch_size=12))
    if bool(jnp.all(batches[0] == batches[1])):
        print("SHARP BIT: both epochs use the same shuffle:", batches[0])
