"""Numerical solvers used by the physics-informed experiments: all loops are `lax` loops, all derivatives
come from JAX transformations (`jacfwd`, `jacrev`, `hessian`, `jvp`).
"""

from __future__ import annotations

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax

TOL = 1e-6
MAX_ITERS = 50


@partial(jax.jit, static_argnames=("f", "max_iters"))
def newton(f, x0, tol: float = TOL, max_iters: int = MAX_ITERS):
    """Solves f(x) = 0 for x in R^n with Newton's method; the Jacobian comes from `jax.jacfwd`."""
    jac = jax.jacfwd(f)

    def cond(carry):
        x, i, err = carry
        return (err > tol) & (i < max_iters)

    def body(carry):
        x, i, _ = carry
        step = jnp.linalg.solve(jac(x), f(x))
        x = x - step
        return x, i + 1, jnp.linalg.norm(f(x))

    x, iters, err = lax.while_loop(cond, body, (x0, 0, jnp.linalg.norm(f(x0))))
    return x, iters, err


def conjugate_gradient(matvec, b, x0=None, tol: float = 1e-8, max_iters: int = 100):
    """Solves A x = b for symmetric positive-definite A given only `matvec`."""
    x0 = jnp.zeros_like(b) if x0 is None else x0
    r0 = b - matvec(x0)

    def cond(state):
        _, r, _, i = state
        return (jnp.vdot(r, r) > tol ** 2) & (i < max_iters)

    def body(state):
        x, r, p, i = state
        ap = matvec(p)
        alpha = jnp.vdot(r, r) / jnp.vdot(p, ap)
        x = x + alpha * p
        r_new = r - alpha * ap
        beta = jnp.vdot(r_new, r_new) / jnp.vdot(r, r)
        return x, r_new, r_new + beta * p, i + 1

    x, _, _, iters = lax.while_loop(cond, body, (x0, r0, r0, 0))
    return x, iters


def rk4_step(f, y, t, dt):
    k1 = f(y, t)
    k2 = f(y + 0.5 * dt * k1, t + 0.5 * dt)
    k3 = f(y + 0.5 * dt * k2, t + 0.5 * dt)
    k4 = f(y + dt * k3, t + dt)
    return y + dt / 6.0 * (k1 + 2 * k2 + 2 * k3 + k4)


@partial(jax.jit, static_argnames=("f", "num_steps"))
def odeint_rk4(f, y0, t0: float, dt: float, num_steps: int):
    def step(carry, _):
        y, t = carry
        y = rk4_step(f, y, t, dt)
        return (y, t + dt), y

    _, ys = lax.scan(step, (y0, jnp.asarray(t0, jnp.float32)), None, length=num_steps)
    return ys


def hessian_vector_product(f, x, v):
    """H(x) v without forming H: forward-over-reverse."""
    return jax.jvp(jax.grad(f), (x,), (v,))[1]


def gauss_newton_step(residual_fn, params, damping: float = 1e-3):
    """One Levenberg-Marquardt step for least squares: J^T J + damping I."""
    r = residual_fn(params)
    j = jax.jacrev(residual_fn)(params)
    jtj = j.T @ j + damping * jnp.eye(params.shape[0])
    return params - jnp.linalg.solve(jtj, j.T @ r)


def lbfgs_two_loop(grad, s_hist, y_hist):
    """The L-BFGS two-loop recursion over a fixed-size history (arrays of shape (m, n)), with `lax.scan`."""
    rho = 1.0 / jnp.maximum(jnp.sum(s_hist * y_hist, axis=1), 1e-10)

    def backward(q, inputs):
        s, y, r = inputs
        a = r * jnp.vdot(s, q)
        return q - a * y, a

    q, alphas = lax.scan(backward, grad, (s_hist, y_hist, rho), reverse=True)
    gamma = jnp.vdot(s_hist[-1], y_hist[-1]) / jnp.maximum(jnp.vdot(y_hist[-1], y_hist[-1]), 1e-10)
    z = gamma * q

    def forward(z, inputs):
        s, y, r, a = inputs
        b = r * jnp.vdot(y, z)
        return z + s * (a - b), None

    z, _ = lax.scan(forward, z, (s_hist, y_hist, rho, alphas))
    return z


def harmonic_oscillator(y, t, omega: float = 2.0):
    del t
    pos, vel = y[0], y[1]
    return jnp.stack([vel, -omega ** 2 * pos])


def energy(y, omega: float = 2.0):
    return 0.5 * y[1] ** 2 + 0.5 * omega ** 2 * y[0] ** 2


def curvature_at_minimum(f, x):
    return jnp.linalg.eigvalsh(jax.hessian(f)(x))
