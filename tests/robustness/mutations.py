"""Documents as they look mid-typing: realistic JAX code, cut and damaged in the ways editing damages it."""

from __future__ import annotations

import random

from sharpbits.analysis.rules import ALL_RULES

SEEDS = [
    "import jax\nimport jax.numpy as jnp\nfrom functools import partial\n\n"
    "@partial(jax.jit, static_argnums=1)\ndef step(x, n):\n    y = jnp.zeros_like(x)\n"
    "    for i in range(n):\n        y[i] = x[i] * 2  # in place\n    return y\n\n"
    "def loss(params, batch):\n    w, b = params['w'], params['b']\n    return ((batch @ w + b) ** 2).mean()\n\n"
    "grad_fn = jax.jit(jax.grad(loss))\n",
    "import jax.numpy as np\nx = np.arange(10.0)\nx[::2] += 1\nx[x > 3] = 0\nclass M:\n    def f(self, a):\n"
    "        return [a[i] for i in range(3)]\n",
    "from jax import lax, random as jr\nkey = jr.key(0)\nk1, k2 = jr.split(key)\n"
    "def body(i, c):\n    return c.at[i].set(i)\nout = lax.fori_loop(0, 5, body, jr.normal(k1, (5,)))\n",
] + [case.code for rule in ALL_RULES for case in rule.INVALID] + [code for rule in ALL_RULES for code in rule.VALID]

JUNK = ["(", ")", "[", "]", "{", "}", ":", "\t", "    ", "\n", "é", "😀", "\u2028", "\x0c", "\r", "'", '"', '"""',
        "\\", "@", "x[", "= ", "+=", "jnp.", "lambda", "def ", "for i in range(", "#", "\x00", "ß", "→"]


def mutate(text: str, rng: random.Random) -> str:
    for _ in range(rng.randint(1, 4)):
        choice = rng.randrange(8)
        pos = rng.randint(0, len(text)) if text else 0
        if choice == 0:  # truncated: the user is still typing
            text = text[:pos]
        elif choice == 1:  # stray characters
            text = text[:pos] + rng.choice(JUNK) + text[pos:]
        elif choice == 2:  # a deleted span
            end = min(len(text), pos + rng.randint(1, 40))
            text = text[:pos] + text[end:]
        elif choice == 3:  # a duplicated line
            lines = text.splitlines(keepends=True) or [""]
            i = rng.randrange(len(lines))
            lines.insert(i, lines[i])
            text = "".join(lines)
        elif choice == 4:  # very deep nesting
            depth = rng.choice([50, 150, 400, 1200])
            text = text[:pos] + "(" * depth + "x" + ")" * depth + text[pos:]
        elif choice == 5:  # a long chain (deep left-recursive tree)
            text = text[:pos] + "\ny = " + " + ".join(["x"] * rng.choice([10, 1000, 5000])) + "\n" + text[pos:]
        elif choice == 6:  # re-indented with tabs
            text = text.replace("    ", "\t", rng.randint(0, 5))
        else:  # one line's indent respelled: its first four spaces become a tab (`\t    x` under `    for`)
            lines = text.splitlines(keepends=True) or [""]
            indented = [i for i, line in enumerate(lines) if line.startswith("    ")]
            if indented:
                i = rng.choice(indented)
                lines[i] = "\t" + lines[i][4:]
                text = "".join(lines)
    return text
