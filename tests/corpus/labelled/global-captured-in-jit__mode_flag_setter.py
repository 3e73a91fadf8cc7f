"""Sharp Bits: "Pure functions": a train/eval mode flag written with `global` by a setter that runs after
the jitted forward pass was traced. The `if` was decided at trace time, so dropout stays on in "eval".
"""
import jax
import jax.numpy as jnp

_TRAINING = True


def eval_mode():
    global _TRAINING
    _TRAINING = False


@jax.jit
def forward(w, x, key):
    h = jax.nn.relu(x @ w)
    if _TRAINING:  # expect: global-captured-in-jit
        h = jnp.where(jax.random.bernoulli(key, 0.5, h.shape), 2.0 * h, 0.0)
    return h.sum()


if __name__ == "__main__":
    w, x = jnp.eye(4), jnp.ones((2, 4))
    print("train loss:", forward(w, x, jax.random.PRNGKey(0)))
    eval_mode()
    out = forward(w, x, jax.random.PRNGKey(1))
    if float(out) != float(jax.nn.relu(x @ w).sum()):
        print("SHARP BIT: eval_mode() had no effect, dropout still applied:", out)
