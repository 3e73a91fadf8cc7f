"""`donate_argnames` and a keyword call: the optimizer state is read after the update to compare."""
import jax
import jax.numpy as jnp


def update(opt_state, grads):
    return opt_state * 0.9 + grads


update_jit = jax.jit(update, donate_argnames="opt_state")


def step(opt_state, grads):
    new_state = update_jit(opt_state=opt_state, grads=grads)
    change = jnp.abs(new_state - opt_state).max()  # expect: donated-buffer-reuse
    return new_state, change


if __name__ == "__main__":
    print(step(jnp.ones(3), jnp.ones(3)))
