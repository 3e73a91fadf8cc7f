"""An Equinox helper rescales an `eqx.nn.Linear` with `eqx.tree_at`, reading the numbers the constructor drew (not
only their shapes), so those numbers live on; the second layer built from the same key starts from the very same
weights, ten times larger.
"""
import equinox as eqx
import jax
import jax.numpy as jnp


def scale_linear(linear, factor):
    return eqx.tree_at(lambda m: (m.weight, m.bias), linear, (linear.weight * factor, linear.bias * factor))


if __name__ == "__main__":
    key = jax.random.key(0)
    encoder = eqx.nn.Linear(8, 8, key=key)
    encoder = scale_linear(encoder, 0.1)
    decoder = eqx.nn.Linear(8, 8, key=key)  # expect: prng-key-reuse
    if bool(jnp.allclose(decoder.weight * 0.1, encoder.weight)):
        print("SHARP BIT: the decoder's weights are the encoder's, unscaled")
