"""A notebook-style script keeps hyperparameters in a module-level dict and changes one with
`HPARAMS.update(weight_decay=...)` between runs; the jitted step receives the values as arguments.
"""
import jax
import jax.numpy as jnp

HPARAMS = {"lr": 0.1, "weight_decay": 0.0}


@jax.jit
def step(w, g, hp):
    return w - hp["lr"] * (g + hp["weight_decay"] * w)


if __name__ == "__main__":
    w = jnp.ones(2)
    before = step(w, jnp.zeros(2), HPARAMS)
    HPARAMS.update(weight_decay=0.5)
    after = step(w, jnp.zeros(2), HPARAMS)
    if bool(jnp.all(before == after)):
        print("SHARP BIT: weight decay 0.5 had no effect:", after)
