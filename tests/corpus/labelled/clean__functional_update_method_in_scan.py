"""jaxqtl's permutation scan (map/_scan.py): `full_scan` reduces the observed statistics with
`state = gene_test.update(state, values, valid)` and hands the same aggregation module to
`permutation_maxima`, whose scan body returns `aggregation.update(state, values, valid)`. That `update` returns
the new state (a functional accumulator, an equinox module); a list, dict or set `update` returns None, so a
method whose result is read stores nothing in the object.
"""
import equinox as eqx
import jax
import jax.numpy as jnp
from jax import lax


class MaxAbs(eqx.Module):
    n_perm: int = 8

    def init(self):
        return jnp.asarray(-jnp.inf)

    def update(self, state, values, valid):
        return jnp.fmax(state, jnp.nanmax(jnp.where(valid, jnp.abs(values), jnp.nan)))


@eqx.filter_jit
def full_scan(y, gene_test, key):
    state = gene_test.init()
    state = gene_test.update(state, y, jnp.ones_like(y, dtype=bool))
    return state, permutation_maxima(y, gene_test, key)


@eqx.filter_jit
def permutation_maxima(y, aggregation, key):
    def permute_one(key, _):
        key, p_key = jax.random.split(key)
        values = jax.random.permutation(p_key, y) * jnp.arange(y.shape[0])
        state = aggregation.init()
        return key, aggregation.update(state, values, jnp.ones_like(values, dtype=bool))

    return lax.scan(permute_one, key, xs=None, length=aggregation.n_perm)[1]


if __name__ == "__main__":
    observed, maxima = full_scan(jnp.arange(5.0) - 2.0, MaxAbs(), jax.random.key(0))
    assert maxima.shape == (8,) and bool(jnp.all(jnp.isfinite(maxima))) and float(observed) == 2.0
    print(observed, maxima)
