"""The same integrator with a jitted caller passing `reference=True`: the Python loop is traced and unrolled
1,000 times (the jaxpr inside its jit has 3,000 equations)."""
import jax
import jax.numpy as jnp


def integrate(x, reference):
    if reference:
        for _ in range(1000):  # expect: python-loop-in-jit
            x = x + 0.001 * jnp.sin(x)
        return x
    return jax.lax.fori_loop(0, 1000, lambda i, v: v + 0.001 * jnp.sin(v), x)


@jax.jit
def reference_step(x):
    return integrate(x, reference=True)


if __name__ == "__main__":
    print(len(jax.make_jaxpr(reference_step)(jnp.ones(3)).eqns[0].params['jaxpr'].eqns))  # the equations inside the jit
