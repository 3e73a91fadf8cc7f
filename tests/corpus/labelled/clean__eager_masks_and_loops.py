"""Eager (un-jitted) JAX code: boolean masks and Python loops work fine outside traced code.
"""
import jax.numpy as jnp


def summarize(x):
    positives = x[x > 0]
    stats = {}
    for q in range(1, 4):
        stats[f"q{q}"] = float(jnp.quantile(positives, q / 4))
    return stats


def clip_negative(x):
    return x.at[x < 0].set(0.0)


def iterate(x, tol=1e-3):
    steps = 0
    while jnp.max(jnp.abs(x)) > tol:
        x = x * 0.5
        steps += 1
    return x, steps


if __name__ == "__main__":
    x = jnp.linspace(-1.0, 3.0, 9)
    print(summarize(x), clip_negative(x), iterate(x)[1])
