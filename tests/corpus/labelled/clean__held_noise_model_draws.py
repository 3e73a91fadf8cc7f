"""A problem whose `evaluate(key, x)` hands its key only to the noise model it holds, built without one
(`Problem(1)`): the attribute holds its default, `Noiseless`, whose `apply` ignores the key. Drawing the
solution from the same key and then evaluating it draws once; the key feeds no other draw.
"""
import jax
import jax.numpy as jnp


class Noiseless:
    def apply(self, key, value):
        return value


class Gaussian:
    def apply(self, key, value):
        return value + jax.random.normal(key, value.shape)


class Problem:
    def __init__(self, dims, noise=None):
        self.dims = dims
        self.noise_model = Noiseless() if noise is None else noise

    def evaluate(self, key, x):
        return self.noise_model.apply(key, jnp.sum(x * x, keepdims=True))


def main():
    problem = Problem(1)
    key = jax.random.key(0)
    x = jax.random.normal(key, (1,))
    value = problem.evaluate(key, x)
    assert bool(jnp.allclose(value, x * x)), "Noiseless returns the value untouched"
    print("clean: evaluate drew nothing from the key")


if __name__ == "__main__":
    main()
