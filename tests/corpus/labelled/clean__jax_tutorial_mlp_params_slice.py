"""JAX tutorial "Training a simple neural network" (MNIST MLP): `for w, b in params[:-1]:` loops over a
Python list of layer tuples (a slice of a list, not of an array) inside vmap/jit; it unrolls a fixed,
small structure and is idiomatic.
"""
import jax
import jax.numpy as jnp
from jax import jit, vmap


def init_network_params(sizes, key):
    keys = jax.random.split(key, len(sizes))
    return [(0.01 * jax.random.normal(k, (n, m)), jnp.zeros(n)) for m, n, k in zip(sizes[:-1], sizes[1:], keys)]


def predict(params, image):
    activations = image
    for w, b in params[:-1]:
        activations = jax.nn.relu(jnp.dot(w, activations) + b)
    final_w, final_b = params[-1]
    logits = jnp.dot(final_w, activations) + final_b
    return logits - jax.scipy.special.logsumexp(logits)


batched_predict = vmap(predict, in_axes=(None, 0))


@jit
def update(params, x, y, step_size=0.01):
    grads = jax.grad(lambda p: -jnp.mean(jnp.sum(batched_predict(p, x) * y, axis=1)))(params)
    return [(w - step_size * dw, b - step_size * db) for (w, b), (dw, db) in zip(params, grads)]


@jax.jit
def forward_dicts(layers, x):
    for layer in layers[:-1]:
        x = jax.nn.gelu(x @ layer["w"] + layer["b"])
    return x @ layers[-1]["w"] + layers[-1]["b"]


if __name__ == "__main__":
    params = init_network_params([4, 8, 3], jax.random.PRNGKey(0))
    x, y = jnp.ones((2, 4)), jax.nn.one_hot(jnp.array([0, 2]), 3)
    print(update(params, x, y)[0][0].shape)
    layers = [{"w": jnp.ones((4, 4)), "b": jnp.zeros(4)}, {"w": jnp.ones((4, 2)), "b": jnp.zeros(2)}]
    print(forward_dicts(layers, jnp.ones((1, 4))))
