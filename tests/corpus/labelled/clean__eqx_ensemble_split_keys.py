"""Deep ensemble of Equinox MLPs, one split key per member."""
import equinox as eqx
import jax
import jax.numpy as jnp


def make_ensemble(key, n=4):
    return [eqx.nn.MLP(2, 1, 8, 2, key=k) for k in jax.random.split(key, n)]


if __name__ == "__main__":
    members = make_ensemble(jax.random.PRNGKey(0))
    print([float(m(jnp.ones(2))[0]) for m in members])
