"""Sharp Bits: "Pure functions": a helper called from a jitted function reads a global that changes.

The read happens in the helper, which is traced along with `predict`.
"""
import jax
import jax.numpy as jnp

THRESHOLD = 0.5


def binarize(p):
    return (p > THRESHOLD).astype(jnp.float32)  # expect: global-captured-in-jit


@jax.jit
def predict(w, x):
    return binarize(jax.nn.sigmoid(x @ w))


def calibrate(new_threshold):
    global THRESHOLD
    THRESHOLD = new_threshold


if __name__ == "__main__":
    w, x = jnp.ones(2), jnp.array([[0.1, 0.1]])
    print(predict(w, x))
    calibrate(0.9)
    print("SHARP BIT: threshold 0.5 still used:", predict(w, x))
