"""The bug twin of clean__permute_two_literal_arrays_alike.py: the passive split has four quantities and the
aggressive three, and both orders are sent. One key permutes arrays of two lengths: the three-element order is
the four-element order with its last slot removed, so the two "random" orders agree wherever they can.
"""
import jax
import jax.numpy as jnp


def both_orders(key, step, remaining):
    aggressive = jax.random.permutation(key, jnp.array([step - 3 * step // 4, step // 4, step // 4]), independent=True)
    passive = jax.random.permutation(key, jnp.array([remaining // 4, remaining // 4, remaining // 4,  # expect: prng-key-reuse
                                                     remaining - 3 * remaining // 4]), independent=True)
    return jnp.concatenate([aggressive, passive])


if __name__ == "__main__":
    agree = 0
    for seed in range(50):
        key = jax.random.PRNGKey(seed)
        three = jax.random.permutation(key, jnp.arange(3), independent=True).tolist()
        four = jax.random.permutation(key, jnp.arange(4), independent=True).tolist()  # expect: prng-key-reuse
        agree += three == [i for i in four if i < 3]
    print("SHARP BIT: the 3-order is the 4-order without its last slot for", agree, "of 50 keys")
    assert agree == 50
    print(both_orders(jax.random.PRNGKey(0), 40, 400).tolist())
