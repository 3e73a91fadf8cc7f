"""JAX FAQ ("Benchmarking JAX code"): a solve phase timed after a host read of its index (`int(...)`) and a
helper building its right-hand side: both run before the solve is dispatched, so neither waits for it, and the
clock stops while the solve is still running (as cyscat-jax's "Solve" phase).
"""
import time

import jax.numpy as jnp
import numpy as np


def right_hand_side(kx, width):
    return jnp.stack([jnp.cos(kx * j) for j in range(width)], axis=1)


def solve_phase(z, spectrum):
    start = time.time()
    kx = jnp.asarray(spectrum["kx"]).flatten()
    mid = int(spectrum["middle"])
    v = right_hand_side(kx[mid - 400: mid + 400], 40)
    c = jnp.linalg.solve(z, v)  # expect: unblocked-timing
    return c, time.time() - start


if __name__ == "__main__":
    z = jnp.eye(800) * 2.0 + 0.01
    spectrum = {"kx": np.linspace(-1.0, 1.0, 1600), "middle": np.int64(800)}
    solve_phase(z, spectrum)[0].block_until_ready()
    c, seconds = solve_phase(z, spectrum)
    if not c.is_ready():
        print(f"SHARP BIT: solve not finished when the clock stopped ({seconds * 1e3:.2f} ms)")
