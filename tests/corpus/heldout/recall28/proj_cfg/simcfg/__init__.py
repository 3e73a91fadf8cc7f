"""A simulation package of a project: its settings live in `simcfg.settings`.

The settings module names the dtype the simulation asks for; whether
64-bit values are enabled is up to the program that imports it.
"""

__all__ = ["settings"]
#
#
#
