"""A simulation script in the style of jaxfne's research scripts: `main` parses its arguments, then sets the
module's parameters from them before anything is traced: a tuple assignment through `global`, and a dict filled
from command-line overrides in a loop (`P[k] = float(v)`) and by a tuple of subscripts. Only then does it call the
jitted step, which reads them: the trace sees the values set, and nothing changes them afterwards.
"""
import argparse

import jax
import jax.numpy as jnp

P = dict(tau=0.02, gain=1.0)
STIM = {"kind": "bar", "length": 4.0}
MODE = "neuron"
SCOPE = "all"


@jax.jit
def step(v):
    v = v + (-v / P["tau"]) * 1e-3 * P["gain"] + STIM["length"]
    if MODE == "pooled":
        v = v - v.mean()
    return v


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--mode", default="pooled")
    ap.add_argument("--scope", default="all")
    ap.add_argument("--set", nargs="*", default=["gain=2.0"])
    ap.add_argument("--stim", default="segment")
    a = ap.parse_args(argv)
    global MODE, SCOPE
    MODE, SCOPE = a.mode, a.scope
    for kv in a.set:
        k, val = kv.split("=")
        if k not in P:
            raise SystemExit(f"unknown parameter {k}")
        P[k] = float(val)
    STIM["kind"], STIM["length"] = a.stim, 2.0
    v = jnp.arange(3.0)
    for _ in range(3):
        v = step(v)
    expected = jnp.arange(3.0)
    for _ in range(3):
        expected = expected + (-expected / 0.02) * 1e-3 * 2.0 + 2.0
        expected = expected - expected.mean()
    assert jnp.allclose(v, expected), (v, expected)
    print(v)


if __name__ == "__main__":
    main([])
