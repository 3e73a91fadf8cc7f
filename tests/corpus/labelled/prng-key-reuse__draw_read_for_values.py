"""The twin of `clean__draw_read_only_for_shapes`: the second draw's values are read, so they repeat the first.

`noise` is drawn from the key that drew `w`, with the same sampler and shape: it equals `w`, and `w + noise`
is `2 * w`, not weights plus independent noise.
"""
import jax
import jax.numpy as jnp


def make(key, n):
    w = jax.random.normal(key, (n,))
    noise = jax.tree_util.tree_map(lambda x: x[None, ...], jax.random.normal(key, (n,)))  # expect: prng-key-reuse
    buffer = jnp.zeros_like(noise)
    assert noise.shape == (1, n)
    return w, buffer + w + noise


if __name__ == "__main__":
    w, noisy = make(jax.random.PRNGKey(0), 4)
    if bool(jnp.allclose(noisy[0], 2 * w)):
        print("SHARP BIT: the noise equals the weights: w + noise == 2 * w")
