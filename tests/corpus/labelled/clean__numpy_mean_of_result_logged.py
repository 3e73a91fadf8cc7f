"""Clean twin of side-effect-in-jit__numpy_mean_of_tracer_logged: the step returns the per-example losses and the
caller logs `np.mean` of the result, a number per call.
"""
import jax
import jax.numpy as jnp
import numpy as np

LOSSES = []


@jax.jit
def eval_step(w, x, y):
    return (x @ w - y) ** 2


if __name__ == "__main__":
    for _ in range(3):
        LOSSES.append(float(np.mean(eval_step(jnp.ones(3), jnp.ones((4, 3)), jnp.zeros(4)))))
    print(LOSSES)
