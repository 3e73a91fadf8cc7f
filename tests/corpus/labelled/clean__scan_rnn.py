"""Sharp Bits / "Control flow": an RNN written with `lax.scan` and differentiated with `jax.grad`.
"""
import jax
import jax.numpy as jnp


def rnn_loss(params, xs, target):
    w_h, w_x = params

    def cell(h, x):
        h = jnp.tanh(h @ w_h + x @ w_x)
        return h, h

    h_final, hs = jax.lax.scan(cell, jnp.zeros(w_h.shape[0]), xs)
    return jnp.sum((h_final - target) ** 2) + 1e-3 * jnp.sum(hs ** 2)


grad_fn = jax.jit(jax.grad(rnn_loss))


if __name__ == "__main__":
    params = (jnp.eye(4) * 0.5, jnp.ones((3, 4)) * 0.1)
    xs = jnp.ones((64, 3))
    print(jax.tree_util.tree_map(jnp.shape, grad_fn(params, xs, jnp.zeros(4))))
