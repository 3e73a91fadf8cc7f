"""megalodon-jax tests/test_model.py: three models are built from one key under three init modes, and the test
asserts that each one's embedding equals the first one's (the init mode must not change the embedding). Every
build after the first reproduces the first on purpose; the second and the third share exactly what each shares
with the first, which the test compares.
"""
import jax
import numpy as np


def build(key, mode, dim=8):
    k_embed, k_proj = jax.random.split(key)
    embed = jax.random.normal(k_embed, (16, dim))
    scale = {"he": np.sqrt(2.0 / dim), "xavier": np.sqrt(1.0 / dim), "bert": 0.02}[mode]
    return {"embed": embed, "proj": scale * jax.random.normal(k_proj, (dim, dim))}


def test_init_modes_share_the_embedding():
    key = jax.random.PRNGKey(0)
    model_he = build(key, "he")
    model_xavier = build(key, "xavier")
    model_bert = build(key, "bert")
    np.testing.assert_array_equal(np.asarray(model_he["embed"]), np.asarray(model_xavier["embed"]))
    np.testing.assert_array_equal(np.asarray(model_he["embed"]), np.asarray(model_bert["embed"]))


if __name__ == "__main__":
    test_init_modes_share_the_embedding()
    print("ok: every init mode keeps the embedding")
