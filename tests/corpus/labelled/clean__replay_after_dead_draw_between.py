"""Subtests replay the same draws with one key on purpose (optax's segmentation shape checks): each subtest
draws its predictions and targets, checks the loss and drops them; the next subtest's predictions replay the
first ones. The targets drawn in between are dead by then, so no computation sees both.
"""
import jax
import jax.numpy as jnp


def dice(pred, target):
    return 1.0 - 2.0 * jnp.sum(jax.nn.sigmoid(pred) * target) / (jnp.sum(target) + 4.0)


def test_shapes():
    key = jax.random.key(0)
    for shape in [(2, 4), (3, 4)]:
        predictions = jax.random.normal(key, shape)
        loss = dice(predictions, jnp.ones(shape))
        assert loss.shape == ()
    for shape in [(2, 5), (3, 5)]:
        predictions = jax.random.normal(key, shape)
        loss = dice(predictions, jnp.zeros(shape))
        assert jnp.isfinite(loss)


if __name__ == "__main__":
    test_shapes()
