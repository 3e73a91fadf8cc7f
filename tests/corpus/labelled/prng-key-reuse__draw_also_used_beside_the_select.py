"""goal-jax (round 24), the bug twin: the uniform drawn from the proposal's key is kept in the select's other arm
and also added to the result, so where the normal draw is kept the uniform from the same key is added to it: the
two are monotone transforms of the same bits (run on jax 0.10.2: their correlation over 10,000 keys is above 0.9).
"""
import jax
import jax.numpy as jnp


def propose(key, wide):
    x = jax.random.normal(key)
    u = jax.random.uniform(key)  # expect: prng-key-reuse
    return jnp.where(wide, x, u) + 0.1 * u


if __name__ == "__main__":
    keys = jax.random.split(jax.random.key(0), 10_000)
    xs = jax.vmap(lambda k: jax.random.normal(k))(keys)
    us = jax.vmap(lambda k: jax.random.uniform(k))(keys)
    print(float(jnp.corrcoef(xs, us)[0, 1]))
