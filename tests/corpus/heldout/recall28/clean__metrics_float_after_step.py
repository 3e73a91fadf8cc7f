"""A jitted training step returns its metrics as arrays; the logging code outside the step converts them with
`float()` once the step has run.
"""
import jax
import jax.numpy as jnp


def loss_fn(w, x, y):
    logits = x @ w
    return jnp.mean((logits - y) ** 2), jnp.mean(jnp.sign(logits) == jnp.sign(y))


@jax.jit
def train_step(w, x, y):
    (loss, acc), g = jax.value_and_grad(loss_fn, has_aux=True)(w, x, y)
    return w - 0.1 * g, {"loss": loss, "acc": acc}


if __name__ == "__main__":
    w, metrics = train_step(jnp.zeros(3), jnp.ones((4, 3)), jnp.ones(4))
    print({k: float(v) for k, v in metrics.items()})
