"""An add-only memo keyed by the arguments' tuple (`if (hit := CACHE.get((a, b))) is not None: return hit`, then
`CACHE[(a, b)] = value`): each key gets one value, ever, so the value a trace baked in can never go stale
(round 38: a Pauli-basis library's projector cache).
"""
import jax
import jax.numpy as jnp
import numpy as np

_projectors = {}


def projector(reduced_dim, original_dim):
    if (hit := _projectors.get((reduced_dim, original_dim))) is not None:
        return hit
    out = np.zeros(original_dim)
    out[:reduced_dim] = np.sqrt(reduced_dim / original_dim)
    _projectors[(reduced_dim, original_dim)] = out
    return out


@jax.jit
def project(x):
    return x @ projector(2, 3)


if __name__ == "__main__":
    print(project(jnp.ones(3)), project(jnp.ones(3)))
