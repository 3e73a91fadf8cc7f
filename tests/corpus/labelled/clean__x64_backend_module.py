"""A backend module that needs double precision and turns `jax_enable_x64` on for the process when imported.

Imported by `clean__float64_after_importing_x64_backend.py`: every module that imports it (at module level)
runs after the flag is on, so its float64 requests are honoured.
"""
import jax
import jax.numpy as jnp

jax.config.update("jax_enable_x64", True)

EPS = jnp.finfo(jnp.float64).eps


if __name__ == "__main__":
    print("float64 eps", EPS)
