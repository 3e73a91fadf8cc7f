"""booz-xform-jax (round 23): a public function with a Python-default flag (`magnetic_only: bool = False`) is jitted
only by a wrapper bound to a local name and called right there, with keyword arguments that leave the flag out.

jit traces the arguments a call gives it; a parameter the call leaves out keeps its Python default inside the
trace, so `if magnetic_only:` tests a Python bool in every trace this module makes. (Calling `transform` directly
traces nothing.)
"""
import jax
import jax.numpy as jnp


def transform(rmnc, iota, *, nboz: int, magnetic_only: bool = False):
    b = jnp.cumsum(rmnc) * iota
    if magnetic_only:
        return {"b": b}
    return {"b": b, "r": rmnc * nboz}


def transform_from_inputs(rmnc, iota, jit: bool = True):
    fn = transform
    if jit:
        fn = jax.jit(transform, static_argnames=("nboz",))
    return fn(rmnc=rmnc, iota=iota, nboz=4)


if __name__ == "__main__":
    print(transform_from_inputs(jnp.arange(3.0), jnp.float32(0.5)))
    print(transform(jnp.arange(3.0), 0.5, nboz=4, magnetic_only=True))
