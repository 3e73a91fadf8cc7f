"""A retry branch guarded by `isinstance(..., jax.core.Tracer)` on the wrong name, traced under `jax.lax.map`.

The guard asks whether `b` is a tracer, but `bool(finite)` tests `finite`: when `b` is a concrete array closed
over by the mapped body while `a` is mapped, `finite` is traced, the `elif` runs under the trace and `bool()`
raises TracerBoolConversionError.
"""
import jax
import jax.numpy as jnp


def solve(a, b):
    x = jnp.linalg.solve(a, b)
    finite = jnp.all(jnp.isfinite(x))
    if isinstance(b, jax.core.Tracer):
        x = jax.lax.cond(finite, lambda: x, lambda: jnp.linalg.lstsq(a, b)[0])
    elif not bool(finite):  # expect: traced-control-flow
        x = jnp.linalg.lstsq(a, b)[0]
    return x


def scores(mats, b):
    return jax.lax.map(lambda a: jnp.sum(solve(a, b)), mats)


if __name__ == "__main__":
    b = jnp.ones(3)
    print(scores(jnp.stack([jnp.eye(3) * 2.0] * 4), b))
