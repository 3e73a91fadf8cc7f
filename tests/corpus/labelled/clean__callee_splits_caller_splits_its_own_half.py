"""The clean twin of prng-key-reuse__callee_splits_then_caller_splits: the caller splits `ran_key` first and
hands the callee one half, keeping the other for its own draw; `_res` is read as before.
"""
import jax
import jax.numpy as jnp
from jax import random as jran


@jax.jit
def _mean_params(params, ran_key):
    tpc_key, ran_key = jran.split(ran_key, 2)
    u_peak = jran.uniform(tpc_key, shape=(3,))
    return params * u_peak, u_peak


@jax.jit
def mc_params(params, ran_key):
    mean_key, early_key = jran.split(ran_key, 2)
    _res = _mean_params(params, mean_key)
    mean, u_peak = _res
    u_early = jran.uniform(early_key, shape=(3,))
    return mean + u_early, u_peak, u_early


if __name__ == "__main__":
    _, u_peak, u_early = mc_params(jnp.ones(3), jran.PRNGKey(0))
    assert not bool(jnp.any(u_peak == u_early))
    print("independent draws:", u_peak, u_early)
