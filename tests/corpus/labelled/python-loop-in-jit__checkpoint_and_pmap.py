"""Sharp Bits / "Control flow": loops inside `@jax.checkpoint` (remat) and `@jax.pmap` functions.

Both transformations trace their function, so both loops are unrolled.
"""
import jax
import jax.numpy as jnp


@jax.checkpoint
def deep_block(x, w):
    for _ in range(32):  # expect: python-loop-in-jit
        x = jnp.tanh(x @ w)
    return x


@jax.pmap
def per_device_norms(x):
    total = 0.0
    for i in range(x.shape[0]):  # expect: python-loop-in-jit
        total = total + jnp.sum(x[i] ** 2)
    return jnp.sqrt(total)


if __name__ == "__main__":
    x, w = jnp.ones((2, 4)), jnp.eye(4)
    print(deep_block(x, w).shape)
    print("SHARP BIT: tanh in the checkpointed jaxpr:", str(jax.make_jaxpr(deep_block)(x, w)).count("tanh"))
    xs = jnp.ones((jax.local_device_count(), 64, 3))
    print(per_device_norms(xs))
    print("SHARP BIT: squares in the pmapped jaxpr:", str(jax.make_jaxpr(per_device_norms)(xs)).count("integer_pow"))
