"""A coverage check like gensbi's TARP, but it draws its reference points from `key` whenever none are given
(`if refs is None:`, with no `not boot`), also when it then bootstraps from `fold_in(key, 1)`: under the default
(partitionable) threefry `fold_in(key, 1)` equals `split(key)[1]`, the key the references were drawn from, so the
bootstrap's jitter repeats the reference points.
"""
import jax
import jax.numpy as jnp


def make_refs(key, n):
    _, ref_key = jax.random.split(key)
    return jax.random.uniform(ref_key, (n,))


def coverage(samples, key, refs=None, boot=False):
    if refs is None:
        refs = make_refs(key, samples.shape[0])
    if not boot:
        return jnp.mean(samples < refs), refs, None
    boot_key = jax.random.fold_in(key, 1)  # expect: prng-key-reuse
    jitter = jax.random.uniform(boot_key, samples.shape)
    return jnp.mean(samples + 0.01 * jitter < refs), refs, jitter


def main():
    samples = jax.random.uniform(jax.random.key(1), (1000,))
    score, refs, jitter = coverage(samples, jax.random.key(0), boot=True)
    if bool(jnp.all(refs == jitter)):
        print("SHARP BIT: the bootstrap jitter equals the reference points (one key drew both)", float(score))


if __name__ == "__main__":
    main()
