"""Twin of clean__linen_init_then_fold_in: the same model set-up in flax nnx, where the auxiliary weights are
drawn from `fold_in(rng, 0)` after the layer was built from `nnx.Rngs(rng)`.

nnx derives by counters, not by hashed paths: each call of an `RngStream` returns `fold_in(key, count)` with
`count` = 0, 1, 2, ... (flax/nnx/rnglib.py), so the layer's kernel was drawn from `fold_in(rng, 0)`: the
auxiliary weights are the kernel's numbers (checked below: equal). Only linen's `init` is a hashed derivation.
"""
import jax
import jax.numpy as jnp
from flax import nnx


def create_state(rng, num_classes):
    layer = nnx.Linear(3, 4, rngs=nnx.Rngs(rng))
    cls_rng = jax.random.fold_in(rng, 0)  # expect: prng-key-reuse
    aux = nnx.initializers.lecun_normal()(cls_rng, (3, num_classes))
    return layer, aux


if __name__ == "__main__":
    layer, aux = create_state(jax.random.key(0), 4)
    if jnp.array_equal(layer.kernel[...], aux):
        print("SHARP BIT: the auxiliary weights equal the layer's kernel (both from fold_in(rng, 0))")
