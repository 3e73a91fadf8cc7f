"""The bug twin: the same draws are also summed outside the selection (a diagnostic total), so two draws from
`key2` meet in one value: the flat core's numbers are the left tail's uniforms rescaled."""
import jax
import jax.numpy as jnp


def sample_two_sided(key, peak, width):
    key1, key2 = jax.random.split(key)
    u_comp = jax.random.uniform(key1, (4,))
    val_left = peak - jax.random.uniform(key2, (4,))
    val_flat = jax.random.uniform(key2, (4,), minval=peak, maxval=peak + width)  # expect: prng-key-reuse
    total = val_left + val_flat
    return jnp.where(u_comp < 0.5, val_left, val_flat), total


if __name__ == "__main__":
    picked, total = sample_two_sided(jax.random.PRNGKey(0), 1.0, 0.2)
    print(picked, total)  # total is 2 * peak - 0.8 * u for one uniform u: the two "draws" are one
