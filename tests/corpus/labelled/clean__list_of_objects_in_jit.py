"""A particle-in-cell step jitted over a list of species objects (a registered pytree class): `if particles:` is
a Python list's truth test and `particles[i] = push(...)` rebinds a list slot, since the code calls methods no
JAX array has on the list's elements (`species.positions()`): the list is no array (round 38).
"""
import jax
import jax.numpy as jnp


@jax.tree_util.register_pytree_node_class
class Species:
    def __init__(self, x):
        self.x = x

    def positions(self):
        return self.x

    def tree_flatten(self):
        return (self.x,), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)


@jax.jit
def step(particles, dt):
    if particles:
        centre = jnp.mean(jnp.concatenate([species.positions() for species in particles]))
        for i, species in enumerate(particles):
            particles[i] = Species(species.positions() + dt * centre)
    return particles


if __name__ == "__main__":
    print(step([Species(jnp.ones(3)), Species(jnp.zeros(2))], 0.1)[0].x)
