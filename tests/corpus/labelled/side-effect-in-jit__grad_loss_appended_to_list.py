"""Autodiff cookbook: `jax.grad` runs the function once with tracers for the differentiated argument, so a loss
computed from it and appended to a module-level list is a tracer, even without `jit`.
"""
import jax
import jax.numpy as jnp

losses = []


def loss_fn(w, x):
    loss = jnp.mean((x @ w) ** 2)
    losses.append(loss)  # expect: side-effect-in-jit
    return loss


if __name__ == "__main__":
    g = jax.grad(loss_fn)(jnp.ones(3), jnp.ones((4, 3)))
    if isinstance(losses[0], jax.core.Tracer):
        print("SHARP BIT: the recorded loss is a tracer:", type(losses[0]).__name__)
