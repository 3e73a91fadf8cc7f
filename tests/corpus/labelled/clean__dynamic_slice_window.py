"""`lax.dynamic_slice` with a static size and a traced start: the JAX way to cut a window at a traced index."""
import jax
import jax.numpy as jnp


@jax.jit
def peak_window(signal):
    peak = jnp.argmax(signal)
    window = jax.lax.dynamic_slice(signal, (jnp.maximum(peak - 2, 0),), (5,))
    idx = jnp.nonzero(signal > 0.5, size=signal.shape[0], fill_value=-1)
    return window, idx, signal[peak]


if __name__ == "__main__":
    print(peak_window(jnp.sin(jnp.linspace(0.0, 3.0, 20))))
