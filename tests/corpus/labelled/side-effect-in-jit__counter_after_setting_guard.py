"""A call counter behind an early return on a setting, bumped from jitted code.

`if not VERBOSE: return` guards the helper on a setting, not on the counter itself, so the counter is meant to
count every call; called from a jitted function it is bumped once, when the function is traced, and later calls
run the compiled program only (run: 3 calls, the counter says 1).
"""
import jax
import jax.numpy as jnp

VERBOSE = True
_calls = 0


def _count_call() -> None:
    global _calls
    if not VERBOSE:
        return
    _calls += 1  # expect: side-effect-in-jit


@jax.jit
def assemble(x):
    _count_call()
    return jnp.cumsum(x)


if __name__ == "__main__":
    for n in range(3):
        assemble(jnp.arange(4.0) + n)
    if _calls != 3:
        print("SHARP BIT: 3 calls, counter =", _calls)
