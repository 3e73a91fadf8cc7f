"""A test that draws its inputs from one key and asserts only the shapes of what it builds from them.

`a` and `b` repeat each other's leading numbers (same key, same sampler), but their values reach nothing but
`.shape` checks: `merged` is built from them and only its shapes are read, so no number drawn from the key
reaches a result and the repetition is harmless (round 37: geometricconvolutions' layer tests).
"""
import jax
import jax.numpy as jnp


def test_concat_shapes():
    key = jax.random.PRNGKey(0)
    a = {"k0": jax.random.normal(key, (10, 5)), "k1": jax.random.normal(key, (3, 5, 2))}
    b = {"k1": jax.random.normal(key, (4, 5, 2))}
    merged = {"k0": a["k0"], "k1": jnp.concatenate([a["k1"], b["k1"]])}
    assert merged["k0"].shape == (10, 5)
    assert merged["k1"].shape == (7, 5, 2)


if __name__ == "__main__":
    test_concat_shapes()
    print("ok: only shapes were checked")
