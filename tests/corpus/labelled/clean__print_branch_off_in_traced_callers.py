"""A training step helper that prints its loss when run eagerly for debugging: the jitted step passes
`debug=False` (a literal, positionally), so the `if debug:` print is never traced (round 21 of issue 22, the
literal-flag class). Run eagerly with the default, it prints the value.
"""
import jax
import jax.numpy as jnp


def mse(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


def sgd_step(w, x, y, debug=True):
    loss, grad = jax.value_and_grad(mse)(w, x, y)
    if debug:
        print("loss", loss)
    return w - 0.1 * grad


@jax.jit
def train_step(w, x, y):
    return sgd_step(w, x, y, False)


if __name__ == "__main__":
    w, x, y = jnp.ones(2), jnp.ones((4, 2)), jnp.zeros(4)
    print(train_step(w, x, y))
    sgd_step(w, x, y)
