"""Sharp Bits / "Converting traced values": `float(loss)` for a metrics dict inside a jitted step.

Under jit the loss is an abstract tracer; `float()` needs its value: ConcretizationTypeError.
Return the array and call `float()` after the step.
"""
import jax
import jax.numpy as jnp


def mse(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


@jax.jit
def train_step(w, x, y):
    loss = mse(w, x, y)
    metrics = {"loss": float(loss)}  # expect: host-conversion-in-jit
    return w - 0.1 * jax.grad(mse)(w, x, y), metrics


if __name__ == "__main__":
    print(train_step(jnp.ones(2), jnp.ones((4, 2)), jnp.zeros(4)))
