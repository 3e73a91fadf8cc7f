"""An optax cosine schedule evaluated inside a jitted training step: `lr = schedule(step)` is an array computed
from the traced step count, so freezing the encoder with `if lr < 1e-4:` branches on a tracer.
"""
import jax
import jax.numpy as jnp
import optax

schedule = optax.cosine_decay_schedule(init_value=1e-2, decay_steps=100)


@jax.jit
def train_step(params, grads, step):
    lr = schedule(step)
    if lr < 1e-4:  # expect: traced-control-flow
        grads = {"enc": jnp.zeros_like(grads["enc"]), "dec": grads["dec"]}
    return jax.tree.map(lambda p, g: p - lr * g, params, grads)


if __name__ == "__main__":
    params = {"enc": jnp.ones(3), "dec": jnp.ones(3)}
    print(train_step(params, params, 5))
