"""The bug twin of `clean__jit_value_and_grad_static_argname.py`: without `static_argnames`, jit traces `joint`
too, and `if joint:` in the helper raises TracerBoolConversionError at the first call (checked on jax 0.10.2).
"""
import jax
import jax.numpy as jnp


def parts(h, data, joint):
    if joint:  # expect: traced-control-flow
        return jnp.exp(-2 * h[:3]) * data[:3]
    return data


def log_evidence(h, data, joint):
    return jnp.sum(parts(h, data, joint) * h[:3])


value_and_grad = jax.jit(jax.value_and_grad(log_evidence))


if __name__ == "__main__":
    try:
        value_and_grad(jnp.ones(4), jnp.arange(4.0), True)
    except jax.errors.TracerBoolConversionError as error:
        print("TracerBoolConversionError:", str(error).splitlines()[0])
