"""jaxqtl's trans scan (map/trans.py): for each genotype chunk it calls
`eqx.filter_jit(eqx.filter_vmap(test, in_axes=...))(...)`, building the wrappers again on every iteration. Equinox's
wrappers are modules compared by value and filter_jit's cache keys on that value, so the same `test` finds its
compiled code again: one trace for all the chunks (counted below).
"""
import equinox as eqx
import jax.numpy as jnp

TRACES = []


class Test(eqx.Module):
    w: jnp.ndarray

    def __call__(self, X, G, y):
        TRACES.append(1)
        return (X @ self.w).sum() + G.sum() + y.sum()


def scan(test, X, chunks, pheno):
    out = []
    for G in chunks:
        out.append(eqx.filter_jit(eqx.filter_vmap(test, in_axes=(None, None, 1)))(X, G, pheno))
    return out


if __name__ == "__main__":
    res = scan(Test(jnp.ones(3)), jnp.ones((4, 3)), [jnp.ones((4, 2)) * i for i in range(5)], jnp.ones((4, 6)))
    assert len(res) == 5 and len(TRACES) == 1, len(TRACES)
    print("traces:", len(TRACES))
