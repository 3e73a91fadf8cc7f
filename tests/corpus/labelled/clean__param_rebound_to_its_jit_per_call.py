"""kim-jax (round 23): a per-call helper rebinds its function parameter to a jit wrapper of it,
`loss_func = jax.jit(loss_func)`, and a training loop calls the helper once per step with the same function.

Each call wraps the caller's same function object again, and JAX's cache finds it: the loss is traced once in
all. (Only inside a loop does `f = jax.jit(f)` wrap the wrapper the previous iteration made.)
"""
import jax
import jax.numpy as jnp

traces = []


def loss_mse(w, x, y):
    traces.append(1)  # runs once per trace
    return jnp.mean((x * w - y) ** 2)


def evaluate(w, batches, loss_func):
    loss_func = jax.jit(loss_func)
    total = 0.0
    for x, y in batches:
        total += loss_func(w, x, y)
    return total / len(batches)


def train(w, batches, loss_func=loss_mse):
    history = []
    for _ in range(4):
        w = w * 0.9
        history.append(evaluate(w, batches, loss_func))
    return w, history


if __name__ == "__main__":
    train(jnp.ones(3), [(jnp.ones(3), jnp.zeros(3))] * 2)
    print("4 steps, loss traced", len(traces), "time(s)")
