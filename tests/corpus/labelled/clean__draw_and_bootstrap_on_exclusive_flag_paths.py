"""A coverage check (gensbi's TARP, `run_tarp`) that draws its reference points from `key` only under
`if refs is None and not boot:`, returns under `if not boot:`, and bootstraps from `fold_in(key, 1)` after that
return. The draw needs `boot` false and the bootstrap key is made only when `boot` is true, and nothing rebinds
`boot`: one call takes one of the two paths, so the key is used once per call.
"""
import jax
import jax.numpy as jnp


def make_refs(key, n):
    _, ref_key = jax.random.split(key)
    return jax.random.uniform(ref_key, (n,))


def coverage(samples, key, refs=None, boot=False, num_boot=4):
    if refs is None and not boot:
        refs = make_refs(key, samples.shape[0])
    if not boot:
        return jnp.mean(samples < refs), refs
    if refs is None:
        raise ValueError("bootstrapping needs reference points")
    boot_key = jax.random.fold_in(key, 1)
    picks = jax.random.randint(boot_key, (num_boot, samples.shape[0]), 0, samples.shape[0])
    return jnp.mean(samples[picks] < refs[picks]), picks


def main():
    samples = jax.random.uniform(jax.random.key(1), (1000,))
    key = jax.random.key(0)
    score, refs = coverage(samples, key)
    given = jax.random.uniform(jax.random.key(2), (1000,))
    boot_score, picks = coverage(samples, key, refs=given, boot=True)
    assert not bool(jnp.all(refs == given)), "the bootstrap compares with the references it was given"
    print("clean: coverage", float(score), "bootstrapped", float(boot_score))


if __name__ == "__main__":
    main()
