"""`if surf_readout is not None and sbuffers:` inside a scanned step, where `sbuffers` is a dict of buffers
(`{k: roll(sbuffers[k]) for k in sbuffers}`): a dict indexed by what iterating it gives is a mapping, and its
truth test is Python's (an empty dict or not), fixed at trace time."""
import jax
import jax.numpy as jnp


def step(u, sbuffers, readout):
    new = sbuffers
    if readout is not None and sbuffers:
        new = {k: jnp.roll(sbuffers[k], 1) + readout(u) for k in sbuffers}
    return u + 1.0, new


def run(u0, sbuffers):
    def body(carry, _):
        u, sb = carry
        u, sb = step(u, sb, jnp.sin)
        return (u, sb), u
    return jax.lax.scan(body, (u0, sbuffers), None, length=3)


print(run(jnp.zeros(2), {"slip": jnp.ones(2)})[1])
