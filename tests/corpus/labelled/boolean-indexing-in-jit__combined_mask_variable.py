"""Sharp Bits / "Dynamic shapes": a mask built in two steps, then used to index the last axis, under jit.
"""
import jax
import jax.numpy as jnp


@jax.jit
def band_energy(spectrum, freqs, lo, hi):
    in_band = jnp.logical_and(freqs >= lo, freqs < hi)
    band = spectrum[..., in_band]  # expect: boolean-indexing-in-jit
    return jnp.sum(band ** 2, axis=-1)


if __name__ == "__main__":
    freqs = jnp.linspace(0.0, 100.0, 8)
    print(band_energy(jnp.ones((2, 8)), freqs, 10.0, 50.0))
