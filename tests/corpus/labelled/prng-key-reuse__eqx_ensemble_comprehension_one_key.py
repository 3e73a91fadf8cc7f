"""Deep ensemble of Equinox MLPs built in a comprehension from one key: every member is identical."""
import equinox as eqx
import jax
import jax.numpy as jnp


def make_ensemble(key, n=4):
    return [eqx.nn.MLP(2, 1, 8, 2, key=key) for _ in range(n)]  # expect: prng-key-reuse


if __name__ == "__main__":
    members = make_ensemble(jax.random.PRNGKey(0))
    x = jnp.ones(2)
    outs = [float(m(x)[0]) for m in members]
    if len(set(outs)) == 1:
        print("SHARP BIT: all ensemble members are the same network", outs)
