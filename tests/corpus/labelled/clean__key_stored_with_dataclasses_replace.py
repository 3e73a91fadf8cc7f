"""A sampler state in the jaxns style: `dataclasses.replace` stores the next key in the state; the only
derivation is a fold_in of it, so nothing is drawn twice."""
import dataclasses

import jax


@dataclasses.dataclass(frozen=True)
class State:
    random_key: jax.Array
    iteration: int


def next_state(state, depth_key):
    state = dataclasses.replace(state, random_key=depth_key)
    seed = jax.random.fold_in(depth_key, state.iteration)
    return state, jax.random.normal(seed, ())


if __name__ == "__main__":
    print(next_state(State(jax.random.PRNGKey(0), 1), jax.random.PRNGKey(2))[1])
