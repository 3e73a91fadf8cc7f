"""booz-xform-jax (round 23), the bug twin: the local jit wrapper's call passes the Python-default flag, so jit traces
it and `if magnetic_only:` raises TracerBoolConversionError (the flag is not in `static_argnames`).
"""
import jax
import jax.numpy as jnp


def transform(rmnc, iota, *, nboz: int, magnetic_only: bool = False):
    b = jnp.cumsum(rmnc) * iota
    if magnetic_only:  # expect: traced-control-flow
        return {"b": b}
    return {"b": b, "r": rmnc * nboz}


def magnetic_transform(rmnc, iota, jit: bool = True):
    fn = transform
    if jit:
        fn = jax.jit(transform, static_argnames=("nboz",))
    return fn(rmnc=rmnc, iota=iota, nboz=4, magnetic_only=True)


if __name__ == "__main__":
    print(magnetic_transform(jnp.arange(3.0), jnp.float32(0.5)))
