"""A fit helper that prints `float(...)` diagnostics only when it runs eagerly: both jitted callers pass
`verbose=False`, a literal, so the `if verbose:` branch is never traced (round 21 of issue 22: jaxincell's
`energy_gamma_from_output(out, for_jit=True)` under `jax.jit`). Called eagerly with the default, it prints.
"""
import jax
import jax.numpy as jnp


def growth_rate(t, log_energy, *, verbose=True):
    design = jnp.stack([jnp.ones_like(t), t], axis=1)
    beta = jnp.linalg.solve(design.T @ design, design.T @ log_energy)
    residual = jnp.sum((log_energy - design @ beta) ** 2)
    if verbose:
        print(f"slope = {float(beta[1]):.4f}")
        print(f"residual = {float(residual):.2e}")
    return beta[1]


@jax.jit
def rate(t, energy):
    return growth_rate(t, jnp.log(energy), verbose=False)


@jax.jit
def amplitude_rate(t, energy):
    return 0.5 * growth_rate(t, jnp.log(energy), verbose=False)


if __name__ == "__main__":
    t = jnp.linspace(0.0, 1.0, 20)
    energy = jnp.exp(2.0 * t)
    print(rate(t, energy), amplitude_rate(t, energy))
    growth_rate(t, jnp.log(energy))
