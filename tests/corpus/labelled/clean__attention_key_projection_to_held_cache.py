"""An attention layer hands its key projection (an array named `key`, no PRNG key) to the KV cache it holds,
`self.KVCache_0(key=key, value=value)`, then attends with it: calling a held object runs its `__call__`, it builds
no class from a key, and nothing is drawn (run under JAX: the output is finite).
"""
import jax
import jax.numpy as jnp


class Dense:
    def __init__(self, seed, features):
        self.w = jax.random.normal(jax.random.key(seed), (features, features)) / features

    def __call__(self, x):
        return x @ self.w


def dot_product_attention(query, key, value, cached):
    weights = jax.nn.softmax(query @ key.T / jnp.sqrt(query.shape[-1]))
    return weights @ value


class KVCache:
    def __call__(self, *, key, value):
        self.cached = (key, value)
        return self.cached


class Attention:
    def __init__(self, cache, dense, attend, features=8):
        self.features = features
        self.query_proj = dense(1, features)
        self.key_proj = dense(2, features)
        self.value_proj = dense(3, features)
        self.attention_op = attend
        setattr(self, "KVCache_0", cache)  # (a linen `setup` or an nnx field would hold it the same way)

    def update_kv_caches(self, key, value):
        cached_key, cached_value = self.KVCache_0(key=key, value=value)
        return [cached_key, cached_value]

    def __call__(self, x, decode=False):
        query = self.query_proj(x)
        key = self.key_proj(x)
        value = self.value_proj(x)
        cached = [None, None]
        if decode:
            cached = self.update_kv_caches(key, value)
        return self.attention_op(query, key, value, cached)


LAYERS = {"kv": KVCache, "dense": Dense, "attend": dot_product_attention}  # the classes are chosen by name, as a config would


def main():
    out = jax.jit(lambda x: Attention(LAYERS["kv"](), LAYERS["dense"], LAYERS["attend"])(x, decode=True))(jnp.ones((4, 8)))
    print("finite:", bool(jnp.all(jnp.isfinite(out))))


if __name__ == "__main__":
    main()
