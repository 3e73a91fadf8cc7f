"""A small training library of a project: the update rules live in `trainlib.steps`.

`apply_grads` donates the parameters it is given; `clip_by_norm` and
`clip_by_norm_where` scale a gradient down to a maximum norm, the first with a
Python `if`, the second with `jnp.where`.
"""

__all__ = ["steps"]
#
#
