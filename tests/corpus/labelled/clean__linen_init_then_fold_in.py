"""flaxspeaker 0.4.0 flaxspeaker/neural_net.py (create_train_state): the model is initialised with
`module.init(rng, x)` and the auxiliary loss weights are then drawn from `fold_in(rng, 202)`.

Flax linen's init never draws from `rng` itself: `Scope.make_rng` derives every parameter's key as
`fold_in(rng, h)`, `h` the first 32 bits of a SHA-1 of the scope path and a call counter (flax/core/scope.py,
`_fold_in_static`). `fold_in(rng, 202)` is one more derivation with other data: no key repeats (checked below by
rebuilding each parameter's key with flax's own hashing).
"""
import jax
import jax.numpy as jnp
from flax import linen as nn
from flax.core.scope import _fold_in_static


class Encoder(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(4)(nn.relu(nn.Dense(8)(x)))


def create_state(module: nn.Module, rng, num_classes):
    params = dict(module.init(rng, jnp.ones((1, 3)))["params"])
    cls_rng = jax.random.fold_in(rng, 202)
    params["aux"] = jax.random.normal(cls_rng, (4, num_classes)) * 0.05
    return params


if __name__ == "__main__":
    rng = jax.random.key(0)
    params = create_state(Encoder(), jax.random.clone(rng), 5)
    # the keys linen derived: one fold_in of the hash of (path, counter) for each layer's kernel and bias
    derived = [_fold_in_static(jax.random.clone(rng), (name, n)) for name in ("Dense_0", "Dense_1") for n in (1, 2)]
    aux_key = jax.random.fold_in(rng, 202)
    words = [tuple(jax.random.key_data(k).tolist()) for k in [*derived, aux_key]]
    kernel = nn.initializers.lecun_normal()(derived[0], (8, 4))  # Dense_0 is the outer Dense(4), built first
    assert jnp.array_equal(kernel, params["Dense_0"]["kernel"]), "the rebuilt key is the one linen used"
    if len(set(words)) != len(words):
        print("SHARP BIT: fold_in(rng, 202) is one of the keys the init derived")
