"""Questions about a key that draw nothing: `jax.eval_shape` of an init function (shapes only), a validity
check inside `assertTrue`, and a record that only stores the key for the next step."""
import dataclasses
import unittest

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class SamplerState:
    step: int
    seed: jax.Array


def init(key, x):
    return {"w": jax.random.normal(key, (x.shape[-1], 2))}


def is_valid_key(key):
    return jnp.issubdtype(key.dtype, jax.dtypes.prng_key)


class KeyQuestions(unittest.TestCase):
    def test_shapes_then_values(self):
        key = jax.random.key(0)
        x = jnp.ones((4, 3))
        shapes = jax.eval_shape(init, key, x)
        params = init(key, x)
        self.assertEqual(shapes["w"].shape, params["w"].shape)

    def test_valid_then_split(self):
        key = jax.random.key(1)
        self.assertTrue(is_valid_key(key))
        self.assertEqual(jax.random.split(key).shape, (2,))

    def test_state_keeps_its_seed(self):
        key = jax.random.key(2)
        sub = jax.random.fold_in(key, 0)
        state = SamplerState(step=1, seed=key)
        self.assertEqual(state.step, 1)
        self.assertEqual(jax.random.normal(sub, ()).shape, ())


if __name__ == "__main__":
    jax.config.update("jax_debug_key_reuse", True)
    unittest.main()
