"""Sharp Bits / "Random numbers": a training step whose nested `loss_fn` closes over the step's dropout key,
differentiated with `jax.grad(loss_fn)(w)`, fed the same key at every step of the loop.

The step draws its dropout mask from the key on every call (through the closure the gradient runs): the same
key gives the same mask at every step.
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
        w, keep = train_step(w, x, y, dropout_key)  # expect: prng-key-reuse
        masks.append(keep)
    if all(bool(jnp.array_equal(masks[0], m)) for m in masks):
        print("SHARP BIT: the same dropout mask at every step")
