"""A training loop whose state is an Equinox module holding `key`: each step rebuilds it as
`State(params, state.key, state.step + 1)` (the module's generated `__init__` takes its fields in order), carrying
the same key, so every step draws the same noise.
"""
import equinox as eqx
import jax
import jax.numpy as jnp


class State(eqx.Module):
    params: jax.Array
    key: jax.Array
    step: int = 0


@jax.jit
def train_step(params, x, key):
    noise = jax.random.normal(key, x.shape)
    return params - 0.01 * (x + noise).mean(), noise


def fit(state: State, batches):
    noises = []
    for x in batches:
        params, noise = train_step(state.params, x, state.key)  # expect: prng-key-reuse
        state = State(params, state.key, state.step + 1)
        noises.append(noise)
    return state, noises


if __name__ == "__main__":
    st, noises = fit(State(jnp.zeros(()), jax.random.PRNGKey(0)), [jnp.ones(8)] * 3)
    if all(bool((n == noises[0]).all()) for n in noises):
        print("SHARP BIT: 3 steps, one noise draw")
