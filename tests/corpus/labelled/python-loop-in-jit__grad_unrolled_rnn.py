"""Sharp Bits / "Control flow": an RNN loss unrolled with a Python loop and differentiated with `jax.grad`.

`jax.grad` traces the whole loop; the backward pass doubles the unrolled program. Use `lax.scan`.
"""
import jax
import jax.numpy as jnp

SEQ_LEN = 64


def rnn_loss(w, xs, target):
    h = jnp.zeros(w.shape[0])
    for t in range(SEQ_LEN):  # expect: python-loop-in-jit
        h = jnp.tanh(w @ h + xs[t])
    return jnp.sum((h - target) ** 2)


grad_fn = jax.grad(rnn_loss)


if __name__ == "__main__":
    w = jnp.eye(4) * 0.5
    xs = jnp.ones((SEQ_LEN, 4))
    print("SHARP BIT: equations:", len(jax.make_jaxpr(grad_fn)(w, xs, jnp.zeros(4)).jaxpr.eqns))
