"""Sharp Bits: "Pure functions": weight decay read from a global inside `jax.jit(jax.value_and_grad(loss))`.

A schedule lowers `weight_decay` with `global`, but the compiled gradient keeps the first value.
"""
import jax
import jax.numpy as jnp

weight_decay = 1e-2


def loss(w, x, y):
    mse = jnp.mean((x @ w - y) ** 2)
    return mse + weight_decay * jnp.sum(w ** 2)  # expect: global-captured-in-jit


loss_and_grad = jax.jit(jax.value_and_grad(loss))


def anneal(epoch):
    global weight_decay
    weight_decay = 1e-2 / (1 + epoch)


if __name__ == "__main__":
    w, x, y = jnp.ones(2), jnp.ones((3, 2)), jnp.zeros(3)
    for epoch in range(3):
        anneal(epoch)
        print(epoch, loss_and_grad(w, x, y)[0])
    print("SHARP BIT: compiled loss", float(loss_and_grad(w, x, y)[0]), "vs eager loss", float(loss(w, x, y)))
