"""A scan body whose per-layer residuals arrive as a dict (a pytree: `lax.scan` hands each step the dict, not an
array): it pops each residual, moves it, and stores it back under its name. `res.pop(name)` shows `res` is a
Python dict (a JAX array has no `pop`), so `res[name] = r` stores a dict item, no in-place update of an array.
(Run under JAX: the scan runs and the residuals come back scaled.)
"""
import jax
import jax.numpy as jnp


def layer_bwd(carry, res_and_index):
    res, index = res_and_index
    for name in ("mlp", "attn"):
        r = res.pop(name)
        r = jax.tree.map(lambda x: x * 2.0, r)
        res[name] = r
    return carry + index * (res["mlp"].sum() + res["attn"].sum()), None


def main():
    residuals = {"mlp": jnp.ones((3, 4)), "attn": jnp.ones((3, 2))}
    total, _ = jax.jit(lambda r: jax.lax.scan(layer_bwd, 0.0, (r, jnp.arange(3.0))))(residuals)
    print("total:", float(total))


if __name__ == "__main__":
    main()
