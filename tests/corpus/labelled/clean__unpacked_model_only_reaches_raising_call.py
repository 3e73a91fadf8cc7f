"""A test builds a module (linen's init/apply interface) and its parameters from a key (`mlp, params = init_mlp(key, ...)`) and draws an
input of the wrong width from the same key, but the module, its parameters and the input only reach
`mlp.apply({"params": params}, x)` inside `pytest.raises(ValueError)`: the module refuses the input's shape before
computing anything, so no number drawn is ever read (nflojax's tests). The bug twin, whose input of the right width
is applied, is `prng-key-reuse__unpacked_model_applied_to_draw_of_its_key.py` (checked on jax 0.10.2).
"""
import jax
import jax.numpy as jnp
import pytest


class MLP:
    """A module with linen's init/apply interface: init draws the kernel from its key."""

    def __init__(self, width):
        self.width = width

    def init(self, key, x):
        return {"params": {"kernel": jax.random.normal(key, (x.shape[-1], self.width))}}

    def apply(self, variables, x):
        if x.shape[-1] != 4:
            raise ValueError(f"expected x with last dimension 4, got {x.shape[-1]}")
        return x @ variables["params"]["kernel"]


def init_mlp(key, width):
    mlp = MLP(width)
    return mlp, mlp.init(key, jnp.ones((1, 4)))["params"]


def test_wrong_x_dim_raises():
    key = jax.random.key(0)
    mlp, params = init_mlp(key, 8)
    x = jax.random.normal(key, (10, 5))  # wrong: 5 instead of 4
    with pytest.raises(ValueError, match="expected x with last dimension 4"):
        mlp.apply({"params": params}, x)


if __name__ == "__main__":
    test_wrong_x_dim_raises()
    print("refused before computing")
