"""The bug twin of clean__globals_set_in_main_setup.py: `main` runs the jitted step once (a warm-up), then applies
the command-line overrides to the parameter dict in a loop. The step traced at the warm-up baked in the old
gain, so the overrides never reach the simulation.
"""
import argparse

import jax
import jax.numpy as jnp

P = dict(tau=0.02, gain=1.0)


@jax.jit
def step(v):
    return v + (-v / P["tau"]) * 1e-3 * P["gain"]  # expect: global-captured-in-jit


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--set", nargs="*", default=["gain=0.0"])
    a = ap.parse_args(argv)
    v = step(jnp.ones(3))  # warm-up: traces with gain=1.0
    for kv in a.set:
        k, val = kv.split("=")
        P[k] = float(val)
    v2 = step(jnp.ones(3))
    if not jnp.array_equal(v2, jnp.ones(3)):
        print("SHARP BIT: gain=0.0 was set but the step still uses the traced gain 1.0:", v2)


if __name__ == "__main__":
    main([])
