"""Pytrees docs: parameters as dicts; updating a dict (not an array) inside jit is fine.
"""
import jax
import jax.numpy as jnp


def loss(params, x, y):
    pred = x @ params["w"] + params["b"]
    return jnp.mean((pred - y) ** 2)


@jax.jit
def update(params, x, y, lr=0.05):
    grads = jax.grad(loss)(params, x, y)
    new_params = {}
    for name in params:
        new_params[name] = params[name] - lr * grads[name]
    metrics = {"loss": loss(params, x, y)}
    metrics["grad_norm"] = jnp.sqrt(sum(jnp.sum(g ** 2) for g in grads.values()))
    return new_params, metrics


if __name__ == "__main__":
    params = {"w": jnp.zeros((2, 1)), "b": jnp.zeros(1)}
    print(update(params, jnp.ones((4, 2)), jnp.ones((4, 1))))
