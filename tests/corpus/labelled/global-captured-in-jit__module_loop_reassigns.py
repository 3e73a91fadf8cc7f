"""Sharp Bits: "Pure functions": a module-level annealing loop reassigns a global the jitted step reads.
"""
import jax
import jax.numpy as jnp

noise_level = 1.0


@jax.jit
def denoise_step(x):
    return x - 0.1 * noise_level * jnp.sign(x)  # expect: global-captured-in-jit


x = jnp.array([1.0, -1.0])
outputs = []
for epoch in range(3):
    outputs.append(denoise_step(x))
    noise_level *= 0.1

print("SHARP BIT: same step every epoch:", all(bool(jnp.all(o == outputs[0])) for o in outputs))
