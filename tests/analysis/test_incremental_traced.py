"""What TracedCode keeps from one version of a document to the next (TracedParts, analysis/traced.py): the
functions each top-level statement's calls transform, what each traced function's code reaches, and what follows
from a function's trace sites. Every version's traced code (every function's trace sites, static and donated
parameters, compiled and abstract, and the rest TracedCode answers) is what a fresh build finds, over random edits
and over every line of a module whose statements trace each other's functions replaced by lines that change that;
the reuse happens; and each question a kept part asks of other statements is asked again (an edit elsewhere that
changes its answer gives what a fresh build gives)."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sharpbits.analysis.engine import analyze
from sharpbits.analysis.incremental import IncrementalAnalysis
from sharpbits.analysis.model import ModuleModel
from sharpbits.analysis.parsing import parse_module
from sharpbits.analysis.project_index import ProjectIndex
from sharpbits.analysis.reuse import Reusable
from sharpbits.analysis.traced import TracedParts

from tests.analysis.small_projects import no_shared_index  # noqa: F401 (autouse fixture)
from tests.analysis.test_incremental import BASES, EDIT, apply, summary

# top-level statements that trace each other's functions: by decorators and calls, through module-level names
# (a helper called by name, a partial bound once, an optax optimizer, a flag), through a method of a class, the
# instances a parameter is passed, a custom rule
ACROSS = '''import functools

import flax.linen as nn
import jax
import jax.numpy as jnp
import optax
from jax import lax

DEBUG = False
SCALE = 2.0


def helper(x):
    return jnp.sin(x) * SCALE


def loss(params, x):
    return jnp.sum(helper(params * x))


def body(carry, x):
    return carry + helper(x), x


@jax.jit
def step(params, x):
    grads = jax.grad(loss)(params, x)
    total, _ = lax.scan(body, 0.0, x)
    return params - 0.1 * grads, total


def make_schedule(count):
    return 0.1 / (1 + count)


opt = optax.sgd(learning_rate=make_schedule)


@jax.jit
def train(params, state, grads):
    updates, state = opt.update(grads, state)
    return updates, state


class Net:
    def __call__(self, x):
        if x.sum() > 0:
            return x
        return -x

    def run(self, x):
        return jax.jit(self.forward)(x)

    def forward(self, x):
        return self(x)


@jax.jit
def apply(model, x):
    return model(x)


def main(x):
    model = Net()
    y = apply(model, x)
    fast = jax.jit(loss, static_argnums=1)
    if DEBUG:
        jax.vmap(helper)(x)
    return fast(y, 3)


scaled = functools.partial(loss, x=1.0)


def use_partial(p):
    return jax.jit(scaled)(p)


@jax.custom_vjp
def clip(x):
    return x


def clip_fwd(x):
    return x, None


def clip_bwd(res, g):
    return (g,)


clip.defvjp(clip_fwd, clip_bwd)
linen_model = Net()


@jax.jit
def run_linen(variables, x):
    return linen_model.apply(variables, x)
'''

# lines that change what one statement's transformations or traced code reach in another
SNIPPETS = [
    "def helper(x):", "def helper2(x):", "helper = None", "SCALE = 3.0", "DEBUG = True", "raise SystemExit",
    "import numpy as jax", "from jax import numpy as lax", "scaled = functools.partial(helper, 1.0)", "scaled = 1",
    "opt = optax.sgd(learning_rate=0.1)", "opt = optax.adam(make_schedule)", "model = 3", "y = apply(x, x)",
    "return jax.jit(self.step)(x)", "class Net:", "def forward(self, x):", "def step(self, x):", "@jax.jit",
    "@functools.partial(jax.jit, static_argnums=0)", "return helper(x)", "return body(x, x)",
    "fast = jax.jit(helper, static_argnums=0)", "fast = jax.jit(loss, donate_argnums=0)", "def make_schedule(count):",
    "pass", "@clip.defjvp", "with jax.disable_jit():", "if x > 0:", "jax.vmap(helper)(x)", "return x",
    "def loss(params, x):", "@jax.vmap", "def Net(x):",
]


def where(node: ast.AST | None) -> tuple | None:
    if node is None:
        return None
    return (type(node).__name__, getattr(node, "lineno", None), getattr(node, "col_offset", None),
            getattr(node, "end_lineno", None), getattr(node, "end_col_offset", None))


def snapshot(model: ModuleModel) -> list:
    """Everything TracedCode says about each function, with nodes by position."""
    traced = model.traced
    out: list = [[where(call) for call in traced.transform_calls()],
                 [(f.qualname, f.node.lineno) for f in traced.traced_functions()]]
    for f in model.scopes.functions.values():
        sites = [(t.transform, t.static_argnums, t.static_argnames, where(t.node), t.donate_argnums, t.donate_argnames,
                  t.statics_unknown, t.unmapped_argnums, t.provenance, t.via, t.foreign_positions) for t in f.traces]
        residual = traced.residual_source(f)
        out.append((f.qualname, f.node.lineno, sites, sorted(f.static_params), sorted(f.donated_params), f.compiled,
                    f.abstract, traced.shows_values(f), traced.in_pallas_kernel(f), traced.optax_hooked(f),
                    [(caller.qualname, where(call)) for caller, call in traced.calls_from_traced(f)],
                    [g.qualname for g in traced.custom_rule_group(f)],
                    (residual[0].qualname, residual[1]) if residual is not None else None))
    return out


class Versions:
    """One document's versions, each parsed as IncrementalAnalysis parses it (the statements an edit left alone
    are the last version's) and modelled with what the last version's model kept."""

    def __init__(self) -> None:
        self.document = IncrementalAnalysis("m.py")
        self.reusable = Reusable()

    @property
    def memory(self) -> TracedParts:
        return self.reusable.traced

    def model(self, text: str) -> ModuleModel | None:
        tree = self.document.parse(text)
        return ModuleModel(tree, self.reusable) if isinstance(tree, ast.Module) else None


@functools.lru_cache(maxsize=64)
def fresh(text: str) -> list:
    """A fresh build's snapshot (kept for the texts tests build again and again: the bases)."""
    return snapshot(ModuleModel(parse_module(text)))


def assert_every_version_matches(base: str, edits: list) -> None:
    versions = Versions()
    history = [base]
    model = versions.model(base)
    assert model is not None and snapshot(model) == fresh(base)
    for edit in edits:
        history.append(apply(history, edit))
        model = versions.model(history[-1])
        if model is not None:
            assert snapshot(model) == fresh(history[-1]), edit


@settings(max_examples=60)
@given(base=st.sampled_from([ACROSS, *BASES]), edits=st.lists(EDIT, min_size=1, max_size=12))
def test_every_version_finds_what_a_fresh_build_finds(base, edits):
    assert_every_version_matches(base, edits)


@pytest.mark.parametrize("snippet", SNIPPETS)
def test_every_line_replaced_finds_what_a_fresh_build_finds(snippet):
    """Every line of ACROSS replaced by the snippet (at the line's indentation), then a line further down by the next
    snippet: the other statements are kept, and what they read of the replaced one changes."""
    lines = ACROSS.count("\n")
    following = SNIPPETS[(SNIPPETS.index(snippet) + 1) % len(SNIPPETS)]
    for at in range(lines):
        assert_every_version_matches(ACROSS, [("replace", at, snippet, 1), ("replace", (at + 7) % lines, following, 1)])


def traced_names(model: ModuleModel) -> set[str]:
    return {f.qualname for f in model.traced.traced_functions()}


def test_an_edit_inside_one_function_works_out_that_function_alone_again():
    versions = Versions()
    versions.model(ACROSS)
    memory = versions.memory
    assert memory.reused == 0
    first = memory.run
    text = ACROSS.replace("        return -x\n", "        return -2 * x\n")
    model = versions.model(text)
    assert model is not None and snapshot(model) == fresh(text)
    # worked out again: the class statement's calls (`jax.jit(self.forward)`), what `Net.__call__` and `Net.forward`
    # reach (new nodes: the class statement is new), what `apply` reaches (it calls the `Net()` its caller passes:
    # the method "Net.__call__" it asked for is another node now) and what `run_linen` reaches (the class `Net` of
    # `linen_model = Net()` is another node); of the 17 parts (4 statements' calls, what 13 traced functions
    # reach) the 12 others are taken again
    assert (first, memory.run - first, memory.reused) == (17, 5, 12)


def test_the_document_keeps_the_parts_across_versions():
    document = IncrementalAnalysis("m.py")
    document.update(ACROSS)
    memory = document.reusable.traced
    text = ACROSS.replace("    return x, None\n", "    return x, 1\n")
    assert summary(document.update(text)) == summary(analyze(text, "m.py"))
    assert memory.reused > 0 and memory.run > 0


def versions_of(base: str, *edits: tuple[str, str]) -> list[tuple[ModuleModel, list]]:
    """The models of `base` and of each edit (`old` replaced by `new`, one after the other, the line count kept),
    each with a fresh build's snapshot of the same text."""
    versions = Versions()
    text = base
    out = []
    for old, new in [("", ""), *edits]:
        if old:
            assert text.count(old) == 1 and old.count("\n") == new.count("\n")
            text = text.replace(old, new)
        model = versions.model(text)
        assert model is not None
        out.append((model, fresh(text)))
    return out


def reasons(model: ModuleModel) -> set[tuple[str, int, str]]:
    return {(f.qualname, f.node.lineno, t.reason) for f in model.traced.traced_functions() for t in f.traces}


@pytest.mark.parametrize(
    ("case", "old", "new", "gone", "added"),
    [
        # a module-level function a kept part resolves by name is now another one
        ("function", "def helper(x):\n", "def helper2(x):\n", {("helper", "called from traced `body`")}, set()),
        # a module-level name a kept part reads, bound once (a partial, an optimizer), is bound to something else
        ("constant", "scaled = functools.partial(loss, x=1.0)\n", "scaled = functools.partial(body, 1.0)\n",
         set(), {("body", "jax.jit")}),
        ("optax", "opt = optax.sgd(learning_rate=make_schedule)\n", "opt = optax.sgd(learning_rate=0.1)\n",
         {("make_schedule", "called from traced `train`")}, set()),
        # the values the module passes a traced function's parameter (the instance it calls) change elsewhere
        ("arguments", "    y = apply(model, x)\n", "    y = apply(x, x)\n",
         {("Net.__call__", "called from traced `apply`")}, set()),
        # a branch of a kept part is decided by a module-level flag
        ("never runs", "DEBUG = False\n", "DEBUG = True\n", set(), {("helper", "jax.vmap")}),
        # the module ends before the statements that transform: code after that never runs
        ("module exit", "SCALE = 2.0\n", "raise SystemExit\n", {("loss", "jax.grad"), ("body", "scan body")}, set()),
        # the imports: what `jax.jit` names
        ("imports", "import jax\n", "import numpy as jax\n", {("step", "jax.jit"), ("train", "jax.jit")}, set()),
        # a class of the same name defined above another: "Net.__call__" is now its method (the first of the
        # name wins), which `apply` calls on the `Net()` that `main` passes it
        ("method", "def make_schedule(count):\n    return 0.1 / (1 + count)\n",
         "class Net:\n    def __call__(self, x): return x\n",
         {("Net.__call__", "called from traced `apply`")}, {("Net.__call__", "called from traced `apply`")}),
    ],
)
def test_an_answer_another_statement_changes_is_asked_again(case, old, new, gone, added):
    (first, first_fresh), (second, second_fresh) = versions_of(ACROSS, (old, new))
    assert snapshot(first) == first_fresh and snapshot(second) == second_fresh, case
    before, after = reasons(first), reasons(second)
    assert gone <= {(q, r) for q, _, r in before - after}, case
    assert added <= {(q, r) for q, _, r in after - before}, case


def test_a_class_of_the_name_defined_again_is_asked_for_again():
    """`linen_model.apply(...)` runs `Net.__call__` once the class `Net` (the last of the name) is a linen module."""
    (first, _), (second, second_fresh) = versions_of(
        ACROSS, ("def clip_fwd(x):\n    return x, None\n", "class Net(nn.Module):\n    pass\n"))
    assert snapshot(second) == second_fresh

    def callers(model: ModuleModel) -> list[str]:
        call = next(f for f in model.scopes.functions.values() if f.qualname == "Net.__call__")
        return [caller.name for caller, _ in model.traced.calls_from_traced(call)]

    assert callers(first) == ["apply"] and sorted(callers(second)) == ["apply", "run_linen"]


def test_static_arguments_given_in_another_statement_are_found_again():
    (first, _), (second, second_fresh) = versions_of(
        ACROSS, ("    fast = jax.jit(loss, static_argnums=1)\n", "    fast = jax.jit(loss, donate_argnums=0)\n"))
    assert snapshot(second) == second_fresh
    loss_before = next(f for f in first.scopes.functions.values() if f.name == "loss")
    loss_after = next(f for f in second.scopes.functions.values() if f.name == "loss")
    assert loss_before.static_params == {"x"} and loss_after.static_params == set()


def test_a_decorator_over_another_one_is_found_in_order():
    """`@jax.jit` over a decorator of the module traces the decorator's wrapper: found by the loop over every
    function, in their order, as a fresh build does."""
    base = ACROSS + '''

def logged(fn):
    def wrapper(*args):
        return fn(*args)
    return wrapper


@jax.jit
@logged
def wrapped(x):
    return x
'''
    (first, first_fresh), (second, second_fresh) = versions_of(base, ("        return -x\n", "        return -3 * x\n"))
    assert snapshot(first) == first_fresh and snapshot(second) == second_fresh
    assert "logged.wrapper" in traced_names(second)


# a private module whose module-level transformation alias nothing calls (test_transform_alias_nothing_calls.py)
IMPL = '''import jax


def down(bdry, n_a: int, n_b: int):
    return [bdry[0][:n_a], bdry[1][n_b:]]


def down_pass(bdry, tree):
    return [down(bdry, n_a=a, n_b=b) for a, b in tree]


vmapped_down = jax.vmap(down, in_axes=(0,), out_axes=0)
'''


def test_whether_another_file_calls_an_alias_is_asked_again(tmp_path: Path):
    """Another file of the project starts calling the alias between two versions, typed elsewhere in the module:
    the kept part that found the alias called by nothing asks again, and `down` is traced."""
    package = tmp_path / "pkg"
    package.mkdir()
    files = {"__init__.py": "", "_impl.py": IMPL, "api.py": "from pkg._impl import down_pass\n"}
    for name, text in files.items():
        (package / name).write_text(text)
    index = ProjectIndex()
    for path in package.glob("*.py"):
        index.update(path, path.read_text())
    target = str(package / "_impl.py")
    document = IncrementalAnalysis(target, project=index)
    first = document.update(IMPL)
    assert summary(first) == summary(analyze(IMPL, target, project=index))
    assert not any(f.rule == "dynamic-shape" for f in first.findings)
    api = "from pkg._impl import vmapped_down\n\n\ndef run(b, n):\n    return vmapped_down(b, n_a=n, n_b=n)\n"
    (package / "api.py").write_text(api)
    index.update(package / "api.py", api)
    text = IMPL.replace("    return [down(bdry", "    return [down(bdry ")
    second = document.update(text)
    assert summary(second) == summary(analyze(text, target, project=index))
    assert any(f.rule == "dynamic-shape" for f in second.findings)
