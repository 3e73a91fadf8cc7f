"""Autodiff cookbook: `jax.grad` alone (no `jit`) computes eagerly; only values computed from the differentiated
argument are tracers. A time-stepping simulation stores each step's `dt`, computed from a time grid it closes
over, on its problem object: a concrete array, usable after the gradient is taken (jax-fem does this).
"""
import jax
import jax.numpy as jnp


class Problem:
    dt = 0.0


def calibrate(problem):
    ts = jnp.linspace(0.0, 0.5, 3)

    def advance(state, i):
        problem.dt = ts[i + 1] - ts[i]
        return state + problem.dt * jnp.sin(state)

    def simulation(alpha):
        return advance(advance(alpha, 0), 1)

    return jax.grad(simulation)(1.0)


if __name__ == "__main__":
    problem = Problem()
    grad = calibrate(problem)
    assert not isinstance(problem.dt, jax.core.Tracer)
    print("gradient", float(grad), "last dt", float(problem.dt * 2))
