"""The bug twin: the table of initialisers is kept whole (every scheme's weights, for an ensemble), so its
entries are the same normal numbers scaled: the "random" and "he" members are perfectly correlated."""
import jax
import jax.numpy as jnp


def ensemble_weights(X, seed=0):
    key = jax.random.key(seed)
    weights_init = {
        "random": jax.random.normal(key, shape=(X.shape[1],)),
        "he": jax.random.normal(key, shape=(X.shape[1],)) * jnp.sqrt(2 / X.shape[0]),  # expect: prng-key-reuse
    }
    return weights_init


if __name__ == "__main__":
    members = ensemble_weights(jnp.ones((8, 3)))
    print(members["he"] / members["random"])  # one constant: the same numbers
