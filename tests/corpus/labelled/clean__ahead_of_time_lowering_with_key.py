"""Ahead-of-time lowering draws nothing (fdtdx's examples: `jax.jit(sim_fn).lower(params, arrays, key).compile()`).

`jax.jit(f).lower(...)`, `step.lower(...)` of a jitted function and `jax.make_jaxpr(f)(...)` trace `f` on abstract
values (the arguments' shapes and dtypes): no number is drawn, so the key is as fresh for the first real call as
it was before, and splitting or drawing from it afterwards repeats nothing.
"""
import jax
import jax.numpy as jnp


def simulate(x, key):
    return x + jax.random.normal(key, x.shape)


@jax.jit
def step(x, key):
    return x * jax.random.uniform(key, x.shape)


def run(x):
    key = jax.random.PRNGKey(0)
    compiled = jax.jit(simulate).lower(x, key).compile()
    step.lower(x, key).compile()
    jaxpr = jax.make_jaxpr(simulate)(x, key)
    key, subkey = jax.random.split(key)
    first = compiled(x, subkey)
    second = step(x, key)
    return jaxpr, first, second


if __name__ == "__main__":
    jaxpr, first, second = run(jnp.ones(4))
    assert "random_bits" in str(jaxpr) or "threefry" in str(jaxpr)
    assert not bool(jnp.array_equal(first - 1.0, second))
    print("ok:", first, second)
