"""The bug twin of `clean__print_branch_off_in_traced_callers`: the jitted step leaves `debug` at its default
`True`, so the traced helper prints a tracer once, at trace time, and never the loss. Use `jax.debug.print`, or
pass `debug=False` from traced code.
"""
import jax
import jax.numpy as jnp


def mse(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


def sgd_step(w, x, y, debug=True):
    loss, grad = jax.value_and_grad(mse)(w, x, y)
    if debug:
        print("loss", loss)  # expect: print-in-jit
    return w - 0.1 * grad


@jax.jit
def train_step(w, x, y):
    return sgd_step(w, x, y)


if __name__ == "__main__":
    w, x, y = jnp.ones(2), jnp.ones((4, 2)), jnp.zeros(4)
    print(train_step(w, x, y))
    print(train_step(w, x, y))
