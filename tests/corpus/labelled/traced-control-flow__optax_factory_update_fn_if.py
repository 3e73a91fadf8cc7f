"""A hand-written optax `GradientTransformation` built by a factory, chained with `optax.adam`, whose `update_fn`
skips large updates with a Python `if`; the optimizer is updated inside a jitted step.

`opt.update` runs the chain, which calls `update_fn` with the traced updates: `if norm > max_norm:` asks a tracer
for its truth value (TracerBoolConversionError). The twin `clean__optax_factory_update_fn_where` uses
`jnp.where`.
"""
import jax
import jax.numpy as jnp
import optax


def skip_large_updates(max_norm=10.0):
    def init_fn(params):
        return optax.EmptyState()

    def update_fn(updates, state, params=None):
        norm = jnp.sqrt(sum(jnp.sum(u ** 2) for u in jax.tree.leaves(updates)))
        if norm > max_norm:  # expect: traced-control-flow
            updates = jax.tree.map(jnp.zeros_like, updates)
        return updates, state

    return optax.GradientTransformation(init_fn, update_fn)


opt = optax.chain(skip_large_updates(), optax.adam(1e-2))


@jax.jit
def step(params, state, grads):
    updates, state = opt.update(grads, state, params)
    return optax.apply_updates(params, updates), state


if __name__ == "__main__":
    p = jnp.ones(3)
    print(step(p, opt.init(p), jnp.ones(3)))
