"""The bug twin of `clean__report_branch_off_in_traced_callers`: one jitted caller leaves `verbose` at its default
`True`, so the traced helper takes the `if verbose:` branch and `float()` of a tracer raises
ConcretizationTypeError. Pass `verbose=False` from traced code (or print after the call).
"""
import jax
import jax.numpy as jnp


def growth_rate(t, log_energy, *, verbose=True):
    design = jnp.stack([jnp.ones_like(t), t], axis=1)
    beta = jnp.linalg.solve(design.T @ design, design.T @ log_energy)
    residual = jnp.sum((log_energy - design @ beta) ** 2)
    if verbose:
        print(f"slope = {float(beta[1]):.4f}")  # expect: host-conversion-in-jit
        print(f"residual = {float(residual):.2e}")  # expect: host-conversion-in-jit
    return beta[1]


@jax.jit
def rate(t, energy):
    return growth_rate(t, jnp.log(energy), verbose=False)


@jax.jit
def amplitude_rate(t, energy):
    return 0.5 * growth_rate(t, jnp.log(energy))


if __name__ == "__main__":
    t = jnp.linspace(0.0, 1.0, 20)
    energy = jnp.exp(2.0 * t)
    print(rate(t, energy), amplitude_rate(t, energy))
