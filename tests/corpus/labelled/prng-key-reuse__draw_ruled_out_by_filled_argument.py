"""A coverage check that draws its reference points from `key` when none are given and then hands the same key
to a helper. The caller fills `refs` on this path (`if refs is None and not boot:`, the call under `if not
boot:`), so the helper's `refs is None` draw is ruled out, but the helper jitters the samples with noise drawn
from the key whenever references are given: the jitter is made from the bits that made the references.
"""
import jax
import jax.numpy as jnp


def make_refs(key, n):
    return jax.random.uniform(key, (n,))


def single(key, samples, refs):
    if refs is None:
        return jnp.mean(samples < make_refs(key, samples.shape[0])), None, None
    jitter = jax.random.uniform(key, samples.shape)
    return jnp.mean(samples + 0.01 * jitter < refs), refs, jitter


def coverage(samples, key, refs=None, boot=False):
    if refs is None and not boot:
        refs = make_refs(key, samples.shape[0])
    if not boot:
        return single(key, samples, refs)  # expect: prng-key-reuse
    if refs is None:
        raise ValueError("bootstrapping needs reference points")
    return jnp.mean(samples < refs), refs, None  # the bootstrap compares with the given references


def main():
    samples = jax.random.uniform(jax.random.key(1), (1000,))
    score, refs, jitter = coverage(samples, jax.random.key(0))
    if bool(jnp.all(refs == jitter)):
        print("SHARP BIT: the jitter equals the reference points (one key drew both)", float(score))


if __name__ == "__main__":
    main()
