"""Multi-host / multi-purpose seeding: several `fold_in` calls with distinct data on one base key that
is never split or drawn from. Each derived key is distinct; the base key itself is never consumed.
"""
import jax
import jax.numpy as jnp

INIT, DATA, DROPOUT = 0, 1, 2


def make_keys(seed):
    base = jax.random.PRNGKey(seed)
    host_key = jax.random.fold_in(base, jax.process_index())
    return {
        "init": jax.random.fold_in(host_key, INIT),
        "data": jax.random.fold_in(host_key, DATA),
        "dropout": jax.random.fold_in(host_key, DROPOUT),
    }


if __name__ == "__main__":
    keys = make_keys(0)
    w = jax.random.normal(keys["init"], (3,))
    order = jax.random.permutation(keys["data"], 5)
    mask = jax.random.bernoulli(keys["dropout"], 0.5, (3,))
    data = [jax.random.key_data(k) for k in keys.values()]
    print(w, order, mask, "distinct:", len({tuple(map(int, d)) for d in data}) == 3)
