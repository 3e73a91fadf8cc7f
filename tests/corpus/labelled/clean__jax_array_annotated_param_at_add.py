"""Twin: the `jax.Array` parameter updated with `.at[].add`, and a NumPy buffer (annotated `np.ndarray`, or
`jax.Array | None` with a NumPy default path) written in place, which NumPy allows."""
import jax
import jax.numpy as jnp
import numpy as np


def add_bias(x: jax.Array, bias: float) -> jax.Array:
    return x.at[..., 0].add(bias)


def fill(buf: np.ndarray, row: int, values) -> np.ndarray:
    buf[row] = np.asarray(values)
    return buf


def scratch(n: int, out: jax.Array | None = None):
    out = np.zeros(n) if out is None else np.array(out)
    out[0] = 1.0
    return out


if __name__ == "__main__":
    print(add_bias(jnp.zeros((2, 3)), 1.0)[0], fill(np.zeros((2, 3)), 1, jnp.ones(3))[1], scratch(3))
