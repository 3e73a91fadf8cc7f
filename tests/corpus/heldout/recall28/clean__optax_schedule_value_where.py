"""An optax cosine schedule evaluated inside a jitted training step: the encoder is frozen once the rate is
small with `jnp.where(lr < 1e-4, 0, g)`, a traced choice.
"""
import jax
import jax.numpy as jnp
import optax

schedule = optax.cosine_decay_schedule(init_value=1e-2, decay_steps=100)


@jax.jit
def train_step(params, grads, step):
    lr = schedule(step)
    enc = jnp.where(lr < 1e-4, jnp.zeros_like(grads["enc"]), grads["enc"])
    grads = {"enc": enc, "dec": grads["dec"]}
    return jax.tree.map(lambda p, g: p - lr * g, params, grads)


if __name__ == "__main__":
    params = {"enc": jnp.ones(3), "dec": jnp.ones(3)}
    print(train_step(params, params, 5))
