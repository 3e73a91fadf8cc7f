"""Sharp Bits / "Control flow" under `jax.checkpoint`: an explicit Euler integrator that loops over a
module constant `STEPS = 500` is unrolled 500 times inside the rematerialised block (and again in its
backward pass), all inside the jitted training step.
"""
import jax
import jax.numpy as jnp

STEPS = 500


@jax.checkpoint
def integrate(x, w, dt=0.01):
    for _ in range(STEPS):  # expect: python-loop-in-jit
        x = x + dt * jnp.tanh(x @ w)
    return x


@jax.jit
def loss_and_grad(w, x0, target):
    return jax.value_and_grad(lambda w: jnp.sum((integrate(x0, w) - target) ** 2))(w)


if __name__ == "__main__":
    w, x0 = 0.1 * jnp.eye(3), jnp.ones(3)
    print(loss_and_grad(w, x0, jnp.zeros(3))[0])
    tanhs = str(jax.make_jaxpr(integrate)(x0, w)).count("tanh")
    if tanhs >= STEPS:
        print("SHARP BIT: tanh equations in the checkpointed block:", tanhs)
