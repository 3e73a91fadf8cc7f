"""Sharp Bits: "Pure functions": an eager trainer whose jitted closure writes metrics into the trainer's dict.

The dict is written once, at trace time, with a tracer; reading it later raises or shows a tracer.
"""
import jax
import jax.numpy as jnp


def fit(w, xs):
    metrics = {}

    @jax.jit
    def step(w, x):
        loss = jnp.sum((w - x) ** 2)
        metrics["loss"] = loss  # expect: side-effect-in-jit
        return w - 0.1 * (w - x)

    for x in xs:
        w = step(w, x)
    return w, metrics


if __name__ == "__main__":
    w, metrics = fit(jnp.zeros(2), [jnp.ones(2)] * 3)
    if isinstance(metrics["loss"], jax.core.Tracer):
        print("SHARP BIT: metrics['loss'] is a tracer")
