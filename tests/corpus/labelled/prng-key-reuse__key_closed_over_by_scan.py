"""Langevin-style simulation with `lax.scan`: the step function closes over `key` and draws from it
unchanged, so every step adds the same "random" increment.
"""
import jax
import jax.numpy as jnp
from jax import lax


def simulate(key, x0, n_steps=5, dt=0.01):
    def step(x, _):
        noise = jax.random.normal(key, x.shape)  # expect: prng-key-reuse
        x = x - dt * x + jnp.sqrt(2 * dt) * noise
        return x, noise

    _, noises = lax.scan(step, x0, None, length=n_steps)
    return noises


if __name__ == "__main__":
    noises = jax.jit(simulate)(jax.random.PRNGKey(0), jnp.zeros(3))
    if bool(jnp.all(noises == noises[0])):
        print("SHARP BIT: every step drew the same noise:", noises[0])
