"""A coverage check that draws its reference points from `key` when none are given and then hands the same key
to a helper that draws references only when `refs is None` (gensbi's TARP: `_run_tarp_single`). The caller
has just filled `refs` on this very path (`if refs is None and not boot:` before, the call under `if not
boot:`), so the helper never draws: the key is drawn from once.
"""
import jax
import jax.numpy as jnp


def make_refs(key, n):
    return jax.random.uniform(key, (n,))


def single(key, samples, refs):
    if refs is None:
        refs = make_refs(key, samples.shape[0])
    return jnp.mean(samples < refs), refs


def coverage(samples, key, refs=None, boot=False):
    if refs is None and not boot:
        refs = make_refs(key, samples.shape[0])
    if not boot:
        return single(key, samples, refs)
    if refs is None:
        raise ValueError("bootstrapping needs reference points")
    return jnp.mean(samples < refs), refs  # the bootstrap compares with the given references


def main():
    samples = jax.random.uniform(jax.random.key(1), (1000,))
    key = jax.random.key(0)
    score, refs = coverage(samples, key)
    assert bool(jnp.all(refs == make_refs(key, 1000))), "the references drawn once, before the helper"
    print("clean: coverage", float(score))


if __name__ == "__main__":
    main()
