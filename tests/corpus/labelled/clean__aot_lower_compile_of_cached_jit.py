"""`step = cache.get(k) or jax.jit(f)` then `step.lower(params, key).compile()` (jax-numerical-operators' solver):
ahead-of-time lowering traces on the arguments' shapes and dtypes; no number is drawn, so splitting the key
afterwards is its first use."""
import jax
import jax.numpy as jnp


def loss_and_noise(params, key):
    return jnp.sum(params * jax.random.normal(key, params.shape))


cache = {}
key = jax.random.PRNGKey(0)
params = jnp.ones(3)
step = cache.get("step") or jax.jit(loss_and_noise)
compiled = step.lower(params, key).compile()
key, sub = jax.random.split(key)
print(compiled(params, sub))
