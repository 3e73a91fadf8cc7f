"""The bug twin of clean__key_validator_reads_only_metadata.py: the checker draws a sample to see the key works,
and the caller then draws from the same key: the very same number.
"""
import jax


def _check_key(key):
    probe = jax.random.normal(key)
    if not jax.numpy.isfinite(probe):
        raise ValueError("bad key")
    return probe


def init(key):
    probe = _check_key(key)
    noise = jax.random.normal(key)  # expect: prng-key-reuse
    return probe, noise


if __name__ == "__main__":
    probe, noise = init(jax.random.key(0))
    print("SHARP BIT: same number:", bool(probe == noise))
