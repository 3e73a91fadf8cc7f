"""Flax-style code without Flax: modules as classes with `init`/`apply`, applied under `jax.jit`.
"""
import jax
import jax.numpy as jnp


class Dense:
    def __init__(self, features):
        self.features = features

    def init(self, key, in_features):
        w_key, _ = jax.random.split(key)
        w = jax.random.normal(w_key, (in_features, self.features)) / jnp.sqrt(in_features)
        return {"kernel": w, "bias": jnp.zeros(self.features)}

    def apply(self, params, x):
        return x @ params["kernel"] + params["bias"]


class MLP:
    def __init__(self, widths):
        self.layers = [Dense(w) for w in widths]

    def init(self, key, in_features):
        params = []
        for layer in self.layers:
            key, sub = jax.random.split(key)
            params.append(layer.init(sub, in_features))
            in_features = layer.features
        return params

    def apply(self, params, x):
        for layer, p in zip(self.layers[:-1], params[:-1]):
            x = jax.nn.gelu(layer.apply(p, x))
        return self.layers[-1].apply(params[-1], x)


model = MLP([16, 16, 2])
apply_fn = jax.jit(model.apply)

if __name__ == "__main__":
    params = model.init(jax.random.PRNGKey(0), 4)
    print(apply_fn(params, jnp.ones((3, 4))).shape)
