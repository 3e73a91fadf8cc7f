"""Sharp Bits: "Pure functions": a global JAX array (a vocabulary mask) is rebound at module level with
`.at[].set` between two calls of the jitted sampler; the compiled sampler keeps the old mask as a constant.
"""
import jax
import jax.numpy as jnp

VOCAB = 5
allowed = jnp.ones(VOCAB, dtype=bool)


@jax.jit
def greedy_token(logits):
    return jnp.argmax(jnp.where(allowed, logits, -jnp.inf))  # expect: global-captured-in-jit


logits = jnp.array([0.1, 3.0, 0.2, 0.3, 0.4])
print("first:", greedy_token(logits))
allowed = allowed.at[1].set(False)  # ban token 1
second = greedy_token(logits)
if int(second) == 1:
    print("SHARP BIT: the banned token is still chosen:", second)
