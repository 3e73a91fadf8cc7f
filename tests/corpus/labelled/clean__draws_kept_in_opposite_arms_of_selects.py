"""goal-jax (round 24): a rejection sampler draws the proposal of both envelopes from one key, a Poisson one for
`nu >= 1` and a geometric one (from a uniform) for `nu < 1`, and keeps one envelope by `jnp.where` on the same
condition for every value it carries on: the proposal and its acceptance ratio. Each draw's values end only in
its own arm of selections on one condition, so wherever one is kept the other is not: the two never meet (run on
jax 0.10.2: with nu = 0.5 the samples equal those of the geometric envelope alone, drawn from the same key).
"""
import jax
import jax.numpy as jnp


def propose(key, mu, nu):
    pois_y = jax.random.poisson(key, mu)
    log_ratio_pois = nu * pois_y * jnp.log(mu)
    u0 = jax.random.uniform(key)
    geo_y = jnp.floor(jnp.log(u0) / jnp.log(1 - 0.5 / mu))
    log_ratio_geo = nu * geo_y * jnp.log(1 - 0.5 / mu)
    y = jnp.where(nu >= 1, pois_y, geo_y)
    log_ratio = jnp.where(nu >= 1, log_ratio_pois, log_ratio_geo)
    return y, log_ratio


def propose_geometric(key, mu, nu):
    u0 = jax.random.uniform(key)
    geo_y = jnp.floor(jnp.log(u0) / jnp.log(1 - 0.5 / mu))
    return geo_y, nu * geo_y * jnp.log(1 - 0.5 / mu)


if __name__ == "__main__":
    keys = jax.random.split(jax.random.key(0), 100)
    both = jax.vmap(lambda k: propose(k, 3.0, 0.5))(keys)
    alone = jax.vmap(lambda k: propose_geometric(k, 3.0, 0.5))(keys)
    print(bool(jnp.all(both[0] == alone[0])), bool(jnp.allclose(both[1], alone[1])))
