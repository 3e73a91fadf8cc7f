"""`jax.jit` reached through an import inside the function that defines the jitted function.

`main` imports jax in its body and jits `relu`, whose `if x > 0` asks a tracer for its truth value:
TracerBoolConversionError on the first call.
"""


def main():
    import jax
    import jax.numpy as jnp

    @jax.jit
    def relu(x):
        if x > 0:  # expect: traced-control-flow
            return x
        return jnp.zeros_like(x)

    return relu(jnp.float32(1.0))


if __name__ == "__main__":
    main()
