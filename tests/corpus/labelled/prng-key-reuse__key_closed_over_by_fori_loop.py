"""Random-walk Metropolis with `lax.fori_loop`: the body closes over `key` and never folds in the step,
so every iteration proposes the same move and draws the same acceptance uniform.
"""
import jax
import jax.numpy as jnp
from jax import lax


def rwm(logdensity, key, x0, n_steps=4, scale=0.5):
    def body(i, carry):
        x, moves = carry
        k_prop, k_acc = jax.random.split(key)  # expect: prng-key-reuse
        move = scale * jax.random.normal(k_prop, x.shape)
        proposal = x + move
        accept = jnp.log(jax.random.uniform(k_acc)) < logdensity(proposal) - logdensity(x)
        return jnp.where(accept, proposal, x), moves.at[i].set(move)

    return lax.fori_loop(0, n_steps, body, (x0, jnp.zeros((n_steps,) + x0.shape)))


if __name__ == "__main__":
    logdensity = lambda x: -0.5 * jnp.sum(x**2)
    x, moves = jax.jit(rwm, static_argnums=0)(logdensity, jax.random.PRNGKey(0), jnp.zeros(2))
    if bool(jnp.all(moves == moves[0])):
        print("SHARP BIT: every iteration proposed the same move:", moves[0])
