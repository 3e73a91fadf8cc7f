"""A spectrum buffer asked for as complex128 (positional dtype) in a signal-processing script."""
import jax.numpy as jnp


def spectrum(signal):
    buf = jnp.zeros(signal.shape[0], jnp.complex128)  # expect: float64-without-x64
    return buf + jnp.fft.fft(signal)


if __name__ == "__main__":
    out = spectrum(jnp.sin(jnp.arange(8.0)))
    print(f"SHARP BIT: spectrum is {out.dtype}")
