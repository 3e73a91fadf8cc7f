"""JAX PRNG docs: a key that was split is spent. Under the default (partitionable) threefry,
`fold_in(key, i)` equals `split(key, n)[i]`, so per-step keys folded from an already split key repeat
the keys the split handed out.
"""
import jax
import jax.numpy as jnp


def train(key, steps=3, lr=0.1):
    init_key, data_key = jax.random.split(key)
    w = jax.random.normal(init_key, (2,))
    xs = jax.random.normal(data_key, (steps, 2))
    step_keys = []
    for step in range(steps):
        step_key = jax.random.fold_in(key, step)  # expect: prng-key-reuse
        noise = 0.01 * jax.random.normal(step_key, (2,))
        w = w - lr * (xs[step] * jnp.dot(w, xs[step]) + noise)
        step_keys.append(step_key)
    return w, step_keys, (init_key, data_key)


if __name__ == "__main__":
    w, step_keys, (init_key, data_key) = train(jax.random.PRNGKey(0))
    if bool(jnp.all(step_keys[0] == init_key)) and bool(jnp.all(step_keys[1] == data_key)):
        print("SHARP BIT: step 0 and 1 keys are the init and data keys")
