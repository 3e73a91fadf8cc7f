"""The bug twin of `clean__tuple_of_arrays_tested_in_jit`: the `if` also asks whether the first parent column
has any positive entry.

The tuple's length is known at trace time, but `parents[0].sum() > 0` is a tracer: `and` asks its truth value
and raises TracerBoolConversionError.
"""
import jax
import jax.numpy as jnp


@jax.jit
def generate(key, parents):
    if parents and parents[0].sum() > 0:  # expect: traced-control-flow
        idx = parents[0] % 3
    else:
        idx = jnp.zeros(4, dtype=jnp.int32)
    return idx + jax.random.randint(key, (4,), 0, 2)


def synthesize(key, columns):
    data = {}
    for i, col in enumerate(columns):
        parents = tuple(data[c] for c in columns[:i])
        data[col] = generate(jax.random.fold_in(key, i), parents)
    return data


if __name__ == "__main__":
    try:
        print(synthesize(jax.random.key(0), ["a", "b", "c"]))
    except Exception as error:
        print("SHARP BIT:", type(error).__name__)
