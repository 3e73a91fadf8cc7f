"""Loops for the fori_loop rewrite, proven by execution (tests/fixes/test_fori_loop_rewrite.py).

REWRITE: (name, module source) — the module defines `f` (the traced function) and `ARGS`; the loop marked
`# rewrite` (else the first loop) is rewritten and `f(*ARGS)` must give the same result.
REFUSE: (name, module source, a word the refusal reason must contain) — the source must stay untouched.
"""

H = "import jax\nimport jax.numpy as jnp\nimport numpy as np\nfrom functools import partial\nfrom jax import lax\n"
X1 = "ARGS = (np.linspace(-1, 1, 24).astype(np.float32),)\n"
M2 = "ARGS = (np.arange(20, dtype=np.float32).reshape(5, 4) / 10,)\n"

REWRITE = [
    ("sum-float-init", H + "@jax.jit\ndef f(x):\n    total = 0.0\n    for i in range(x.shape[0]):\n        total = total + x[i]\n    return total\n" + X1),
    ("sum-int-init-peeled", H + "@jax.jit\ndef f(x):\n    total = 0\n    for i in range(x.shape[0]):\n        total = total + x[i]\n    return total\n" + X1),
    ("row-sum-shape-from-body", H + "@jax.jit\ndef f(m):\n    acc = 0\n    for i in range(m.shape[0]):\n        acc = acc + m[i]\n    return acc\nARGS = (np.arange(48, dtype=np.float32).reshape(12, 4),)\n"),
    ("augmented", H + "@jax.jit\ndef f(x):\n    total = jnp.zeros(())\n    for i in range(24):\n        total += x[i] ** 2\n    return total\n" + X1),
    ("start-stop", H + "@jax.jit\ndef f(x):\n    s = 0.0\n    for i in range(2, 20):\n        s = s + x[i] * i\n    return s\n" + X1),
    ("step-2", H + "@jax.jit\ndef f(x):\n    s = 0.0\n    for i in range(1, 23, 2):\n        s = s + x[i]\n    return s\n" + X1),
    ("negative-step", H + "@jax.jit\ndef f(x):\n    s = 0.0\n    for i in range(22, 0, -3):\n        s = s * 0.5 + x[i]\n    return s\n" + X1),
    ("unused-index", H + "@jax.jit\ndef f(x):\n    for _ in range(20):\n        x = x * 1.01 + 0.1\n    return x\n" + X1),
    ("static-trip-count", H + "@partial(jax.jit, static_argnums=1)\ndef f(x, n):\n    y = jnp.zeros_like(x)\n    for i in range(n):\n        y = y + jnp.roll(x, i)\n    return y\nARGS = (np.arange(6, dtype=np.float32), 9)\n"),
    ("fibonacci-tuple-assign", H + "@jax.jit\ndef f(a0, b0):\n    a, b = a0, b0\n    for _ in range(20):\n        a, b = b, a + b\n    return a\nARGS = (np.float32(0.0), np.float32(1.0))\n"),
    ("two-carries", H + "@jax.jit\ndef f(x):\n    s = 0.0\n    p = 1.0\n    for i in range(10):\n        s = s + x[i]\n        p = p * (1 + x[i])\n    return s, p\n" + X1),
    ("at-set", H + "@jax.jit\ndef f(x):\n    out = jnp.zeros_like(x)\n    for i in range(x.shape[0]):\n        out = out.at[i].set(x[i] * 2 + i)\n    return out\n" + X1),
    ("at-add-modulo", H + "@jax.jit\ndef f(x):\n    buckets = jnp.zeros(3)\n    for i in range(24):\n        buckets = buckets.at[i % 3].add(x[i])\n    return buckets\n" + X1),
    ("temporaries-stay-local", H + "@jax.jit\ndef f(x):\n    acc = 0.0\n    for i in range(12):\n        t = x[i] * 2\n        u = t * t\n        acc = acc + u - t\n    return acc\n" + X1),
    ("closed-over-matrix", H + "@jax.jit\ndef f(w, h):\n    for _ in range(16):\n        h = jnp.tanh(w @ h)  # a tiny RNN\n    return h\nARGS = (np.eye(4, dtype=np.float32) * 0.9, np.ones(4, np.float32))\n"),
    ("dict-carry", H + "@jax.jit\ndef f(x):\n    state = {'s': 0.0, 'c': 0}\n    for i in range(16):\n        state = {'s': state['s'] + x[i], 'c': state['c'] + 1}\n    return state\n" + X1),
    ("tuple-carry", H + "@jax.jit\ndef f(x):\n    st = (0.0, 1.0)\n    for i in range(16):\n        st = (st[0] + x[i] * st[1], st[1] * 0.9)\n    return st\n" + X1),
    ("nested-inner", H + "@jax.jit\ndef f(m):\n    acc = 0.0\n    for i in range(3):\n        for j in range(12):  # rewrite\n            acc = acc + m[i, j] * (i + 1)\n    return acc\nARGS = (np.arange(36, dtype=np.float32).reshape(3, 12) / 10,)\n"),
    ("nested-outer", H + "@jax.jit\ndef f(m):\n    acc = jnp.zeros(())\n    for i in range(5):  # rewrite\n        for j in range(4):\n            acc = acc + m[i, j] * j\n    return acc\n" + M2),
    ("vmap", H + "def g(row):\n    s = 0.0\n    for i in range(12):\n        s = s + row[i] * row[i]\n    return s\nf = jax.jit(jax.vmap(g))\nARGS = (np.arange(36, dtype=np.float32).reshape(3, 12) / 10,)\n"),
    ("grad", H + "def loss(w, x):\n    h = w\n    for i in range(8):\n        h = h * jnp.sin(x[i])\n    return h\nf = jax.jit(jax.grad(loss))\nARGS = (np.float32(1.5), np.linspace(0.1, 1, 8).astype(np.float32))\n"),
    ("scan-body-helper", H + "def inner(c, x):\n    for k in range(6):\n        c = c * 0.5 + x * k\n    return c, c\n@jax.jit\ndef f(xs):\n    return lax.scan(inner, 0.0, xs)\n" + X1),
    ("helper-called-from-jit", H + "def smooth(x):\n    y = x\n    for _ in range(10):\n        y = (jnp.roll(y, 1) + y + jnp.roll(y, -1)) / 3\n    return y\n@jax.jit\ndef f(x):\n    return smooth(x) * 2\n" + X1),
    ("nested-def-in-jit", H + "@jax.jit\ndef f(x):\n    def norm_steps(v):\n        for _ in range(8):\n            v = v / (1 + jnp.abs(v).max())\n        return v\n    return norm_steps(x)\n" + X1),
    ("index-in-where", H + "@jax.jit\ndef f(x):\n    s = jnp.zeros(())\n    for i in range(24):\n        s = s + jnp.where(i > 10, x[i], -x[i])\n    return s\n" + X1),
    ("fold-in-keys", H + "@jax.jit\ndef f(key):\n    total = jnp.zeros(3)\n    for i in range(10):\n        total = total + jax.random.normal(jax.random.fold_in(key, i), (3,))\n    return total\nARGS = (jax.random.PRNGKey(0),)\n"),
    ("matrix-power", H + "@jax.jit\ndef f(a):\n    m = jnp.eye(3)\n    for _ in range(7):\n        m = m @ a\n    return m\nARGS = (np.array([[0.9, 0.1, 0], [0, 0.8, 0.2], [0.1, 0, 0.9]], np.float32),)\n"),
    ("running-max", H + "@jax.jit\ndef f(x):\n    best = -jnp.inf\n    for i in range(x.shape[0]):\n        best = jnp.maximum(best, x[i])\n    return best\n" + X1),
    ("horner-reverse", H + "@jax.jit\ndef f(c, t):\n    acc = 0.0\n    for i in range(c.shape[0] - 1, -1, -1):\n        acc = acc * t + c[i]\n    return acc\nARGS = (np.array([1, -2, 0.5, 3, 0.25], np.float32), np.float32(0.7))\n"),
    ("static-branch-inside", H + "@partial(jax.jit, static_argnames='mode')\ndef f(x, mode):\n    acc = 0.0\n    for i in range(12):\n        if mode == 'double':\n            acc = acc + 2 * x[i]\n        else:\n            acc = acc + x[i]\n    return acc\nARGS = (np.linspace(0, 1, 12).astype(np.float32), 'double')\n"),
    ("comments-and-blank-lines", H + "@jax.jit\ndef f(x):\n    energy = 0.0  # accumulated\n    for i in range(1, 24):\n        # finite difference\n        d = x[i] - x[i - 1]\n\n        energy = energy + d * d  # squared\n    return energy\n" + X1),
    ("len-of-array", H + "@jax.jit\ndef f(x):\n    mean = 0.0\n    for i in range(len(x)):\n        mean = mean + (x[i] - mean) / (i + 1)\n    return mean\n" + X1),
    ("int-counter-carry", H + "@jax.jit\ndef f(x):\n    count = 0\n    for i in range(24):\n        count = count + jnp.where(x[i] > 0, 1, 0)\n    return count\n" + X1),
    ("two-arrays-at", H + "@jax.jit\ndef f(x):\n    evens = jnp.zeros(12)\n    odds = jnp.zeros(12)\n    for i in range(12):\n        evens = evens.at[i].set(x[2 * i])\n        odds = odds.at[i].set(x[2 * i + 1])\n    return evens - odds\n" + X1),
    # found by the fuzz test: a body indented tab + 4 spaces under a loop indented 4 spaces (the tokenizer accepts
    # it: deeper at tab size 8 and at tab size 1); the added `return` must copy the body's indent, not rebuild it
    ("mixed-tabs-and-spaces", H + "@jax.jit\ndef f(x):\n    total = 0.0\n    for i in range(x.shape[0]):\n\t    total = total + x[i]\n\t    total = total * 0.5\n    return total\n" + X1),
    ("mixed-tabs-and-spaces-peeled", H + "@jax.jit\ndef f(x):\n \tacc = 0\n \tfor i in range(1, 24, 2):\n\t    acc = acc + x[i]\n \treturn acc\n" + X1),
]

REFUSE = [
    ("break", H + "@jax.jit\ndef f(x):\n    s = 0.0\n    for i in range(10):\n        if i > 5:\n            break\n        s = s + x[i]\n    return s\n", "break"),
    ("continue", H + "@jax.jit\ndef f(x):\n    s = 0.0\n    for i in range(10):\n        if i % 2:\n            continue\n        s = s + x[i]\n    return s\n", "continue"),
    ("return-inside", H + "def g(x):\n    for i in range(10):\n        return x[i]\n    return x[0]\nf = jax.jit(g)\n", "return"),
    ("append", H + "@jax.jit\ndef f(x):\n    out = []\n    for i in range(10):\n        out.append(x[i])\n    return jnp.stack(out)\n", "Python state"),
    ("print", H + "@jax.jit\ndef f(x):\n    s = 0.0\n    for i in range(4):\n        print(i)\n        s = s + x[i]\n    return s\n", "print"),
    ("index-read-after", H + "@jax.jit\ndef f(x):\n    s = 0.0\n    for i in range(10):\n        s = s + x[i]\n    return s * i\n", "read after the loop"),
    ("index-as-slice-bound", H + "@jax.jit\ndef f(x):\n    s = 0.0\n    for i in range(1, 10):\n        s = s + x[:i].sum()\n    return s\n", "Python value"),
    ("index-in-if", H + "@jax.jit\ndef f(x):\n    s = 0.0\n    for i in range(10):\n        if i == 0:\n            s = s + 1\n        s = s + x[i]\n    return s\n", "Python value"),
    ("no-value-before", H + "@jax.jit\ndef f(x):\n    for i in range(10):\n        last = x[i] * 2\n    return last\n", "no value before the loop"),
    ("store-into-container", H + "@jax.jit\ndef f(x):\n    d = {}\n    s = 0.0\n    for i in range(3):\n        d[i] = x[i]\n        s = s + x[i]\n    return s, d\n", "in place"),
    ("growing-shape", H + "@jax.jit\ndef f(x):\n    acc = jnp.zeros(0)\n    for i in range(5):\n        acc = jnp.concatenate([acc, x[i:i + 1]])\n    return acc\n", "shape"),
]

WHILE_REWRITE = [
    ("halve-until-small", H + "@jax.jit\ndef f(x):\n    y = jnp.full(x.shape, 100.0) * 3\n    while y.max() > x[0] + 2.0:\n        y = y / 2.0\n    return y\n" + X1),
    ("counter-and-sum", H + "@jax.jit\ndef f(x):\n    i = 0\n    total = jnp.zeros(())\n    while i < 10:\n        total = total + x[i]\n        i = i + 1\n    return total\n" + X1),
    ("newton-sqrt", H + "@jax.jit\ndef f(a):\n    g = jnp.ones_like(a, dtype=jnp.float32)\n    n = 0\n    while n < 20:\n        g = 0.5 * (g + a / g)\n        n += 1\n    return g\nARGS = (np.array([2.0, 9.0, 0.25], np.float32),)\n"),
    ("mixed-tabs-and-spaces", H + "@jax.jit\ndef f(x):\n    y = jnp.full(x.shape, 100.0) * 3\n    while y.max() > x[0] + 2.0:\n\t    y = y / 2.0\n    return y\n" + X1),
]
