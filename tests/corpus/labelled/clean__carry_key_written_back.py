"""JAX PRNG docs: a loop whose carry holds the key splits it and puts the new key back (liesel's SGD epochs
done right): every epoch, step and Python iteration draws from a fresh key.
"""
import jax
import jax.numpy as jnp


def epochs(key, n):
    val = {"key": key, "i": 0, "perms": jnp.zeros((4, n), dtype=jnp.int32)}

    def body_fun(val):
        key, subkey = jax.random.split(val["key"])
        val["key"] = key
        val["perms"] = val["perms"].at[val["i"]].set(jax.random.permutation(subkey, n))
        val["i"] += 1
        return val

    return jax.lax.while_loop(lambda v: v["i"] < 4, body_fun, val)["perms"]


def noisy_path(key, xs):
    def step(carry, x):
        k, s = carry
        k, sub = jax.random.split(k)
        noise = jax.random.normal(sub, ())
        return (k, s + x + noise), noise

    return jax.lax.scan(step, (key, 0.0), xs)[1]


def epoch(state):
    key, sub = jax.random.split(state["key"])
    state["perms"].append(jax.random.permutation(sub, 5))
    state["key"] = key
    return state


def run(key):
    state = {"key": key, "perms": []}
    for _ in range(3):
        state = epoch(state)
    return state["perms"]


if __name__ == "__main__":
    perms = epochs(jax.random.PRNGKey(0), 6)
    print("epochs differ:", not bool((perms == perms[0]).all()))
    noise = noisy_path(jax.random.PRNGKey(0), jnp.zeros(3))
    print("steps differ:", not bool((noise == noise[0]).all()))
    ps = run(jax.random.PRNGKey(0))
    print("iterations differ:", not all(bool((p == ps[0]).all()) for p in ps))
