"""Equinox style: every layer takes `key=`; giving two layers the same key gives them the same weights.

`Linear.__init__` splits its key, so the second `Linear(..., key=k)` repeats the first one's draws.
"""
import jax
import jax.numpy as jnp


class Linear:
    def __init__(self, in_features, out_features, *, key):
        wkey, bkey = jax.random.split(key)
        lim = 1.0 / jnp.sqrt(in_features)
        self.weight = jax.random.uniform(wkey, (out_features, in_features), minval=-lim, maxval=lim)
        self.bias = jax.random.uniform(bkey, (out_features,), minval=-lim, maxval=lim)

    def __call__(self, x):
        return self.weight @ x + self.bias


class MLP:
    def __init__(self, width, *, key):
        k1, k2 = jax.random.split(key)
        self.hidden = Linear(width, width, key=k1)
        self.out = Linear(width, width, key=k1)  # expect: prng-key-reuse

    def __call__(self, x):
        return self.out(jax.nn.relu(self.hidden(x)))


if __name__ == "__main__":
    model = MLP(4, key=jax.random.PRNGKey(0))
    print(model(jnp.ones(4)))
    if bool(jnp.all(model.hidden.weight == model.out.weight)):
        print("SHARP BIT: both layers got identical weights")
