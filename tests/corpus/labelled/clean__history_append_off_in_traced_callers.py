"""A step helper that records each loss in a module-level history when it runs eagerly: the jitted step passes
`record=False`, a literal, so the append is never traced (round 21 of issue 22, the literal-flag class). Run
eagerly with the default, the history holds the concrete losses.
"""
import jax
import jax.numpy as jnp

HISTORY = []


def loss_and_step(w, x, y, record=True):
    loss = jnp.mean((x @ w - y) ** 2)
    if record:
        HISTORY.append(loss)
    return loss, w - 0.1 * jax.grad(lambda v: jnp.mean((x @ v - y) ** 2))(w)


@jax.jit
def train_step(w, x, y):
    return loss_and_step(w, x, y, record=False)


if __name__ == "__main__":
    w, x, y = jnp.ones(2), jnp.ones((4, 2)), jnp.zeros(4)
    print(train_step(w, x, y))
    loss_and_step(w, x, y)
    print(HISTORY)
