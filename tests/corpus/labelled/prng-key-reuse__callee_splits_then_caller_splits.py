"""A halo model (diffmah's `mc_diffmah_params_singlecen`): the callee splits `ran_key` and draws the peak time from
the first half; after the call the caller splits the same `ran_key` again, so its `early_key` is the callee's
`tpc_key`. The result is bound to `_res` (an underscore name) and then read: it is not a throw-away run.
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
    _res = _mean_params(params, ran_key)
    mean, u_peak = _res
    early_key, late_key = jran.split(ran_key, 2)  # expect: prng-key-reuse
    u_early = jran.uniform(early_key, shape=(3,))
    return mean + u_early, u_peak, u_early


if __name__ == "__main__":
    _, u_peak, u_early = mc_params(jnp.ones(3), jran.PRNGKey(0))
    if bool(jnp.all(u_peak == u_early)):
        print("SHARP BIT: the caller's early draw repeats the callee's peak draw:", u_peak)
