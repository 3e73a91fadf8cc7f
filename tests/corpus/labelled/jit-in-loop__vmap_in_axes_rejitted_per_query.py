"""A retrieval script scores every query against a database with
`jax.jit(jax.vmap(score, in_axes=(None, 0)))(q, db)` written inside the query loop: the vmap wrapper is a new
object each time, so each query compiles again.
"""
import jax
import jax.numpy as jnp

traces = []


def score(q, d):
    traces.append(1)
    return jnp.dot(q, d)


if __name__ == "__main__":
    db = jnp.ones((100, 8))
    for q in [jnp.ones(8), jnp.zeros(8), jnp.ones(8) * 2]:
        best = jnp.argmax(jax.jit(jax.vmap(score, in_axes=(None, 0)))(q, db))  # expect: jit-in-loop
    if len(traces) == 3:
        print("SHARP BIT: 3 queries, 3 traces")
