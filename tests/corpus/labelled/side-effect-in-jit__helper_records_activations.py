"""Sharp Bits: "Pure functions": a module-level helper, called from a jitted forward pass, that records
activations in a global dict for debugging. The dict ends up holding tracers from the one trace.
"""
import jax
import jax.numpy as jnp

ACTIVATIONS = {}


def record(name, value):
    ACTIVATIONS[name] = value  # expect: side-effect-in-jit
    return value


@jax.jit
def forward(w1, w2, x):
    h = record("hidden", jnp.tanh(x @ w1))
    return h @ w2


if __name__ == "__main__":
    forward(jnp.ones((3, 4)), jnp.ones((4, 1)), jnp.ones((2, 3)))
    forward(jnp.ones((3, 4)), jnp.ones((4, 1)), jnp.zeros((2, 3)))
    if isinstance(ACTIVATIONS["hidden"], jax.core.Tracer):
        print("SHARP BIT: ACTIVATIONS['hidden'] is a tracer")
