"""JAX jit docs ("caching"): gradient descent until convergence, with `jax.jit(jax.grad(loss))` built in the
`while` loop: `jax.grad(loss)` is a new function each time, so every iteration compiles again.
"""
import jax
import jax.numpy as jnp

trace_count = 0


def loss(w):
    global trace_count
    trace_count += 1
    return jnp.sum((w - 3.0) ** 2)


def minimize(w, tol=1e-3):
    steps = 0
    while steps < 100:
        g = jax.jit(jax.grad(loss))(w)  # expect: jit-in-loop
        w = w - 0.4 * g
        steps += 1
        if float(jnp.max(jnp.abs(g))) < tol:
            break
    return w, steps


if __name__ == "__main__":
    w, steps = minimize(jnp.zeros(2))
    if trace_count > 1:
        print("SHARP BIT:", steps, "steps, traced", trace_count, "times")
