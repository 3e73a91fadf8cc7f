"""The clean twin of prng-key-reuse__equinox_module_state_key_carried.py: each step splits the module's key,
draws with one piece and builds the next state with the other (`State(params, key, state.step + 1)`); building
the module stores the key, it draws nothing, so no key is used twice.
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
        key, step_key = jax.random.split(state.key)
        params, noise = train_step(state.params, x, step_key)
        state = State(params, key, state.step + 1)
        noises.append(noise)
    return state, noises


if __name__ == "__main__":
    st, noises = fit(State(jnp.zeros(()), jax.random.PRNGKey(0)), [jnp.ones(8)] * 3)
    print("distinct draws:", len({float(n[0]) for n in noises}))
