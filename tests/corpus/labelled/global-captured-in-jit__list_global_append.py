"""Sharp Bits: "Pure functions": a module-level list of class weights grows after the jitted loss was traced.
"""
import jax
import jax.numpy as jnp

CLASS_WEIGHTS = [1.0, 1.0]


@jax.jit
def weighted_nll(logp, labels):
    w = jnp.array(CLASS_WEIGHTS)[labels]  # expect: global-captured-in-jit
    return -jnp.sum(w * logp[jnp.arange(labels.shape[0]), labels]) / jnp.sum(w)


def add_class(weight):
    CLASS_WEIGHTS[0] = 0.5
    CLASS_WEIGHTS.append(weight)


if __name__ == "__main__":
    logp = jnp.log(jnp.full((2, 3), 1 / 3))
    before = weighted_nll(logp, jnp.array([0, 1]))
    add_class(2.0)
    after = weighted_nll(logp, jnp.array([0, 1]))
    print("SHARP BIT: weights unchanged in the compiled loss:", bool(before == after))
