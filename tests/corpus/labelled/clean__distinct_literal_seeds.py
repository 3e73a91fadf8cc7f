"""JAX PRNG docs: keys made from distinct seeds (or from one seed under another implementation) are distinct
keys; a test that rebuilds one seed's key to check that two functions give the same draw reproduces on purpose.
"""
import jax
import jax.numpy as jnp

SEED = 2


def fake_batch(batch, source_len, target_len, vocab):
    source_ids = jax.random.randint(jax.random.PRNGKey(1), minval=1, maxval=vocab, shape=(batch, source_len))
    target_labels = jax.random.randint(jax.random.PRNGKey(2), minval=1, maxval=vocab, shape=(batch, target_len))
    return source_ids, target_labels


def attention_inputs(n):
    v = jax.random.normal(jax.random.PRNGKey(SEED), (n, n))
    bias = jax.random.normal(jax.random.PRNGKey(SEED + 1), (n, n))
    rbg = jax.random.normal(jax.random.key(SEED, impl="rbg"), (n, n))
    return v, bias, rbg


def test_reproducible():
    a = jax.random.normal(jax.random.PRNGKey(0), (3,))
    b = jax.random.normal(jax.random.key(0), (3,))
    assert bool(jnp.array_equal(a, b))


if __name__ == "__main__":
    src, tgt = fake_batch(3, 8, 4, 50)
    print("labels differ from the source prefix:", not bool(jnp.array_equal(tgt.ravel(), src.ravel()[:12])))
    v, bias, rbg = attention_inputs(4)
    print("bias differs:", not bool(jnp.array_equal(v, bias)), "rbg differs:", not bool(jnp.array_equal(v, rbg)))
    test_reproducible()
