"""The bug twin of clean__literal_keyword_beside_kwargs_in_traced_caller.py: the traced `_single` passes
`_prevalidated=False` beside `**kw`, so under `jax.jit(jax.vmap(...))` the host check `bool(jnp.any(...))` runs
on a tracer: TracerBoolConversionError.
"""
import jax
import jax.numpy as jnp


def simulate(sigma, gain=1.0, *, _prevalidated=False):
    sig = jnp.asarray(sigma) * gain
    if _prevalidated:
        live = None
    else:
        live = bool(jnp.any(sig != 0.0))  # expect: traced-control-flow
    return jnp.cumsum(sig), live


def simulate_batch(stacked, shared):
    def _single(slices):
        kw = dict(shared)
        kw.update(slices)
        return simulate(_prevalidated=False, **kw)[0]

    return jax.jit(jax.vmap(_single))(stacked)


if __name__ == "__main__":
    simulate_batch({"sigma": jnp.ones((3, 4))}, {"gain": 2.0})
