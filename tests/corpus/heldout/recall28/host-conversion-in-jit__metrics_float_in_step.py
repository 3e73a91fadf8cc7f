"""A jitted training step that builds its metrics dict for the logger with `float(loss)` and `float(acc)`:
inside `jax.jit` both are tracers and `float()` raises ConcretizationTypeError.
"""
import jax
import jax.numpy as jnp


def loss_fn(w, x, y):
    logits = x @ w
    return jnp.mean((logits - y) ** 2), jnp.mean(jnp.sign(logits) == jnp.sign(y))


@jax.jit
def train_step(w, x, y):
    (loss, acc), g = jax.value_and_grad(loss_fn, has_aux=True)(w, x, y)
    metrics = {"loss": float(loss), "acc": float(acc)}  # expect: host-conversion-in-jit
    return w - 0.1 * g, metrics


if __name__ == "__main__":
    w, metrics = train_step(jnp.zeros(3), jnp.ones((4, 3)), jnp.ones(4))
    print(metrics)
