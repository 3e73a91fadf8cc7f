"""A problem whose `evaluate(key, x)` hands its key to the noise model it holds, built with a noise model that
draws (`Problem(4, noise=Gaussian())`): the solution `x` was drawn from the same key, so the noise added to its
value is the same numbers as `x` itself. The attribute's default (`Noiseless`) would draw nothing; the one
passed in does.
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
    problem = Problem(1, noise=Gaussian())
    key = jax.random.key(0)
    x = jax.random.normal(key, (1,))
    noisy = problem.evaluate(key, x)  # expect: prng-key-reuse
    if bool(jnp.allclose(noisy - x * x, x)):
        print("SHARP BIT: the noise added to f(x) is x itself (one key drew both)")


if __name__ == "__main__":
    main()
