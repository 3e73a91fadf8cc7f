"""A state holder refuses to store a tracer (as brainstate's `State` does under a raw `jax.jit`); the test calls the
jitted writer only inside `pytest.raises`, checking the refusal: nothing is stored, nothing leaks.
"""
import jax
import jax.numpy as jnp
import pytest


class Holder:
    def __init__(self, value):
        self._value = value

    @property
    def value(self):
        return self._value

    @value.setter
    def value(self, v):
        if isinstance(v, jax.core.Tracer):
            raise TypeError("refusing to store a tracer")
        self._value = v


def test_write_refused():
    box = Holder(jnp.zeros(2))

    @jax.jit
    def write(x):
        box.value = box.value + x
        return x

    with pytest.raises(TypeError):
        write(jnp.ones(2))
    assert float(box.value.sum()) == 0.0


if __name__ == "__main__":
    test_write_refused()
    print("refused")
