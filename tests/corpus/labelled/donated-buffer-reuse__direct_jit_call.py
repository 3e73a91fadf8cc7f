"""`jax.jit(f, donate_argnums=0)(x)` called inline, then `x` used again."""
import jax
import jax.numpy as jnp


def normalize(x):
    return x / jnp.linalg.norm(x)


def main():
    x = jnp.arange(1.0, 4.0)
    unit = jax.jit(normalize, donate_argnums=0)(x)
    return unit, x.sum()  # expect: donated-buffer-reuse


if __name__ == "__main__":
    print(main())
