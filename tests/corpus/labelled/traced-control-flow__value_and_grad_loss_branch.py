"""Sharp Bits / "Control flow": a Python `if` on the loss returned by `jax.value_and_grad` under jit.

Gradient clipping written as `if loss > threshold:` inside the jitted step: the loss is a tracer,
so JAX raises TracerBoolConversionError when the step is traced.
"""
import jax
import jax.numpy as jnp


def loss_fn(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


@jax.jit
def train_step(w, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(w, x, y)
    if loss > 10.0:  # expect: traced-control-flow
        grads = grads * 0.1
    return w - 0.01 * grads


if __name__ == "__main__":
    print(train_step(jnp.ones(2), jnp.ones((4, 2)), jnp.zeros(4)))
