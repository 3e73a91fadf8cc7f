"""The bug twin of `clean__three_builds_each_compared_with_the_first.py`: the use between the two compared
builds is not compared with the first, it draws test inputs from the same key; the third build is compared with
the first, and so is the second build's, from the key the inputs were drawn from: the model is tested on data
correlated with its own weights (`jax_debug_key_reuse` raises on it).
"""
import jax
import numpy as np


def build(key, mode, dim=8):
    k_embed, k_proj = jax.random.split(key)
    embed = jax.random.normal(k_embed, (16, dim))
    scale = {"he": np.sqrt(2.0 / dim), "bert": 0.02}[mode]
    return {"embed": embed, "proj": scale * jax.random.normal(k_proj, (dim, dim))}


def test_modes_on_inputs():
    key = jax.random.PRNGKey(0)
    model_he = build(key, "he")
    inputs = jax.random.normal(key, (4, 8))  # expect: prng-key-reuse
    model_bert = build(key, "bert")  # expect: prng-key-reuse
    np.testing.assert_array_equal(np.asarray(model_he["embed"]), np.asarray(model_bert["embed"]))
    return model_bert, inputs


if __name__ == "__main__":
    test_modes_on_inputs()
    jax.config.update("jax_debug_key_reuse", True)
    try:
        key = jax.random.key(0)
        build(key, "he")
        jax.random.normal(key, (4, 8))  # expect: prng-key-reuse
    except Exception as error:  # KeyReuseError: the inputs are drawn from the key the model was built with
        print("SHARP BIT:", type(error).__name__)
