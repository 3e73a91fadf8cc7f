"""`jax.jit` of a lambda (or nested def, partial, bound method, vmap/grad wrapper) made inside a loop is a new
function every iteration: the cache misses and it is traced and compiled again each time."""

import functools

import jax
import jax.numpy as jnp


def loss(w, x):
    return jnp.mean((x @ w) ** 2)


def train(w, batches):
    for x in batches:
        g = jax.jit(jax.grad(loss))(w, x)
        w = w - 0.1 * g
    return w


def train_right(w, batches):
    grad_fn = jax.jit(jax.grad(loss))  # created once
    for x in batches:
        w = w - 0.1 * grad_fn(w, x)
    return w


@functools.partial(jax.jit, static_argnames="axes")
def total(x, axes):
    return jnp.sum(x, axis=axes)


print(total(jnp.ones((2, 3)), axes=(0, 1)))  # a tuple is hashable: fine
