"""A small sampling package of a project: the Gaussian samplers live in `samplers.gaussian`.

The package exports nothing itself; callers import the module they need.
Two samplers keep their key on the object: one splits it on every draw,
the other hands the stored key to the sampler unchanged.
"""

__all__ = ["gaussian"]
#
#
