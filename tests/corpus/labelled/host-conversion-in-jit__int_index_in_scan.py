"""Sharp Bits / "Converting traced values": `int()` of an argmax to index a Python list in a scan body.

The argmax is a tracer inside `lax.scan`: ConcretizationTypeError. Keep it as an array index instead.
"""
import jax
import jax.numpy as jnp

ACTIONS = [0.0, 0.5, 1.0]


def greedy(total, q_values):
    best = int(jnp.argmax(q_values))  # expect: host-conversion-in-jit
    return total + ACTIONS[best], best


if __name__ == "__main__":
    print(jax.lax.scan(greedy, 0.0, jnp.eye(3)))
