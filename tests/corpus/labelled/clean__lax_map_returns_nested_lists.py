"""`lax.map` keeps the structure its function returns (gwkokab's marginal densities).

The mapped function returns a list (one entry per mixture component) of lists of arrays; `lax.map` gives back
that same list of lists, with each array stacked over the samples. `res[i][j] = ...` therefore stores a new
array into a Python list, which is allowed (run: the rescaled marginal is stored, no error).
"""
import jax
import jax.numpy as jnp


def component_marginals(samples, grid):
    def per_sample(s, grid):
        components = []
        for comp in range(2):
            density = jnp.exp(-((grid - s * (comp + 1)) ** 2))
            components.append([density, density / jnp.sum(density)])
        return components

    single = lambda s: per_sample(s, grid)
    return jax.lax.map(single, samples, batch_size=2)


def rescale_last(samples, grid):
    res = component_marginals(samples, grid)
    for i in range(len(res)):
        res[i][1] = res[i][1] * grid.shape[0]
    return res


if __name__ == "__main__":
    out = rescale_last(jnp.arange(4.0), jnp.linspace(0.0, 3.0, 5))
    print(type(out).__name__, type(out[0]).__name__, out[1][1].shape)
