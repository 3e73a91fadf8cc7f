"""A registry of rules whose entry for an existing key is replaced by a function after a jitted caller read it.

`override` writes over the "scale" entry; the compiled `apply` keeps the rule it traced with.
"""
import jax
import jax.numpy as jnp

RULES = {"scale": lambda x: 2.0 * x}


def override(name, rule):
    RULES[name] = rule


@jax.jit
def apply(x):
    return RULES["scale"](x)  # expect: global-captured-in-jit


if __name__ == "__main__":
    x = jnp.ones(2)
    print(apply(x))
    override("scale", lambda x: 3.0 * x)
    print("SHARP BIT: the new rule (x3) is ignored:", apply(x))
