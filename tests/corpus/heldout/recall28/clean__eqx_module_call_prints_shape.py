"""Equinox: a residual block prints the shape of its activations in `__call__` while debugging; under
`eqx.filter_jit` shapes are known at trace time, so printing them is what the author wants.
"""
import contextlib
import io

import equinox as eqx
import jax
import jax.numpy as jnp


class Residual(eqx.Module):
    linear: eqx.nn.Linear

    def __call__(self, x):
        h = jax.nn.gelu(self.linear(x))
        print("activations", h.shape)
        return x + h


@eqx.filter_jit
def forward(model, x):
    return model(x)


if __name__ == "__main__":
    model = Residual(eqx.nn.Linear(4, 4, key=jax.random.key(0)))
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        forward(model, jnp.ones(4))
    if "Tracer" in buf.getvalue():
        print("SHARP BIT:", buf.getvalue().strip())
