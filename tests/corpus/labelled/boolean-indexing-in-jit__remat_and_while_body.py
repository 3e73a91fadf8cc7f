"""Sharp Bits: boolean-mask updates inside `jax.remat` (call form) and a `lax.while_loop` body.
"""
import jax
import jax.numpy as jnp


def clip_outliers(x):
    big = jnp.abs(x) > 3.0
    return x.at[big].set(0.0)  # expect: boolean-indexing-in-jit


clip_outliers_remat = jax.remat(clip_outliers)


def shrink_until_small(x):
    def cond(x):
        return jnp.max(jnp.abs(x)) > 1.0

    def body(x):
        large = jnp.abs(x) > 1.0
        return x.at[large].multiply(0.5)  # expect: boolean-indexing-in-jit

    return jax.lax.while_loop(cond, body, x)


if __name__ == "__main__":
    try:
        print(jax.jit(clip_outliers_remat)(jnp.array([1.0, 5.0])))
    except Exception as e:
        print(type(e).__name__)
    print(shrink_until_small(jnp.array([4.0, 0.5])))
