"""Syntax newer than the project's oldest Python: this repository's pyproject.toml says
`requires-python = ">=3.10"`, so on Python 3.10 importing this module raises SyntaxError."""

import jax.numpy as jnp


def safe_log(x):
    try:
        return jnp.log(x)
    except* ValueError:  # `except*` came in Python 3.11
        return jnp.zeros_like(x)


def safe_log_310(x):
    try:
        return jnp.log(x)
    except ValueError:
        return jnp.zeros_like(x)


def describe(x):
    match x.ndim:  # `match` is 3.10: fine here
        case 0:
            return "scalar"
        case _:
            return f"{x.ndim}-d array"


type Params = dict[str, jnp.ndarray]  # type aliases came in Python 3.12
Params310 = dict[str, jnp.ndarray]
