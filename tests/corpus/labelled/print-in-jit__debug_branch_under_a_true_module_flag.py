"""The bug twin of clean__debug_branch_under_a_false_module_flag.py: the flag is on, so the loop body's `print`
runs, once, at trace time, and shows a tracer instead of the step's values.
"""
import jax
import jax.numpy as jnp

DEBUG = True


def body(i, x):
    if DEBUG:
        print("SHARP BIT: step", i, x)  # expect: print-in-jit
    return x + i


if __name__ == "__main__":
    print(jax.lax.fori_loop(0, 3, body, jnp.zeros(())))
