"""A loss test in the optax style: for each input shape (a subTest), predictions are redrawn from one key; each
case is checked and dropped before the next shape, so no two cases' draws meet."""
import unittest

import jax
import jax.numpy as jnp


def mean_square(predictions):
    return jnp.mean(predictions**2, axis=tuple(range(1, predictions.ndim)))


class ShapesTest(unittest.TestCase):
    def test_shapes(self):
        key = jax.random.PRNGKey(42)
        for shape in ((4, 8, 1), (2, 4, 4, 1), (1, 16, 1)):
            with self.subTest(shape=shape):
                predictions = jax.random.normal(key, shape)
                loss = mean_square(predictions)
                self.assertEqual(loss.shape, shape[:1])


if __name__ == "__main__":
    unittest.main()
