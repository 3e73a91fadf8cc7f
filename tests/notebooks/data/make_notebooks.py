"""Writes the test notebooks the way Jupyter does (nbformat 4.5, indent 1, sorted keys, trailing newline)."""
import json

def md(text, id):
    return {"cell_type": "markdown", "id": id, "metadata": {}, "source": text.splitlines(keepends=True)}

def code(text, id, count=None, outputs=(), as_string=False):
    return {"cell_type": "code", "execution_count": count, "id": id, "metadata": {},
            "outputs": list(outputs), "source": text if as_string else text.splitlines(keepends=True)}

PNG = ("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")


def plot():
    return {"data": {"image/png": PNG, "text/plain": ["<Figure size 640x480 with 1 Axes>"]},
            "metadata": {}, "output_type": "display_data"}


def stream(text):
    return {"name": "stdout", "output_type": "stream", "text": text.splitlines(keepends=True)}

META = {"kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"},
        "language_info": {"codemirror_mode": {"name": "ipython", "version": 3}, "file_extension": ".py",
                          "mimetype": "text/x-python", "name": "python", "nbconvert_exporter": "python",
                          "pygments_lexer": "ipython3", "version": "3.11.9"}}

def write(name, cells, indent=1):
    nb = {"cells": cells, "metadata": META, "nbformat": 4, "nbformat_minor": 5}
    with open(name, "w", encoding="utf-8") as f:
        f.write(json.dumps(nb, indent=indent, sort_keys=True, ensure_ascii=False) + "\n")

write("pseudorandom_numbers.ipynb", [
    md("# Pseudorandom numbers\n\nIn JAX, the state of a random number generator is an explicit **key**.", "a1"),
    code("!pip install -q jax\n%matplotlib inline", "c1", 1, [stream("Note: you may need to restart the kernel.\n")]),
    code("import jax\nimport jax.numpy as jnp\nfrom jax import random\n\nkey = random.key(42)\nprint(key)", "c2", 2,
         [stream("Array((), dtype=key<fry>) overlaying:\n[ 0 42]\n")]),
    md("Draw some normal samples with the key:", "a2"),
    code("x = random.normal(key, (3,))\nprint(x)", "c3", 3, [stream("[ 0.0848 -1.8349 -0.0458]\n")]),
    code("import matplotlib.pyplot as plt\nplt.hist(random.normal(random.key(1), (1000,)), bins=30);", "c3b", 4, [plot()]),
    md("Using the same key again gives **the same** numbers — the sharp bit:", "a3"),
    code("random.normal?\ny = random.normal(key, (3,))\nprint(y)  # same as x?", "c4", 5, [stream("[ 0.0848 -1.8349 -0.0458]\n")]),
    md("The right way: split the key.", "a4"),
    code("key, subkey = random.split(key)\nz = random.normal(subkey, (3,))\n%timeit random.normal(subkey, (1000,)).block_until_ready()", "c5", 6,
         [stream("12.3 µs ± 101 ns per loop (mean ± std. dev. of 7 runs, 100,000 loops each)\n")]),
])

write("jit_and_updates.ipynb", [
    md("# Just-in-time compilation\n\nArrays are immutable; `jit` traces Python once.", "b1"),
    code("import jax\nimport jax.numpy as jnp", "d1", 1),
    code("def centre(x):\n    x = x - x.mean(0)\n    x[0] = 0.0  # the first row is the reference\n    return x", "d2", 2, as_string=True),
    md("`centre` runs under `jit` when a jitted function calls it:", "b2"),
    code("@jax.jit\ndef normalise_first(x):\n    x = centre(x)\n    return x / x.std(0)", "d2b", 3),
    code("%%timeit\nnormalise_first(jnp.ones((100, 3))).block_until_ready()", "d3", 3, [stream("error\n")]),
    code("%%capture captured\nprint(jnp.zeros(3)) ==== not python", "d4", 4),
    code("%%bash\nls -la | head\nif [ -f x ]; then echo y; fi", "d5", 5),
    code("%time z = normalise_first(jnp.ones((4, 2))).block_until_ready()\nfor i in range(3):\n    %time normalise_first(jnp.ones((4, 2)))\nw = (z.sum()\n     % 2)", "d6", 6),
], indent=2)

# In the style of JAX's "Benchmarking JAX code" FAQ: %timeit of jitted calls, waited for or not.
write("benchmarking.ipynb", [
    md("# Benchmarking JAX code\n\nJAX dispatches asynchronously: time the computation, not the dispatch.", "t1"),
    code("!pip install -q jax\nimport jax\nimport jax.numpy as jnp\n\nx = jnp.ones((1000, 1000))", "t2", 1),
    code("@jax.jit\ndef selu(x, alpha=1.67, lmbda=1.05):\n    return lmbda * jnp.where(x > 0, x, alpha * jnp.exp(x) - alpha)", "t3", 2),
    md("Timing the call alone measures the dispatch:", "t4"),
    code("%timeit selu(x)", "t5", 3, [stream("7.1 µs ± 0.2 µs per loop (mean ± std. dev. of 7 runs, 100,000 loops each)\n")]),
    code("%timeit -n 10 -r 3 selu(x).block_until_ready()", "t6", 4),
    code("%%timeit\ny = selu(x)\nz = selu(y)", "t7", 5),
    code("%%timeit x_host = jnp.ones((10, 10))\nfloat(selu(x_host).sum())", "t8", 6),
    code("%time y = selu(x).block_until_ready()", "t9", 7),
])

with open("not_json.ipynb", "w") as f:
    f.write('{\n "cells": [\n  {"cell_type": "code", "source": ["x[0] = 1"],}\n ]\n}\n')
with open("nbformat3.ipynb", "w") as f:
    json.dump({"metadata": {}, "nbformat": 3, "nbformat_minor": 0, "worksheets": [{"cells": []}]}, f, indent=1)
