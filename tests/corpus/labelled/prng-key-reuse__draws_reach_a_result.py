"""The twin of clean__draws_reach_only_shape_checks: the same draws from one key, but the merged values are
returned, so the repeated numbers reach the result (`b["k1"]` starts with the very numbers of `a["k1"]`).
"""
import jax
import jax.numpy as jnp


def merged_inputs():
    key = jax.random.PRNGKey(0)
    a = {"k0": jax.random.normal(key, (10, 5)), "k1": jax.random.normal(key, (3, 5, 2))}  # expect: prng-key-reuse
    b = {"k1": jax.random.normal(key, (4, 5, 2))}  # expect: prng-key-reuse
    merged = {"k0": a["k0"], "k1": jnp.concatenate([a["k1"], b["k1"]])}
    assert merged["k1"].shape == (7, 5, 2)
    return merged


if __name__ == "__main__":
    m = merged_inputs()
    if bool(jnp.array_equal(m["k1"][0], m["k1"][3])):
        print("SHARP BIT: the fourth row repeats the first:", m["k1"][0, 0])
