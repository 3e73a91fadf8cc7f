"""Twin: the features built in one operation over `jnp.arange`, and comprehensions over a few layers and over
shapes (Python work) in the same jitted function."""
import jax
import jax.numpy as jnp


@jax.jit
def fourier_features(x, layers):
    k = jnp.arange(1, 257)
    feats = jnp.sin(x[:, None] * k)
    outs = [jnp.tanh(feats @ w) for w in layers]
    dims = [feats.shape[i] for i in range(feats.ndim)]
    return outs, dims


if __name__ == "__main__":
    print(fourier_features(jnp.ones(4), [jnp.ones((256, 2))] * 3)[1])
