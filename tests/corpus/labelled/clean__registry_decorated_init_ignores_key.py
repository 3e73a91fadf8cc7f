"""An init function registered by decorators that hand the function back (`@register`, `@init_fn_for(cfg)`,
adjaxt's config registry): calling it runs it as written, and it never reads its key (RMSNorm weights are ones), so
the key drawn from before stays unused by it."""
import jax
import jax.numpy as jnp

REGISTRY = {}


def register(fn):
    REGISTRY[fn.__name__] = fn
    return fn


def init_fn_for(cfg):
    def decorator(fn):
        cfg["init"] = fn
        return fn
    return decorator


@register
def rms_norm_init(key, dim):
    return jnp.ones((dim,))


@init_fn_for({})
def bias_init(key, dim):
    return jnp.zeros((dim,))


key = jax.random.PRNGKey(0)
x = jax.random.normal(key, (2, 4))
w = rms_norm_init(key, 4)
b = bias_init(key, 4)
print(x * w + b)
