"""A jitted column generator takes the parent columns as a tuple of arrays, empty for a root column (mbi).

jit traces the leaves of a pytree argument and hands the function the same tuple with tracers inside, so `if
parents:` asks the tuple its length, known at trace time: no TracerBoolConversionError. The twin
`traced-control-flow__tuple_length_beside_a_traced_test` also tests a traced value in the same `if`.
"""
import jax
import jax.numpy as jnp


@jax.jit
def generate(key, parents):
    if parents:
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
    print(synthesize(jax.random.key(0), ["a", "b", "c"]))
