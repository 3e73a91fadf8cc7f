"""kim-jax (round 23), the bug twin: the per-call helper rebinds its parameter to `jax.jit(jax.vmap(loss_func))`.
`jax.vmap(...)` makes a new function object on every call, so the jit cache misses and the loss is traced again on
every step of the training loop.
"""
import jax
import jax.numpy as jnp

traces = []


def loss_mse(w, x, y):
    traces.append(1)  # runs once per trace
    return jnp.mean((x * w - y) ** 2)


def evaluate(w, xs, ys, loss_func):
    loss_func = jax.jit(jax.vmap(loss_func, in_axes=(None, 0, 0)))  # expect: jit-in-loop
    return loss_func(w, xs, ys).mean()


def train(w, xs, ys, loss_func=loss_mse):
    history = []
    for _ in range(4):
        w = w * 0.9
        history.append(evaluate(w, xs, ys, loss_func))
    return w, history


if __name__ == "__main__":
    train(jnp.ones(3), jnp.ones((2, 3)), jnp.zeros((2, 3)))
    if len(traces) > 1:
        print("SHARP BIT: 4 steps, loss traced", len(traces), "times")
