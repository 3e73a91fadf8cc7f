"""The bug twin of `clean__history_append_off_in_traced_callers`: the jitted step leaves `record` at its default
`True`, so the traced helper appends a tracer to the module-level history once, at trace time, and never a loss
(the list holds one leaked tracer however many steps run). Return the loss and record it after the call.
"""
import jax
import jax.numpy as jnp

HISTORY = []


def loss_and_step(w, x, y, record=True):
    loss = jnp.mean((x @ w - y) ** 2)
    if record:
        HISTORY.append(loss)  # expect: side-effect-in-jit
    return loss, w - 0.1 * jax.grad(lambda v: jnp.mean((x @ v - y) ** 2))(w)


@jax.jit
def train_step(w, x, y):
    return loss_and_step(w, x, y)


if __name__ == "__main__":
    w, x, y = jnp.ones(2), jnp.ones((4, 2)), jnp.zeros(4)
    train_step(w, x, y)
    train_step(w, x, y)
    print(len(HISTORY), HISTORY)
