"""The bug twin of `clean__unpacked_model_only_reaches_raising_call.py`: the input drawn from the key that
initialised the module is applied, so the module's kernel (drawn from `key` by init) and the input are
correlated draws of one key (checked on jax 0.10.2; `jax_debug_key_reuse` raises KeyReuseError here).
"""
import jax
import jax.numpy as jnp


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


def test_output_shape():
    key = jax.random.key(0)
    mlp, params = init_mlp(key, 8)
    x = jax.random.normal(key, (10, 4))  # expect: prng-key-reuse
    out = mlp.apply({"params": params}, x)
    assert jnp.isfinite(out).all()


if __name__ == "__main__":
    test_output_shape()
    jax.config.update("jax_debug_key_reuse", True)
    try:
        test_output_shape()
    except Exception as error:  # KeyReuseError
        print(type(error).__name__)
