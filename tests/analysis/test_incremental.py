"""IncrementalAnalysis gives exactly what a from-scratch `analyze` gives, version after version: checked over
random edit sequences (typing one character, inserting and deleting lines inside and between functions, undo
to an earlier version), with hypothesis' fixed seed (tests/conftest.py)."""

import ast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sharpbits.analysis.engine import AnalysisResult, Selection, analyze
from sharpbits.analysis.incremental import DocumentAnalyses, IncrementalAnalysis
from sharpbits.analysis.rules.prng_key_reuse.key_flow import KeyFlow
from sharpbits.analysis.rules.prng_key_reuse.reuse import KeyWalks

from tests.conftest import ROOT

BASES = [p.read_text() for p in sorted((ROOT / "examples").glob("*.py"))]

HELPER_AND_CALLERS = '''import jax
import jax.numpy as jnp


def make(x):
    return jnp.asarray(x)


def use(x):
    y = make(x)
    y[0] = 1.0
    return y


def other(x):
    z = jnp.zeros(3)
    z[1] = x
    return z
'''


TRACED_AND_HELPER = '''import jax
import jax.numpy as jnp


@jax.jit
def traced(x):
    return helper(x)


def helper(v):
    if v > 0:
        return v
    return -v
'''


KEYS_AND_HELPERS = '''import jax
import dataclasses


def draw(key, x):
    return jax.random.normal(key, x.shape) + x


def maybe(key, flag):
    if flag:
        return jax.random.normal(key, ())
    return 0.0


@dataclasses.dataclass
class State:
    key: jax.Array


def train(key, x):
    a = draw(key, x)
    b = draw(key, x)
    return a + b


def careful(key, x):
    k1, k2 = jax.random.split(key)
    s = State(key)
    m = maybe(key, True)
    return draw(k1, x), draw(k2, x), s, m


def make_key(seed):
    return jax.random.PRNGKey(seed)


class Sampler:
    def sample(self, key):
        return jax.random.normal(key, ())

    def run(self, seed):
        k = make_key(seed)
        a = self.sample(k)
        b = self.sample(k)
        return a + b + jax.random.normal(jax.random.PRNGKey(1), ())
'''

# the function-local rules (Rule.reuse = "function": rule_results.py) in functions that learn from each other: a
# helper traced because a traced function calls it, a loop bound passed by a caller, a function also run
# eagerly, a module-level constant a `global` elsewhere makes variable
LOCAL_RULES_ACROSS = '''import jax
import jax.numpy as jnp

N = 3


@jax.jit
def step(x, n):
    for i in range(n):
        x = x + helper(x)
    print(x)
    if x > 0:
        x = -x
    return float(x)


def helper(v):
    print(v)
    if v.sum() > 0:
        return v[v > 0]
    return v


def driver(x):
    y = jnp.asarray(x)
    y[0] = 1.0
    return step(y, N)


class Model:
    def __init__(self):
        self.w = jnp.zeros(3)

    def apply(self, x):
        self.w[0] = x
        return self.w
'''

# modules whose functions depend on each other (a helper's return kind, the kinds a traced caller passes, the
# keys a helper consumes)
BASES += [HELPER_AND_CALLERS, TRACED_AND_HELPER, KEYS_AND_HELPERS, LOCAL_RULES_ACROSS]

# Lines that change what the rules see: keys drawn and reused, arrays written in place, globals that change,
# imports and aliases, decorators that make a function traced, suppressions, loops.
SNIPPETS = [
    "key = jax.random.PRNGKey(0)", "a = jax.random.normal(key, (3,))", "b = jax.random.uniform(key)",
    "y = jnp.zeros(3)", "y[0] = 1.0", "y = y.at[0].set(1.0)", "global SCALE", "SCALE = 2.0",
    "import numpy as jnp", "from jax import numpy as jnp", "@jax.jit", "for i in range(10):", "    pass",
    "x = x[x > 0]", "return x", "pass", "z = x  # noqa", "def helper(x):", "    return jnp.sum(x)",
    "helper = jax.jit(helper)", "if x > 0:", "while True:", "class Model:", "from __future__ import annotations",
    "a = 1; b = 2", "x = '''", "else:",
    # what one function learns from another: a helper's return kind, the kinds its callers pass, `self.w`
    "return helper(x)", "y = helper(3)", "return list(x)", "return jnp.asarray(x)", "self.w = jnp.zeros(3)",
    "y = self.w",
]

EDIT = st.one_of(
    st.tuples(st.just("insert"), st.integers(0, 10_000), st.sampled_from(SNIPPETS), st.integers(0, 2)),
    st.tuples(st.just("delete"), st.integers(0, 10_000)),
    # a line replaced by another keeps the line count: the parse, walks and flows of the rest are reused
    st.tuples(st.just("replace"), st.integers(0, 10_000), st.sampled_from(SNIPPETS), st.integers(0, 2)),
    st.tuples(st.just("type"), st.integers(0, 100_000), st.sampled_from(list("x(): =[]0#\n"))),
    st.tuples(st.just("undo"), st.integers(1, 4)),
)


def apply(history: list[str], edit: tuple) -> str:
    text = history[-1]
    lines = text.splitlines(keepends=True) or [""]
    if edit[0] in ("insert", "replace"):
        _, at, snippet, indent_level = edit
        at %= len(lines) + 1
        near = lines[min(at, len(lines) - 1)]
        indent = near[: len(near) - len(near.lstrip())] if indent_level == 1 else "    " * indent_level
        if edit[0] == "replace":
            at = min(at, len(lines) - 1)
            return "".join([*lines[:at], indent + snippet + "\n", *lines[at + 1 :]])
        return "".join([*lines[:at], indent + snippet + "\n", *lines[at:]])
    if edit[0] == "delete":
        at = edit[1] % len(lines)
        return "".join(lines[:at] + lines[at + 1 :])
    if edit[0] == "type":
        at = edit[1] % (len(text) + 1)
        return text[:at] + edit[2] + text[at:]
    return history[-1 - min(edit[1], len(history) - 1)]


def summary(result: AnalysisResult) -> tuple:
    findings = [(f.to_json(with_fix=False), f.fixable, f.fix_title) for f in result.findings]
    error = result.syntax_error.to_json(with_fix=False) if result.syntax_error else None
    return findings, error, result.functions


def assert_every_version_matches(base: str, edits: list) -> None:
    """Type `edits` into one document opened at `base`: each version's incremental result is a fresh analysis's."""
    document = IncrementalAnalysis("m.py")
    history = [base]
    assert summary(document.update(base)) == summary(analyze(base, "m.py"))
    for edit in edits:
        history.append(apply(history, edit))
        assert summary(document.update(history[-1])) == summary(analyze(history[-1], "m.py"))


@settings(max_examples=40)
@given(base=st.sampled_from(BASES), edits=st.lists(EDIT, min_size=1, max_size=12))
def test_every_version_gets_what_a_fresh_analysis_gets(base, edits):
    assert_every_version_matches(base, edits)


# Lines that change what one function learns from another, for the modules above: a line of a function replaced
# by one of these (at its indentation) keeps every other statement, so their walks and flows are reused.
CROSS_SNIPPETS = ["return helper(x)", "return helper(3)", "return helper(x > 0)", "y = make(x)", "y = make(3)",
                  "return list(x)", "return jnp.asarray(x)", "return x", "y[0] = 1.0", "z[1] = make(x)",
                  "import numpy as jnp", "def make(x):", "def helper(v):", "pass",
                  # what a helper consumes, and what kind a key is
                  "return jax.random.normal(key, ())", "k1 = jax.random.fold_in(key, 1)", "def draw(key, x):",
                  "key = jax.random.PRNGKey(0)", "key = 0", "def State(key):", "import jax.random as jax",
                  "return seed", "return 0.0",
                  # what the function-local rules learn from other functions
                  "@jax.jit", "return step(x, 4)", "global N", "N = 10", "x = step", "helper = jax.jit(helper)",
                  "for i in range(N):", "print(v)", "return helper(jnp.ones(3))", "def step(x, n):", "y = x"]
@pytest.mark.parametrize("base", [HELPER_AND_CALLERS, TRACED_AND_HELPER, KEYS_AND_HELPERS, LOCAL_RULES_ACROSS],
                         ids=["returns", "arguments", "keys", "local-rules"])
@pytest.mark.parametrize("snippet", CROSS_SNIPPETS)
def test_functions_that_depend_on_each_other_get_what_a_fresh_analysis_gets(base, snippet):
    """Every line replaced by the snippet (at the line's indentation), then a second line by the next snippet:
    every version gets what a fresh analysis gets."""
    lines = base.count("\n")
    following = CROSS_SNIPPETS[(CROSS_SNIPPETS.index(snippet) + 1) % len(CROSS_SNIPPETS)]
    for at in range(lines):
        document = IncrementalAnalysis("m.py")
        history = [base]
        document.update(base)
        for edit in (("replace", at, snippet, 1), ("replace", (at + 5) % lines, following, 1)):
            history.append(apply(history, edit))
            assert summary(document.update(history[-1])) == summary(analyze(history[-1], "m.py")), (at, edit)

def parsed(text: str) -> str:
    try:
        return ast.dump(ast.parse(text), include_attributes=True)
    except (SyntaxError, ValueError) as exc:
        return type(exc).__name__


@settings(max_examples=60)
@given(base=st.sampled_from(BASES), edits=st.lists(EDIT, min_size=1, max_size=12))
def test_every_reused_parse_is_what_ast_parse_gives(base, edits):
    document = IncrementalAnalysis("m.py")
    history = [base]
    document.parse(base)
    for edit in edits:
        history.append(apply(history, edit))
        tree = document.parse(history[-1])
        mine = ast.dump(tree, include_attributes=True) if isinstance(tree, ast.Module) else type(tree).__name__
        assert mine == parsed(history[-1])


def test_typing_inside_a_function_parses_only_that_function():
    base = BASES[0]
    lines = base.splitlines(keepends=True)
    inside = next(i for i, line in enumerate(lines) if line.startswith("def ")) + 1
    document = IncrementalAnalysis("m.py")
    document.update(base)
    for typed in ("    z = 1\n", "    z = 12\n", "    z = x[x > 0]\n"):
        text = "".join([*lines[:inside], typed, *lines[inside + 1 :]])
        assert summary(document.update(text)) == summary(analyze(text, "m.py"))
    assert document.reused_parses == 3


def test_a_version_seen_again_is_answered_without_analysis():
    document = IncrementalAnalysis("m.py")
    first = document.update(BASES[0])
    document.update(BASES[0] + "\nx = 1\n")
    assert document.update(BASES[0]) is first and document.reused_results == 1


def test_new_settings_are_never_answered_from_old_results():
    document = IncrementalAnalysis("m.py")
    before = document.update(BASES[0])
    assert before.findings
    document.reconfigure(Selection(select=frozenset()))
    assert document.update(BASES[0]).findings == [] and document.reused_results == 0


def test_settings_passed_with_a_version_replace_the_old_ones():
    documents = DocumentAnalyses()
    everything = documents.update("file:///m.py", "m.py", BASES[0])
    nothing = documents.update("file:///m.py", "m.py", BASES[0], Selection(select=frozenset()))
    assert everything.findings and nothing.findings == []
    assert summary(documents.update("file:///m.py", "m.py", BASES[0], Selection())) == summary(everything)
    documents.close("file:///m.py")
    assert documents.update("file:///m.py", "m.py", BASES[0]) is not everything


def with_fixes(result: AnalysisResult) -> list:
    return [f.to_json(with_fix=True) for f in result.findings]


@settings(max_examples=12)
@given(base=st.sampled_from(BASES), edits=st.lists(EDIT, min_size=1, max_size=6))
def test_every_version_gets_the_fixes_a_fresh_analysis_gets(base, edits):
    """Findings taken from an earlier version (rule_results.py) carry the fix a fresh analysis builds."""
    document = IncrementalAnalysis("m.py")
    history = [base]
    document.update(base)
    for edit in edits:
        history.append(apply(history, edit))
        assert with_fixes(document.update(history[-1])) == with_fixes(analyze(history[-1], "m.py"))


def test_an_edit_inside_one_function_runs_the_function_local_rules_there_only():
    """Typing in `Model.apply`: the function-local rules run on the class alone, the findings of `step`, `helper`
    and `driver` (fixes included) are the last version's, and the result is a fresh analysis's. (Typing in
    `driver` runs them on `step` too: `driver` calls it, and what it passes is what `step` loops over.)"""
    document = IncrementalAnalysis("m.py")
    document.update(LOCAL_RULES_ACROSS)
    text = replaced(LOCAL_RULES_ACROSS, "        self.w[0] = x\n", "        self.w[1] = x\n")
    result = document.update(text)
    fresh = analyze(text, "m.py")
    assert summary(result) == summary(fresh) and with_fixes(result) == with_fixes(fresh)
    rules = document.rule_results
    assert rules.rerun_statements == 1
    assert rules.reused_statements == len(ast.parse(text).body) - 1
    assert {f.rule for f in result.findings} >= {"print-in-jit", "traced-control-flow", "host-conversion-in-jit",
                                                  "in-place-update", "python-loop-in-jit"}


def test_an_edit_that_changes_what_a_function_local_rule_reads_elsewhere_runs_it_there_again():
    """`step` stops calling `helper`: `helper` is no longer traced, its findings go (its statement ran again),
    though its text did not change."""
    document = IncrementalAnalysis("m.py")
    before = document.update(LOCAL_RULES_ACROSS)
    assert any(f.rule == "print-in-jit" and f.line == 18 for f in before.findings)  # helper's print(v)
    text = replaced(LOCAL_RULES_ACROSS, "        x = x + helper(x)\n", "        x = x + 1\n")
    result = document.update(text)
    assert summary(result) == summary(analyze(text, "m.py"))
    assert not any(f.rule == "print-in-jit" and f.line == 18 for f in result.findings)
    assert document.rule_results.rerun_statements >= 2


def key_walks(document: IncrementalAnalysis) -> KeyWalks:
    """prng-key-reuse's key-flow memory of the document (its Fact.Memory)."""
    walks = document.reusable.memory_of(KeyFlow)
    assert isinstance(walks, KeyWalks)
    return walks


def replaced(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1
    return text.replace(old, new)


def test_an_edit_inside_one_function_reuses_the_others_walks_and_flows():
    document = IncrementalAnalysis("m.py")
    document.update(HELPER_AND_CALLERS)
    walks, flows = document.reusable.walks, document.reusable.flows
    text = replaced(HELPER_AND_CALLERS, "    z[1] = x\n", "    z[2] = x\n")
    result = document.update(text)
    assert summary(result) == summary(analyze(text, "m.py"))
    statements = len(ast.parse(text).body)
    assert walks.reused == statements - 1  # every statement but `other` walked from the last version
    assert (flows.reused, flows.run) == (2, 3 + 1)  # `make` and `use` taken again, `other` run again


def test_a_helper_that_returns_something_else_runs_its_callers_again():
    document = IncrementalAnalysis("m.py")
    before = document.update(HELPER_AND_CALLERS)
    assert [f.line for f in before.findings if f.rule == "in-place-update"] == [11, 17]
    flows = document.reusable.flows
    text = replaced(HELPER_AND_CALLERS, "    return jnp.asarray(x)\n", "    return list(x)\n")
    after = document.update(text)
    assert summary(after) == summary(analyze(text, "m.py"))
    assert [f.line for f in after.findings if f.rule == "in-place-update"] == [17]  # `use` now holds a list
    assert (flows.reused, flows.run) == (1, 3 + 2)  # `other` taken again; `make` and its caller `use` run again


def test_a_module_level_change_runs_every_flow_again():
    document = IncrementalAnalysis("m.py")
    document.update(HELPER_AND_CALLERS)
    flows = document.reusable.flows
    text = replaced(HELPER_AND_CALLERS, "import jax.numpy as jnp\n", "import numpy as jnp\n")
    assert summary(document.update(text)) == summary(analyze(text, "m.py"))
    assert flows.reused == 0


def test_a_helper_whose_callers_pass_other_kinds_runs_again():
    document = IncrementalAnalysis("m.py")
    before = document.update(TRACED_AND_HELPER)
    assert [(f.line, f.rule) for f in before.findings] == [(11, "traced-control-flow")]  # `v` is traced
    flows = document.reusable.flows
    text = replaced(TRACED_AND_HELPER, "    return helper(x)\n", "    return helper(3)\n")
    after = document.update(text)
    assert summary(after) == summary(analyze(text, "m.py")) and after.findings == []  # `v` is now 3
    assert flows.reused == 0  # `helper` did not change, but its parameter's kind did


def test_an_edit_inside_one_function_reuses_the_others_key_walks():
    document = IncrementalAnalysis("m.py")
    before = document.update(KEYS_AND_HELPERS)
    keys = key_walks(document)
    assert (keys.reused, keys.run) == (0, 7)  # draw, maybe, train, careful, make_key, Sampler.sample, .run
    text = replaced(KEYS_AND_HELPERS, "    m = maybe(key, True)\n", "    m = maybe(k1, True)\n")
    after = document.update(text)
    assert summary(after) == summary(analyze(text, "m.py"))
    assert [f.line for f in before.findings] == [22, 29, 44] and [f.line for f in after.findings] == [22, 30, 44]
    assert (keys.reused, keys.run) == (6, 7 + 1)  # only `careful` walked again


def test_a_helper_that_stops_consuming_its_key_walks_every_function_again():
    document = IncrementalAnalysis("m.py")
    document.update(KEYS_AND_HELPERS)
    keys = key_walks(document)
    text = replaced(KEYS_AND_HELPERS, "    return jax.random.normal(key, x.shape) + x\n", "    return x\n")
    after = document.update(text)
    assert summary(after) == summary(analyze(text, "m.py"))
    assert [f.line for f in after.findings] == [29, 44]  # `train` no longer consumes `key` through `draw`
    # which module functions always consume a key argument changed (`draw` no longer does), which every walk
    # reads: the five functions still drawing are walked again, none is taken from the last version
    assert (keys.reused, keys.run) == (0, 7 + 5)


# Edits outside a function that change only what the key flow read for it (walks of 7 functions before): which
# functions always consume a key argument, the kinds its own flow recorded, what a call in it may consume, the
# imports; or nothing it read. The walks whose inputs changed run again, the others are taken again.
KEY_FLOW_INPUT_EDITS = [
    # `Sampler.sample` no longer draws: the set of always-consuming functions, read by every walk, changed
    ("        return jax.random.normal(key, ())\n\n    def run", "        return key\n\n    def run", (0, 6)),
    # `make_key` returns a seed: only `Sampler.run`'s flow records another kind for `k`
    ("    return jax.random.PRNGKey(seed)\n", "    return seed\n", (5, 1)),
    # `maybe` (not always consuming) no longer draws: only `careful`, which calls it, asks again and differs
    ("        return jax.random.normal(key, ())\n    return 0.0\n", "        return key\n    return 0.0\n", (5, 1)),
    # a class annotation no walk reads
    ("    key: jax.Array\n", "    key: int\n", (7, 0)),
    # the imports, read by every walk
    ("import dataclasses\n", "import dataclasses as dc\n", (0, 7)),
]


@pytest.mark.parametrize(("old", "new", "walks"), KEY_FLOW_INPUT_EDITS,
                         ids=["always-consumed", "flow-kinds", "argument-uses", "nothing-read", "imports"])
def test_an_edit_changing_only_what_the_key_flow_read_walks_exactly_those_functions_again(old, new, walks):
    document = IncrementalAnalysis("m.py")
    document.update(KEYS_AND_HELPERS)
    keys = key_walks(document)
    keys.reused = keys.run = 0
    text = replaced(KEYS_AND_HELPERS, old, new)
    assert summary(document.update(text)) == summary(analyze(text, "m.py"))
    assert (keys.reused, keys.run) == walks


def test_what_a_function_says_about_keys_is_asked_again_when_the_imports_change():
    """`jr` is NumPy's random module, then JAX's: the same function now draws from a key twice."""
    base = "import jax\nimport numpy.random as jr\n\n\ndef f(key):\n    a = jr.normal(key, ())\n" \
           "    b = jr.normal(key, ())\n    return a + b\n"
    document = IncrementalAnalysis("m.py")
    assert document.update(base).findings == []
    text = replaced(base, "import numpy.random as jr\n", "import jax.random as jr\n")
    after = document.update(text)
    assert summary(after) == summary(analyze(text, "m.py"))
    assert [(f.line, f.rule) for f in after.findings] == [(7, "prng-key-reuse")]


LOOP_BODIES = ("import jax\nimport numpy as L\n\n\ndef body(i, carry):\n    key, x = carry\n"
               "    x = x + jax.random.normal(key, ())\n    return key, x\n\n\n"
               "def run(key, x):\n    return L.fori_loop(0, 3, body, (key, x))\n\n\n"
               "def inner(i, x):\n    return x + jax.random.normal(jax.random.key(0), ())\n\n\n"
               "def run2(x):\n    return L.fori_loop(0, 3, inner, x)\n\n\n"
               "def step(i, carry):\n    key, x = carry\n    x = x + jax.random.normal(key, ())\n    return key, x\n\n\n"
               "def again(key, x):\n    carry = (key, x)\n    for i in range(3):\n        other = step(i, carry)\n"
               "    return carry\n")


def test_the_calls_that_run_a_loop_body_are_found_again_when_the_imports_or_the_loop_change():
    """The calls that may run a loop body are kept per statement (KeyFlow.loop_calls): `L` becomes `jax.lax`
    (the unchanged `run` and `run2` now run their bodies in a loop), then a Python loop's call becomes
    `carry = body(i, carry)` (the carried key is read again on every iteration)."""
    document = IncrementalAnalysis("m.py")
    assert document.update(LOOP_BODIES).findings == []
    text = replaced(LOOP_BODIES, "import numpy as L\n", "from jax import lax as L\n")
    after = document.update(text)
    assert summary(after) == summary(analyze(text, "m.py"))
    assert [(f.line, f.rule) for f in after.findings] == [(7, "prng-key-reuse"), (16, "prng-key-reuse")]
    assert "fori_loop" in after.findings[0].message and "fori_loop" in after.findings[1].message
    text = replaced(text, "        other = step(i, carry)\n", "        carry = step(i, carry)\n")
    after = document.update(text)
    assert summary(after) == summary(analyze(text, "m.py"))
    assert document.reused_parses == 2
    assert [(f.line, f.rule) for f in after.findings] == [(7, "prng-key-reuse"), (16, "prng-key-reuse"),
                                                          (25, "prng-key-reuse")]


def test_a_new_line_parses_again_from_the_statement_it_is_in():
    document = IncrementalAnalysis("m.py")
    document.update(HELPER_AND_CALLERS)
    text = replaced(HELPER_AND_CALLERS, "    y[0] = 1.0\n", "    y[0] = 1.0\n    y[1] = 2.0\n")
    assert summary(document.update(text)) == summary(analyze(text, "m.py"))
    assert document.reused_parses == 1
    assert document.reusable.walks.reused == 3  # the two imports and `make`: `use` and `other` moved down
    text = text + "\n\ndef more(x):\n    return x\n"  # lines added after the last statement
    assert summary(document.update(text)) == summary(analyze(text, "m.py"))
    assert document.reused_parses == 2 and document.reusable.walks.reused == 3 + 5


def test_an_unfilled_copy_of_a_function_is_what_the_walk_makes():
    """The walk of a statement taken from the last version gives new FunctionInfos (the later phases fill them
    in); `unfilled_copy` must give every field the constructor gives, whatever fields FunctionInfo gains."""
    import dataclasses

    from sharpbits.analysis.model import ModuleModel

    model = ModuleModel(ast.parse(HELPER_AND_CALLERS.replace("def use(x):", "@jax.jit\ndef use(x):")))
    used = next(f for f in model.scopes.functions.values() if f.name == "use")
    assert used.traces and used.param_kinds  # filled in by the later phases: the copy must not carry them
    copy = used.unfilled_copy(None)
    fresh = type(used)(used.node, used.name, used.qualname, None, used.params, used.param_nodes,
                       local_names=used.local_names, outer_names=used.outer_names)
    assert [f.name for f in dataclasses.fields(copy)] == list(vars(copy))
    assert copy == fresh


@settings(max_examples=40)
@given(base=st.sampled_from(BASES), edits=st.lists(EDIT, min_size=1, max_size=12))
def test_the_indexes_of_a_reused_walk_are_what_a_fresh_walk_builds(base, edits):
    """Parents, owners, nodes by type and each scope's nodes, copied from the last version and changed only where
    statements were added or dropped, are exactly those of a fresh walk over the same tree."""
    from sharpbits.analysis.model import ModuleModel
    from sharpbits.analysis.reuse import Reusable

    document = IncrementalAnalysis("m.py")
    reusable = Reusable()
    history = [base]
    for edit in [None, *edits]:
        if edit is not None:
            history.append(apply(history, edit))
        tree = document.parse(history[-1])
        if not isinstance(tree, ast.Module):
            continue
        try:
            reused, fresh = ModuleModel(tree, reusable), ModuleModel(tree)
        except RecursionError:
            continue
        assert reused.scopes.parents == fresh.scopes.parents and reused.scopes.owner == fresh.scopes.owner
        assert reused.scopes.by_type == fresh.scopes.by_type
        for types in [(ast.Assign, ast.AugAssign), (ast.Subscript,), (ast.Call, ast.Name, ast.FunctionDef)]:
            assert reused.scopes.candidates("any of " + str(types), types, _any_node) == fresh.scopes.candidates(
                "any of " + str(types), types, _any_node) == fresh.scopes.nodes(*types)
        assert {info.node if info else None: reused.scopes.own_nodes(info) for info in [None, *reused.scopes.functions.values()]} == {
            info.node if info else None: fresh.scopes.own_nodes(info) for info in [None, *fresh.scopes.functions.values()]}


def _any_node(node: ast.AST) -> bool:
    return True
