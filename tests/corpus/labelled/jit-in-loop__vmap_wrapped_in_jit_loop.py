"""JAX jit docs ("caching"): `jax.jit(jax.vmap(f))` inside a loop, with `f` a module-level function.

`jax.jit(f)` of `f` itself would be cached, but `jax.vmap(f)` makes a new wrapper every time.
"""
import jax
import jax.numpy as jnp

trace_count = 0


def distance(a, b):
    global trace_count
    trace_count += 1
    return jnp.sqrt(jnp.sum((a - b) ** 2))


def nearest(queries, points):
    found = []
    for q in queries:
        d = jax.jit(jax.vmap(distance, in_axes=(None, 0)))(q, points)  # expect: jit-in-loop
        found.append(int(jnp.argmin(d)))
    return found


if __name__ == "__main__":
    nearest(jnp.ones((3, 2)), jnp.eye(2))
    if trace_count > 1:
        print("SHARP BIT: 3 queries, traced", trace_count, "times")
