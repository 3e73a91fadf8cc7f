"""Sharp Bits: "Pure functions": hyper-parameters in a dict updated with `.update()`, jit in call form.

`step = jax.jit(_step)` traced `HPARAMS["momentum"]` once; later updates are ignored.
"""
import jax
import jax.numpy as jnp

HPARAMS = {"momentum": 0.9, "lr": 0.01}


def _step(w, v, g):
    v = HPARAMS["momentum"] * v + g  # expect: global-captured-in-jit
    w = w - HPARAMS["lr"] * v
    return w, v


step = jax.jit(_step)


def warmup_done():
    HPARAMS.update(momentum=0.99, lr=0.1)


if __name__ == "__main__":
    w, v = jnp.ones(2), jnp.zeros(2)
    w, v = step(w, v, jnp.ones(2))
    warmup_done()
    print("SHARP BIT: still lr=0.01:", step(jnp.ones(2), jnp.zeros(2), jnp.ones(2)))
