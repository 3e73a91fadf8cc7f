"""An integrator with an unrolled reference path used only eagerly (to check the `fori_loop` path in a notebook):
the jitted step passes `reference=False`, a literal, so the 1,000-iteration Python loop is never traced
(the jaxpr inside `step`'s jit has one equation, the `while`)."""
import jax
import jax.numpy as jnp


def integrate(x, reference):
    if reference:
        for _ in range(1000):
            x = x + 0.001 * jnp.sin(x)
        return x
    return jax.lax.fori_loop(0, 1000, lambda i, v: v + 0.001 * jnp.sin(v), x)


@jax.jit
def step(x):
    return integrate(x, reference=False)


if __name__ == "__main__":
    x = jnp.ones(3)
    print(step(x), integrate(x, reference=True))
    print(len(jax.make_jaxpr(step)(x).eqns[0].params['jaxpr'].eqns))  # the equations inside the jit
