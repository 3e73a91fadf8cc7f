"""Functions that return the next key the way JAX means: the half of a split that nothing drew from.

`sample` splits, draws from the subkey and returns the other half; `derive` only folds data into its key (no
draw); `eval_step` returns the key it drew from, but its only caller throws that element away (`loss, _ = ...`).
"""
import jax


def sample(key):
    key, sub = jax.random.split(key)
    x = jax.random.normal(sub, (3,))
    return x, key


def derive(key, step):
    return jax.random.fold_in(key, step), key


def eval_step(x, key):
    noise = jax.random.normal(key, x.shape)
    return (x + noise).sum(), key


def run(x, key):
    key, sub = jax.random.split(key)
    loss, _ = eval_step(x, sub)
    return loss, key


if __name__ == "__main__":
    k1, k2, k3 = jax.random.split(jax.random.PRNGKey(0), 3)
    x, _ = sample(k1)
    step_key, _ = derive(k2, 1)
    print(x, run(x, k3)[0], step_key)
