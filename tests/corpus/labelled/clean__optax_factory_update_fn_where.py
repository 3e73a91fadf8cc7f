"""A hand-written optax `GradientTransformation` built by a factory, chained with `optax.adam`, whose `update_fn`
skips large updates with `jnp.where`; its only Python `if` tests the static `max_norm`.

Inside the jitted step `update_fn` sees traced updates; `jnp.where` keeps the choice in the trace, and
`if max_norm is None:` tests a Python value (the twin of `traced-control-flow__optax_factory_update_fn_if`).
"""
import jax
import jax.numpy as jnp
import optax


def skip_large_updates(max_norm=10.0):
    def init_fn(params):
        return optax.EmptyState()

    def update_fn(updates, state, params=None):
        if max_norm is None:
            return updates, state
        norm = jnp.sqrt(sum(jnp.sum(u ** 2) for u in jax.tree.leaves(updates)))
        updates = jax.tree.map(lambda u: jnp.where(norm > max_norm, jnp.zeros_like(u), u), updates)
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
