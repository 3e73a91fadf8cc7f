"""jaxfne's `simulate_hh_batch` (emitters_hh.py): the batch path validates on the host, then runs
`jax.jit(jax.vmap(_single))`, whose `_single` calls `simulate(..., _prevalidated=True, **kw)`. The explicit keyword
is the parameter's value whatever `**kw` holds (Python refuses a second value for it), so under the trace
`if _prevalidated:` takes its first branch and the host check `bool(jnp.any(...))` only runs on eager calls.
"""
import jax
import jax.numpy as jnp


def simulate(sigma, gain=1.0, *, _prevalidated=False):
    sig = jnp.asarray(sigma) * gain
    if _prevalidated:
        live = None
    else:
        live = bool(jnp.any(sig != 0.0))
        if live and gain < 0:
            raise ValueError("gain must be >= 0")
    return jnp.cumsum(sig), live


def simulate_batch(stacked, shared):
    for b in range(stacked["sigma"].shape[0]):
        simulate(stacked["sigma"][b], **shared)  # host validation, element by element

    def _single(slices):
        kw = dict(shared)
        kw.update(slices)
        return simulate(_prevalidated=True, **kw)[0]

    return jax.jit(jax.vmap(_single))(stacked)


if __name__ == "__main__":
    out = simulate_batch({"sigma": jnp.ones((3, 4))}, {"gain": 2.0})
    assert out.shape == (3, 4)
    print(out[0])
