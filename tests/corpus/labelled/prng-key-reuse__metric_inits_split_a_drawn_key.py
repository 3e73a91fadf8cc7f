"""A container of metric modules whose `init` splits its key and hands one piece to each metric's `init`
(gfnx's `MultiMetricsModule`). The test set was drawn from `split(key)[1]`, and `split(key, 2)[1]` is that
same key: built with a metric whose `init` draws (`Sampled`), its initial state is the test set itself.
"""
import jax
import jax.numpy as jnp


class Count:
    def init(self, key):
        return jnp.zeros(())


class Sampled:
    def init(self, key):
        return jax.random.normal(key, (3,))


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
    multi = Multi({"count": Count(), "sampled": Sampled()})
    states = multi.init(key)  # expect: prng-key-reuse
    if bool(jnp.all(states["sampled"] == test_set)):
        print("SHARP BIT: the sampled metric's initial state is the test set (split(key, 2)[1] == split(key)[1])")


if __name__ == "__main__":
    main()
