"""A program asks for float64 before it runs the backend that enables x64: the backend is imported only inside a
function, called after the request, so the request silently gives float32."""
import jax.numpy as jnp


def load_backend():
    import clean__x64_backend_module as backend

    return backend


def integrate(n):
    x = jnp.linspace(0.0, 1.0, n, dtype=jnp.float64)  # expect: float64-without-x64
    return jnp.trapezoid(x ** 2, x)


if __name__ == "__main__":
    y = integrate(1001)
    load_backend()
    print(f"SHARP BIT: integrate asked float64 and got {y.dtype}")
