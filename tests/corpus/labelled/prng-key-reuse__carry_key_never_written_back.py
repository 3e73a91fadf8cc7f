"""JAX PRNG docs: never reuse a key. A training loop (liesel's SGD epochs) splits the key kept in its
`lax.while_loop` carry every epoch but hands the carry back with the old key: every epoch shuffles the data with
the same permutation. A scan that draws its noise from the carried key, and a Python loop running the same kind
of epoch function, repeat their draws the same way.
"""
import jax
import jax.numpy as jnp


def epochs(key, n):
    val = {"key": key, "i": 0, "perms": jnp.zeros((4, n), dtype=jnp.int32)}

    def body_fun(val):
        _, subkey = jax.random.split(val["key"])  # expect: prng-key-reuse
        val["perms"] = val["perms"].at[val["i"]].set(jax.random.permutation(subkey, n))
        val["i"] += 1
        return val

    return jax.lax.while_loop(lambda v: v["i"] < 4, body_fun, val)["perms"]


def noisy_path(key, xs):
    def step(carry, x):
        k, s = carry
        noise = jax.random.normal(k, ())  # expect: prng-key-reuse
        return (k, s + x + noise), noise

    return jax.lax.scan(step, (key, 0.0), xs)[1]


def epoch(state):
    _, sub = jax.random.split(state["key"])  # expect: prng-key-reuse
    state["perms"].append(jax.random.permutation(sub, 5))
    return state


def run(key):
    state = {"key": key, "perms": []}
    for _ in range(3):
        state = epoch(state)
    return state["perms"]


if __name__ == "__main__":
    perms = epochs(jax.random.PRNGKey(0), 6)
    print("SHARP BIT: every epoch the same permutation:", bool((perms == perms[0]).all()))
    noise = noisy_path(jax.random.PRNGKey(0), jnp.zeros(3))
    print("SHARP BIT: the same noise every step:", bool((noise == noise[0]).all()))
    ps = run(jax.random.PRNGKey(0))
    print("SHARP BIT: the Python loop repeats it:", all(bool((p == ps[0]).all()) for p in ps))
