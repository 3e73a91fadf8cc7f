"""The bug twin: the registered init draws its weights from the key the input was drawn from, so the weights
repeat the input's numbers."""
import jax

REGISTRY = {}


def register(fn):
    REGISTRY[fn.__name__] = fn
    return fn


@register
def dense_init(key, dim):
    return jax.random.normal(key, (2, dim))


key = jax.random.PRNGKey(0)
x = jax.random.normal(key, (2, 4))
w = dense_init(key, 4)  # expect: prng-key-reuse
print(bool((x == w).all()))
