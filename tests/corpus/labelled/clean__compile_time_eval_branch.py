"""JAX API docs `jax.ensure_compile_time_eval`: values computed from constants inside the block are concrete.

Branching on them, printing them and converting them to Python numbers all work at trace time.
"""
import jax
import jax.numpy as jnp


@jax.jit
def scaled(x):
    with jax.ensure_compile_time_eval():
        table = jnp.arange(4.0) ** 2
        scale = float(table.sum())
        if table.max() > 5:
            scale = scale / 2
        print("trace-time scale:", scale, table)
    return x * scale


if __name__ == "__main__":
    print(scaled(jnp.ones(2)))
