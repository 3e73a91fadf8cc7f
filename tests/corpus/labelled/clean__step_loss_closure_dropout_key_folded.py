"""Sharp Bits / "Random numbers": a training step whose nested `loss_fn` closes over the step's dropout key,
differentiated with `jax.grad(loss_fn)(w)`, given a fresh key each step (`fold_in` of the step number).
Nothing here is a sharp bit.
"""
import jax
import jax.numpy as jnp


def dropout(h, key, rate=0.5):
    keep = jax.random.bernoulli(key, 1.0 - rate, h.shape)
    return jnp.where(keep, h / (1.0 - rate), 0.0), keep


@jax.jit
def train_step(w, x, y, dropout_key):
    def loss_fn(w):
        h, keep = dropout(jnp.tanh(x @ w), dropout_key)
        return jnp.mean((h.sum(-1) - y) ** 2), keep

    grads, keep = jax.grad(loss_fn, has_aux=True)(w)
    return w - 0.1 * grads, keep


if __name__ == "__main__":
    key = jax.random.PRNGKey(0)
    init_key, dropout_key = jax.random.split(key)
    w = jax.random.normal(init_key, (4, 8))
    x, y = jnp.ones((16, 4)), jnp.zeros(16)
    masks = []
    for step in range(3):
        w, keep = train_step(w, x, y, jax.random.fold_in(dropout_key, step))
        masks.append(keep)
    print("distinct masks:", len({bytes(jnp.asarray(m).tobytes()) for m in masks}))
