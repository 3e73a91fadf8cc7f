"""A replay buffer sized from a template of example draws: `example` holds a draw from the key `w` was drawn
from, but the example's values are only moved into the template and read for their shapes (`zeros_like`,
`.shape`): no number of it reaches a result, so sharing the key is harmless (round 37: templates and dummies
drawn from an already used key, read only for their shapes, in bayesianquilts and e3j).
"""
import jax
import jax.numpy as jnp


def make_buffer(key, n, capacity):
    w = jax.random.normal(key, (n, 4))
    example = {"obs": jax.random.normal(key, (n, 4))}
    template = {"obs": example["obs"]}
    buffer = {"obs": jnp.zeros((capacity,) + template["obs"].shape)}
    assert jnp.zeros_like(template["obs"]).shape == (n, 4)
    return w, buffer


if __name__ == "__main__":
    w, buffer = make_buffer(jax.random.PRNGKey(0), 3, 5)
    assert float(jnp.abs(buffer["obs"]).sum()) == 0.0
    print("ok:", w.shape, buffer["obs"].shape)
