"""JAX PRNG docs: the same seed gives the same key. A language-model test (axlearn's encoder-decoder test) draws
the source tokens and the target labels each from `jax.random.PRNGKey(1)` with one range: the labels are the
source tokens' flat prefix. A benchmark's attention bias reuses the key its values were drawn from.
"""
import jax
import jax.numpy as jnp

SEED = 2


def fake_batch(batch, source_len, target_len, vocab):
    source_ids = jax.random.randint(jax.random.PRNGKey(1), minval=1, maxval=vocab, shape=(batch, source_len))
    target_labels = jax.random.randint(jax.random.PRNGKey(1), minval=1, maxval=vocab, shape=(batch, target_len))  # expect: prng-key-reuse
    return source_ids, target_labels


def attention_inputs(n):
    v = jax.random.normal(jax.random.PRNGKey(SEED), (n, n))
    bias = jax.random.normal(jax.random.key(SEED), (n, n))  # expect: prng-key-reuse
    return v, bias


if __name__ == "__main__":
    src, tgt = fake_batch(3, 8, 4, 50)
    print("SHARP BIT: labels repeat the source tokens:", bool(jnp.array_equal(tgt.ravel(), src.ravel()[:12])))
    v, bias = attention_inputs(4)
    print("SHARP BIT: bias equals the values:", bool(jnp.array_equal(v, bias)))
