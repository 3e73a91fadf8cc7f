"""The twin of clean__draws_reach_only_shape_checks: the example drawn from the key `w` was drawn from is
stored in the buffer, so its numbers, the very numbers of `w`, reach the result.
"""
import jax
import jax.numpy as jnp


def make_buffer(key, n, capacity):
    w = jax.random.normal(key, (n, 4))
    example = {"obs": jax.random.normal(key, (n, 4))}  # expect: prng-key-reuse
    template = {"obs": example["obs"]}
    buffer = {"obs": jnp.zeros((capacity,) + template["obs"].shape).at[0].set(example["obs"])}
    return w, buffer


if __name__ == "__main__":
    w, buffer = make_buffer(jax.random.PRNGKey(0), 3, 5)
    if bool(jnp.array_equal(buffer["obs"][0], w)):
        print("SHARP BIT: the stored example repeats w:", w[0])
