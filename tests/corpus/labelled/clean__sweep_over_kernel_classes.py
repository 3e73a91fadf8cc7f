"""A test in the gpjax style that repeats one check for several kernel classes with the same random
initialisation (common random numbers across settings); each setting's values are checked and dropped."""
import jax
import jax.numpy as jnp


def rbf(x, scale):
    return jnp.exp(-0.5 * (x / scale) ** 2)


def matern12(x, scale):
    return jnp.exp(-jnp.abs(x) / scale)


def test_kernels_are_bounded():
    key = jax.random.PRNGKey(0)
    x = jnp.linspace(-1, 1, 5)
    for kernel in (rbf, matern12):
        scale = jax.random.uniform(key, (), minval=0.5, maxval=2.0)
        values = kernel(x, scale)
        assert bool(jnp.all(values <= 1.0))


if __name__ == "__main__":
    test_kernels_are_bounded()
    print("passed")
