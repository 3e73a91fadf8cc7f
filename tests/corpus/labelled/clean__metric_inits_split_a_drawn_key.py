"""A container of metric modules whose `init` splits its key and hands one piece to each metric's `init`
(gfnx's `MultiMetricsModule`), built only with metrics whose `init` ignores its key and builds a zero state.
The test set was drawn from `split(key)[1]`; the container's split gives that key again, but no metric draws
from it, so nothing is drawn twice.
"""
import jax
import jax.numpy as jnp


class Count:
    def init(self, key):
        return jnp.zeros(())


class Best:
    def init(self, key):
        return jnp.full((), jnp.inf)


class Multi:
    def __init__(self, metrics):
        self.metrics = metrics

    def init(self, key):
        keys = jax.random.split(key, len(self.metrics))
        by_name = dict(zip(self.metrics.keys(), keys))
        return {name: metric.init(by_name[name]) for name, metric in self.metrics.items()}


def main():
    key = jax.random.key(0)
    _, sample_key = jax.random.split(key)
    test_set = jax.random.normal(sample_key, (3,))
    multi = Multi({"count": Count(), "best": Best()})
    states = multi.init(key)
    assert float(states["count"]) == 0.0 and bool(jnp.isinf(states["best"]))
    print("clean: metric states", states, "test set", test_set.shape)


if __name__ == "__main__":
    main()
