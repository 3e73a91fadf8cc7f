"""`jax.jit(jax.value_and_grad(f), static_argnames="joint")`: value_and_grad keeps `f`'s signature (jit reads it to
place the name) and hands `joint` through as the caller gave it, so `if joint:` in `f` and in its helper tests a
Python bool at trace time (one compilation per value; checked on jax 0.10.2). The bug twin without
`static_argnames` raises TracerBoolConversionError: `traced-control-flow__jit_value_and_grad_flag_not_static.py`.
"""
import jax
import jax.numpy as jnp


def parts(h, data, joint):
    scale = 3 if joint else 0
    if joint:
        return jnp.exp(-2 * h[:3]) * data[:3], scale
    return data, scale


def log_evidence(h, data, joint):
    weighted, scale = parts(h, data, joint)
    return jnp.sum(weighted * h[: weighted.shape[0]]) + scale


value_and_grad = jax.jit(jax.value_and_grad(log_evidence), static_argnames="joint")
gradient = jax.jit(jax.grad(log_evidence), static_argnums=2)


if __name__ == "__main__":
    h = jnp.ones(4)
    print(value_and_grad(h, jnp.arange(4.0), True))
    print(value_and_grad(h, jnp.arange(4.0), False))
    print(gradient(h, jnp.arange(4.0), True))
