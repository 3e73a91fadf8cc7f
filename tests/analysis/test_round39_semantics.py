"""Round 39's classes (first contact on f7fd903) at their edges: private functions nothing can call, writes under
`jax.grad` alone, a container handed to jit and tested for truth, a timed loop that tests its own result, a
determinism check through nested unpacking and a loop over the two replays, state a loop sets for the trace it
makes, and brainstate's precision. Each case states what JAX does; the labelled pairs in tests/corpus/labelled/
run the main cases under JAX."""

from pathlib import Path

import pytest
from sharpbits.analysis.engine import analyze

from tests.analysis.small_projects import findings_in_folder, no_shared_index  # noqa: F401  (fixture)

HEAD = "import time\nimport jax\nimport jax.numpy as jnp\n\n\n"


def _found(text: str) -> list[tuple[int, str, str]]:
    return [(f.line - HEAD.count("\n"), f.rule, f.severity) for f in analyze(HEAD + text, "m.py").findings]


def _warnings(text: str) -> list[tuple[int, str]]:
    return [(line, rule) for line, rule, severity in _found(text) if severity in ("warning", "error")]


# ---- private functions nothing can call ----------------------------------------------------------------------

PRIVATE = """import jax
import numpy as np


@jax.jit
def _eig(prop):
    return np.asarray(prop)


def sweep(prop):
    return np.linalg.eigh(prop)
"""


@pytest.mark.parametrize("other, reported", [
    ("def helper():\n    return 1\n", False),  # nothing names `_eig` anywhere: its code never runs
    ("from pkg.m import _eig\n", True),  # another module imports it
    ("def _eig(prop):\n    return prop\n", False),  # another module's own `_eig` is another function
    ("NAMES = ['_eig']\n", True),  # spelled in a string elsewhere: may be looked up by name
])
def test_a_private_function_nothing_calls_reports_nothing(tmp_path: Path, other: str, reported: bool) -> None:
    found = findings_in_folder(tmp_path, {"pkg/__init__.py": "", "pkg/m.py": PRIVATE, "pkg/other.py": other}, "pkg/m.py")
    assert any(f.rule == "host-conversion-in-jit" for f in found) is reported


@pytest.mark.parametrize("change", [
    ("def sweep(prop):", "def sweep(prop):\n    _eig(prop)"),  # called in the module
    ("def sweep(prop):", "__all__ = ['_eig']\n\n\ndef sweep(prop):"),  # exported by name
    ("@jax.jit\ndef _eig", "@register\n@jax.jit\ndef _eig"),  # a registering decorator runs it from elsewhere
    ("def _eig", "def __eig"),  # a dunder name is no private helper
])
def test_a_private_function_the_module_may_run_is_reported(tmp_path: Path, change: tuple[str, str]) -> None:
    text = PRIVATE.replace(*change).replace("import numpy as np", "import numpy as np\nfrom reg import register")
    found = findings_in_folder(tmp_path, {"pkg/__init__.py": "", "pkg/m.py": text}, "pkg/m.py")
    assert any(f.rule == "host-conversion-in-jit" for f in found)


def test_a_private_function_defined_under_a_module_level_if(tmp_path: Path) -> None:
    text = PRIVATE.replace("@jax.jit\ndef _eig(prop):\n    return np.asarray(prop)",
                           "if jax:\n    @jax.jit\n    def _eig(prop):\n        return np.asarray(prop)")
    found = findings_in_folder(tmp_path, {"pkg/__init__.py": "", "pkg/m.py": text}, "pkg/m.py")
    assert [f.rule for f in found] == []


def test_without_a_project_index_a_private_function_may_be_imported() -> None:
    assert [f.rule for f in analyze(PRIVATE, "m.py").findings] == ["host-conversion-in-jit"]


# ---- writes under jax.grad alone -------------------------------------------------------------------------------

@pytest.mark.parametrize("body, transform, expected", [
    # grad alone runs the body on every call: a write of a value that is no tracer happens every call, as eagerly
    ("    STATE = jnp.zeros(2)\n", "jax.grad(loss)(w, data)", None),
    ("    STATE = data * 2\n", "jax.grad(loss)(w, data)", None),  # `data` is not differentiated: concrete
    ("    STATE = 3\n", "jax.grad(loss)(w, data)", None),
    ("    STATE += 1\n", "jax.grad(loss)(w, data)", None),
    # the differentiated argument is a tracer: stored in a global, it leaks (not "runs once")
    ("    STATE = w * 2\n", "jax.grad(loss)(w, data)", "it leaks a tracer"),
    # under jit the body runs once, at trace time: the write happens once
    ("    STATE = 3\n", "jax.jit(jax.grad(loss))(w, data)", "runs once, at trace time, not on every call"),
    ("    STATE = w * 2\n", "jax.jit(jax.grad(loss))(w, data)", "runs once, at trace time, and leaks a tracer"),
])
def test_global_writes_under_grad_alone(body: str, transform: str, expected: str | None) -> None:
    text = (f"STATE = None\n\n\ndef loss(w, data):\n    global STATE\n{body}    return jnp.sum(w * data)\n\n\n"
            f"def step(w, data):\n    return {transform}\n")
    messages = [f.message for f in analyze(HEAD + text, "m.py").findings if f.rule == "side-effect-in-jit"]
    assert messages == [] if expected is None else expected in messages[0]


# ---- a container handed to jit, tested for truth ---------------------------------------------------------------

PARENTS = """@jax.jit
def f(x, parents):
    if TEST:
        x = x + parents[0]
    return x


def g(x, cols):
    return f(x, VALUE)
"""


@pytest.mark.parametrize("test, value, reported", [
    ("parents", "tuple(x[c] for c in cols)", False),  # a tuple of tracers: its truth is its length
    ("parents", "[x[0], x[1]]", False),
    ("parents", "()", False),
    ("parents", "x", True),  # an array: TracerBoolConversionError
    ("parents", "cols", True),  # unknown: may be an array
    ("parents and x.sum() > 0", "(x,)", True),  # the length is known, the other part is traced
    ("not parents", "{'a': x}", False),
])
def test_a_container_every_caller_passes(test: str, value: str, reported: bool) -> None:
    found = _warnings(PARENTS.replace("TEST", test).replace("VALUE", value))
    assert bool([r for _, r in found if r == "traced-control-flow"]) is reported


def test_a_container_parameter_rebound_in_the_function_is_not_the_argument() -> None:
    text = PARENTS.replace("TEST", "parents").replace("VALUE", "(x,)").replace(
        "    if parents:", "    parents = parents[0]\n    if parents:")
    assert [r for _, r in _warnings(text)] == ["traced-control-flow"]


# ---- a timed loop that tests its own result --------------------------------------------------------------------

TIMED = """@jax.jit
def update(x, err):
    y = x * 0.5
    return y, jnp.abs(y - x).max()


def solve(x, tol):
    err = jnp.inf
    t0 = time.time()
    for i in range(100):
        TEST
        x, err = update(x, err)
    return x, time.time() - t0
"""


@pytest.mark.parametrize("test, reported", [
    ("if i > 0 and err < tol:\n            break", False),  # each iteration waits for the step before it
    ("if i > 0 and err.shape[0] > 3:\n            break", True),  # a shape: known without waiting
    ("if i > 100:\n            break", True),  # a Python test: nothing waits
    ("if tol < 0 and err < tol:\n            break", True),  # `err` read only if a test the loop never changes holds
])
def test_a_timed_loop_testing_its_own_result(test: str, reported: bool) -> None:
    assert bool([r for _, r in _warnings(TIMED.replace("TEST", test)) if r == "unblocked-timing"]) is reported


# ---- a determinism check through nested unpacking, and a loop over the two replays ------------------------------

CHECKS = """def _sample(key, n):
    return jax.random.uniform(key, (n,))


def sample(key, n, lower=0.0):
    return _sample(key, n) + lower


def test_replays():
    key = jax.random.key(1)
    before = _sample(key, 4)
    for got in (
        sample(key, 4),
        sample(key, 4, lower=0.0),
    ):
        BODY
"""


@pytest.mark.parametrize("body", [
    "assert bool(jnp.array_equal(got, before))",  # each replay checked against the first, alone
    "for a, b in zip(jax.tree.leaves(got), jax.tree.leaves(before)):\n            assert bool(jnp.array_equal(a, b))",
])
def test_a_loop_over_two_replays_each_checked(body: str) -> None:
    assert _warnings(CHECKS.replace("BODY", body)) == []


def test_a_determinism_check_through_nested_unpacking() -> None:
    text = ("def test_determinism():\n    key = jax.random.key(0)\n    dists = jax.random.normal(key, (3,))\n"
            "    repeat = jax.random.normal(key, (3,))\n"
            "    for idx, (dist, dim) in enumerate(zip(dists, [3, 5, 2])):\n"
            "        assert bool(jnp.allclose(dist, repeat[idx]))\n")
    assert _warnings(text) == []
    crossed = text.replace("jnp.allclose(dist, repeat[idx])", "jnp.allclose(dist + repeat[idx], 0.0)")
    assert [r for _, r in _warnings(crossed)] == ["prng-key-reuse"]  # the two draws meet before the check


# ---- state a loop sets for the trace it makes -------------------------------------------------------------------

STATEFUL = """class Opt:
    def _obj(self, x):
        return x * self.weights[READ]

    def solve(self, x):
        for j in range(3):
            self.q = j
            f = jax.jit(self._obj)
            x = f(x)
        return x
"""


@pytest.mark.parametrize("read, severity", [
    ("self.q", "info"),
    ("0", "warning"),
])
def test_a_jitted_method_reading_what_the_loop_sets(read: str, severity: str) -> None:
    assert [(r, s) for _, r, s in _found(STATEFUL.replace("READ", read))] == [("jit-in-loop", severity)]


def test_a_jitted_method_that_sets_the_attribute_it_reads_needs_no_new_trace() -> None:
    text = STATEFUL.replace("        return x * self.weights[READ]\n",
                            "        self.q = x.sum()\n        return self.q\n")
    # (storing a tracer on `self` is a side effect of its own, reported as such)
    assert [(r, s) for _, r, s in _found(text) if r == "jit-in-loop"] == [("jit-in-loop", "warning")]


# ---- brainstate's precision -------------------------------------------------------------------------------------

@pytest.mark.parametrize("setting, reported", [
    ("brainstate.environ.context(precision=64)", False),
    ("brainstate.environ.set(precision=64)", False),
    ("brainstate.environ.set_precision(64)", False),
    ("brainstate.environ.set(dt=0.1)", True),  # another setting: x64 stays off
])
def test_brainstate_precision_turns_x64_on(setting: str, reported: bool) -> None:
    text = (f"import brainstate\nimport jax.numpy as jnp\n\n\ndef main():\n    {setting}\n"
            "    return jnp.zeros(3, dtype=jnp.float64)\n\n\nif __name__ == '__main__':\n    main()\n")
    assert bool([f for f in analyze(text, "m.py").findings if f.rule == "float64-without-x64"
                 and f.severity == "warning"]) is reported


def test_a_name_spelled_in_another_function_is_asked_again_by_each_version(tmp_path: Path) -> None:
    """The function-local rules' findings are kept per statement (rule_results.py): whether `_eig` can be called
    reads the other statements (a string naming it in `sweep`), so each version asks it again."""
    from sharpbits.analysis.incremental import IncrementalAnalysis
    from sharpbits.analysis.project_index import ProjectIndex

    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    path = pkg / "m.py"
    path.write_text(PRIVATE)
    index = ProjectIndex([tmp_path])
    document = IncrementalAnalysis(str(path), project=index)
    named = PRIVATE.replace("    return np.linalg.eigh(prop)", "    return globals()['_eig'](prop)")
    for text in (PRIVATE, named, PRIVATE):
        index.update(path, text, lazy=True)
        got = [(f.rule, f.line) for f in document.update(text).findings]
        assert got == [(f.rule, f.line) for f in analyze(text, str(path), project=index).findings]
        assert bool(got) is (text == named)


# ---- a key parameter handed on through two helpers -------------------------------------------------------------

RELAY = """def _draw(key, n):
    return jax.random.normal(key, (n, 3))


def sample(key, n, scale=1.0):
    return HANDED * scale


def initial_state(key, n):
    positions = sample(key, n)
    velocities = sample(key, n, scale=0.1)
    return positions, velocities
"""


@pytest.mark.parametrize("handed, reported", [
    ("_draw(key, n)", True),  # sample draws from its key through _draw: the two calls give the same numbers
    ("_draw(jax.random.key(0), n)", False),  # sample does not hand its key on: nothing is drawn from it
])
def test_a_key_parameter_handed_on_through_two_helpers(handed: str, reported: bool) -> None:
    found = [line for line, rule in _warnings(RELAY.replace("HANDED", handed)) if rule == "prng-key-reuse"]
    assert bool(found) is reported


def test_an_edit_that_stops_the_relay_walks_again() -> None:
    from sharpbits.analysis.incremental import IncrementalAnalysis

    versions = [HEAD + RELAY.replace("HANDED", h) for h in ("_draw(key, n)", "_draw(jax.random.key(0), n)",
                                                          "_draw(key, n)")]
    document = IncrementalAnalysis("m.py")
    for text in versions:
        got = [(f.rule, f.line) for f in document.update(text).findings]
        assert got == [(f.rule, f.line) for f in analyze(text, "m.py").findings]


def test_an_early_return_decided_by_another_function_is_asked_again() -> None:
    """`flag = debug()` then `if flag: return x` before `jax.jit(h)(x)`: whether the jit runs follows from `debug`,
    another statement, so the answer kept for `f`'s statement must not outlive an edit of `debug` (found by the
    traced-code reuse work: the kept answer said `h` was still traced)."""
    from sharpbits.analysis.incremental import IncrementalAnalysis

    text = ("def debug():\n    return RESULT\n\n\ndef h(x):\n    if x > 0:\n        return x\n    return -x\n\n\n"
            "def f(x):\n    flag = debug()\n    if flag:\n        return x\n    return jax.jit(h)(x)\n")
    document = IncrementalAnalysis("m.py")
    for result in ("False", "True", "False"):
        version = HEAD + text.replace("RESULT", result)
        got = document.update(version)
        fresh = analyze(version, "m.py")
        assert [(f.rule, f.line) for f in got.findings] == [(f.rule, f.line) for f in fresh.findings]
        assert [t.qualname for t in got.functions] == [t.qualname for t in fresh.functions]
