"""Cutting a window around the peak of a signal inside `jit`: the start comes from `jnp.argmax`.

`peak` is a traced value, so `signal[peak - 2:peak + 3]` raises IndexError. Use
`lax.dynamic_slice(signal, (peak - 2,), (5,))`.
"""
import jax
import jax.numpy as jnp


@jax.jit
def peak_window(signal):
    peak = jnp.argmax(signal)
    return signal[peak - 2:peak + 3]  # expect: dynamic-shape


if __name__ == "__main__":
    print(peak_window(jnp.sin(jnp.linspace(0.0, 3.0, 20))))
