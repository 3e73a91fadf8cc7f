"""Twin: the jitted bound method returns the loss and the host appends it after each step."""
import jax
import jax.numpy as jnp


class Trainer:
    def __init__(self):
        self.losses = []
        self.step = jax.jit(self._step)

    def _step(self, w, x):
        loss, g = jax.value_and_grad(lambda w: jnp.mean((x * w) ** 2))(w)
        return w - 0.1 * g, loss

    def fit(self, w, x, steps=3):
        for _ in range(steps):
            w, loss = self.step(w, x)
            self.losses.append(float(loss))
        return w


if __name__ == "__main__":
    t = Trainer()
    t.fit(jnp.ones(()), jnp.ones(4))
    print(t.losses)
