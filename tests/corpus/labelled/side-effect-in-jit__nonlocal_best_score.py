"""Sharp Bits: "Pure functions": tracking the best score with `nonlocal` inside a jitted evaluation.

`best` is assigned once, at trace time, and holds a tracer afterwards.
"""
import jax
import jax.numpy as jnp


def search(candidates):
    best = -jnp.inf

    @jax.jit
    def score(c):
        nonlocal best
        s = -jnp.sum((c - 0.5) ** 2)
        best = jnp.maximum(best, s)  # expect: side-effect-in-jit
        return s

    scores = [score(c) for c in candidates]
    return scores, best


if __name__ == "__main__":
    _, best = search([jnp.full(2, v) for v in (0.0, 0.4, 1.0)])
    if isinstance(best, jax.core.Tracer):
        print("SHARP BIT: best is a tracer")
