"""`if batch_data:` in a jitted step whose `batch_data` is a tuple of arrays handed on as `*batch_data` (jaxonomy's
trainer: an empty tuple trains without data): unpacking it with `*` shows a Python sequence, and its truth is the
tuple's, known at trace time."""
import jax
import jax.numpy as jnp


def loss(p, *batch):
    return sum(jnp.sum((p * x - y) ** 2) for x, y in [batch]) if batch else jnp.sum(p ** 2)


@jax.jit
def opt_step(p, batch_data):
    if batch_data:
        value, grad = jax.value_and_grad(loss)(p, *batch_data)
    else:
        value, grad = jax.value_and_grad(loss)(p)
    return p - 0.1 * grad, value


print(opt_step(jnp.ones(3), (jnp.ones(3), jnp.zeros(3))))
print(opt_step(jnp.ones(3), ()))
