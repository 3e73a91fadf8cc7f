"""`fold_in(key, STREAM)` with stream constants far past the two keys a helper splits the same key into (round
36's plasmax wrappers): `fold_in(k, i)` equals `split(k, n)[i]` only for i < n, so the streams are keys of their
own and nothing the helper draws repeats them.
"""
import jax

NOISE_SAMPLE_STREAM = 0x4E4F4953


def env_init(key):
    a, b = jax.random.split(key)
    return jax.random.normal(a, (2,)), jax.random.normal(b, (2,))


def wrapper_init(key):
    noise_key = jax.random.fold_in(key, NOISE_SAMPLE_STREAM)
    inner = env_init(key)
    return inner, jax.random.normal(noise_key, (2,))


if __name__ == "__main__":
    (a, b), noise = wrapper_init(jax.random.key(0))
    print("distinct:", bool((noise != a).all() and (noise != b).all()))
