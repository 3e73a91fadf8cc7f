"""JAX debugging docs: `jax.debug.callback` runs on every call, on the host, with concrete values; appending
them to a module-level list there is the supported way to log from jitted code.
"""
import jax
import jax.numpy as jnp
import numpy as np

loss_log = []


def log_loss(loss):
    loss_log.append(float(np.asarray(loss)))


@jax.jit
def train_step(w, x):
    loss = jnp.mean((x @ w) ** 2)
    jax.debug.callback(log_loss, loss)
    jax.debug.callback(lambda v: loss_log.append(float(v)), loss * 2)
    return w - 0.1 * x.T @ (x @ w)


if __name__ == "__main__":
    w = jnp.ones(2)
    for _ in range(3):
        w = train_step(w, jnp.eye(2))
    jax.effects_barrier()
    assert len(loss_log) == 6, loss_log
