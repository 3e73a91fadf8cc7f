"""The project index: each module's functions summarised once, read statically, never imported or run.

A rule that meets a call into another module of the project (or into an installed package) asks the index what
the callee does with each parameter, through the module's model (`model.project`, a `ProjectView`): whether a
PRNG key handed to it is *drawn* from (a `jax.random` sampler), *split*, *derived* from (`fold_in`), *stored*
(on `self`, in a container), *returned*, *ignored* (`del key`, never read, only logged or formatted, stored on
`self` and never read), or handed on to another function (*call*), whose summary is asked in turn. From these
`consumption()` says whether the function consumes the key on every path ("always"), on some ("maybe"), or never
(None). A callee the index cannot see (no source on disk, a decorator it cannot see through, a method of an
object of unknown type) is not answered: the rule treats the call as it did without the index.

Classes are summarised too: their methods, and their *key generators*: a property or method that splits a key
kept on `self`, stores one half back and returns the other (fjformer's `GenerateRNG.rng`, `hk.PRNGSequence`'s
`__next__`, a project's own equivalent), recognised by what it does rather than by its name. Each read of such a
property is a fresh key.

Summaries are built from `ast` alone, one module at a time (`summarise`), and kept by path with the digest of the
text they were built from: `update(path, text)` rebuilds one module's summary when its text changed (the
language server feeds it every changed document). Modules are found on the project's roots (the folders above
its top-level packages) and, for installed packages, through the interpreter's search path with
`importlib.machinery.PathFinder`, which looks for files and executes nothing; they are read when first asked
about (lazily), never written.
"""

from __future__ import annotations

import ast
import builtins
import dataclasses
import hashlib
import os
import re
import sys
import threading
import warnings
from collections.abc import Callable, Iterable, Iterator, MutableMapping
from dataclasses import dataclass, field
from importlib.machinery import PathFinder
from pathlib import Path
from typing import Protocol

from sharpbits.analysis.parsing import parse_module
from sharpbits.analysis.syntax import CHILD_FIELDS, child_fields_of, through_partial, walk_nodes
from sharpbits.analysis.x64_flag import facts_of_tree

# Packages whose functions the rules know by name (or that never see a key): never read from disk.
_NOT_INDEXED = {"jax", "jaxlib", "numpy", "scipy", "builtins", "typing", "typing_extensions", "torch",
                "tensorflow", "absl", "pytest", "unittest", *getattr(sys, "stdlib_module_names", ())}
_MAX_BYTES = 2_000_000  # a larger file is left unread (generated code)
_MAX_FILES = 5_000  # a project with more files under its roots is not searched for subclasses
_SKIPPED_FOLDERS = {"site-packages", "node_modules", "__pycache__", "venv", "env", "build", "dist"}

# jax.random functions that take a key without consuming it
_RANDOM_KEEPING = {"key", "PRNGKey", "key_data", "wrap_key_data", "key_impl", "clone"}
# calls that only look at, print or format a value
_LOOKING = {"print", "isinstance", "len", "type", "repr", "str", "id", "hash", "getattr", "hasattr", "format",
            "jax.debug.print",
            "jax.numpy.shape", "jax.numpy.ndim", "jax.numpy.size", "jax.device_get", "jax.block_until_ready",
            "jax.random.key_data"}
_LOGGING_METHODS = {"debug", "info", "warning", "warn", "error", "exception", "critical", "log", "format", "write"}
_SAVING_VERBS = {"save", "dump", "dumps", "serialize", "persist", "store", "write", "savez"}
_STORING_METHODS = {"append", "extend", "insert", "add", "appendleft", "put", "setdefault", "update"}
# decorators a call goes through unchanged (as far as the arguments go)
_TRANSPARENT = {"jit", "filter_jit", "pjit", "staticmethod", "classmethod", "property", "cached_property",
                "named_call", "remat", "checkpoint", "wraps", "lru_cache", "cache", "abstractmethod", "override",
                "compact", "nowrap", "named_scope", "transparent", "inline"}
_FRESH_ACCESSORS = {"__next__", "__call__", "next"}


# an object whose construction a caller saw: (its class, keywords given to the constructor, positional count)
# and, for a parameter given a dict/list/tuple display of constructions (`Multi({"a": A(), "b": B()})`), the
# classes of its elements
Built = tuple[str, frozenset[str], int, tuple[tuple[str, tuple[str, ...]], ...]] | None
# the roots of libraries whose base classes assign no attribute of a subclass's object
_ASSIGNING_NO_ATTRIBUTE = ("abc", "typing", "typing_extensions", "builtins")


@dataclass(frozen=True)
class CallSite:
    """A parameter handed on to another function: `target` is its qualified name (`pkg.mod.f`,
    `pkg.mod.Class.method`), `self.NAME` for a method of the same class, or None when unknown."""

    target: str | None
    position: int | None
    keyword: str | None
    always: bool  # on every path through the function
    # the other arguments the call is known to give a value that is not None: (the callee's parameter, by keyword
    # or as "#<position>", and "value" or "param:<name>": the caller's own parameter, handed on unchanged), for a
    # callee that draws from its key only while another parameter is None (ParamSummary.only_without)
    passes: tuple[tuple[str, str], ...] = ()


_ASKING = frozenset({"isinstance", "issubclass", "type", "hasattr", "callable", "len"})
STAR = "*"  # the name `FunctionSummary.param` and `ProjectIndex.consumption` give a function's `*args` parameter


@dataclass(frozen=True)
class ParamSummary:
    name: str
    uses: frozenset[str]  # draw, split, derive, store, return, ignore, call (see the module docstring)
    direct: str | None  # "always"/"maybe": consumed by the function itself (a draw, a split, an unknown call)
    calls: tuple[CallSite, ...] = ()  # handed to functions the index may know
    # another parameter whose `None` every read that may consume the key waits for (`if net is None: net =
    # Net(key=key)`, `net if net is not None else Net(key=key)`): a caller that gives it a value draws nothing
    only_without: str | None = None


@dataclass(frozen=True)
class FunctionSummary:
    module: str
    qualname: str  # `f` or `Class.method`
    positional: tuple[str, ...]  # positional parameters, without `self`/`cls` of a method
    params: tuple[ParamSummary, ...]
    opaque: bool  # a decorator the index cannot see through: its calls are not answered
    star_args: bool
    # a method whose return annotation says it returns an object of its own class (`-> Self`, `-> "Cls"`, or such
    # an element of `-> tuple[Self, State]`): the positions in the returned tuple (-1: the whole value)
    returns_self: tuple[int, ...] = ()
    # a factory: a function of the module whose every `return` hands back functions it defines itself (`return
    # kernel`, `return init, step`): the qualified names of their summaries (`pkg.mod.f.<locals>.kernel`), one per
    # element of the returned tuple (None where the element is no such function), or one for the whole value
    # (`factory_tuple` False); empty when it is no factory
    factory_products: tuple[str | None, ...] = ()
    factory_tuple: bool = False
    # `return Metric(init, step)`: the class of this module the factory's tuple is built with (qualified), to be
    # a record (a NamedTuple: its positional fields are the tuple's elements) for the products to count
    factory_record: str | None = None
    # a factory whose every `return` builds one class with keywords (`return Agent(params=p, init=_init)`): the
    # functions its fields are given, each a function of this module or one defined in the factory, (field,
    # qualified name), and the class (qualified); called through the field of a record (a NamedTuple, a
    # dataclass: it stores what it is given), `agent.init(key, ...)` runs that function
    factory_fields: tuple[tuple[str, str], ...] = ()
    factory_fields_class: str | None = None
    # a function whose every `return` hands back a tuple of one length and that keeps nothing it computes from a
    # parameter anywhere else (returned_carriers): (parameter, the positions of the returned tuple that may carry
    # a value computed from it), for each parameter; empty when it is no such function
    returned_carriers: tuple[tuple[str, tuple[int, ...]], ...] = ()
    # the `*args` parameter, summarised as any other (the tuple of the arguments past the positional ones: a key
    # handed there is consumed when the tuple is); None without one. `consumption(fn, "*")` asks about it
    star: ParamSummary | None = None
    # the decorators that make it opaque, qualified (`pkg.config.register`, `pkg.config.init_fn_for()` for a
    # factory's call), "" where a name cannot be qualified: the index sees through them when each is a function
    # that hands back what it decorates (ProjectIndex.sees_through)
    decorators: tuple[str, ...] = ()
    # a decorator that hands back what it decorates ("direct": `def register(fn): ...; return fn`), or a decorator
    # factory whose every `return` hands back such a decorator it defines ("factory": `def init_fn_for(cfg):
    # def deco(fn): cfg.init = fn; return fn; return deco`), a registry: the function it decorates is called as
    # it is written; "" otherwise
    hands_back: str = ""
    # a method whose `**kwargs` goes only, whole, to the same method of its base (`super().__init__(**kwargs)`):
    # a keyword argument that names none of its parameters is that base method's
    kwargs_to_super: bool = False

    def param(self, name: str) -> ParamSummary | None:
        if name == STAR:
            return self.star
        return next((p for p in self.params if p.name == name), None)


@dataclass(frozen=True)
class ClassSummary:
    module: str
    name: str
    bases: tuple[str, ...]  # qualified where the module names them
    methods: tuple[str, ...]
    key_generators: frozenset[str]  # properties and methods that return a fresh key on every use
    read_attributes: frozenset[str]  # `self.X` read anywhere in the class
    record: bool = False  # a dataclass / NamedTuple / struct with no constructor of its own: it stores its fields
    fields: frozenset[str] = frozenset()  # attributes it holds data in: `self.X = ...`, class-level `X: T`
    # a layer whose own code creates no random parameter (see `inert_layer_calls`): the functions of other
    # modules it calls (each asked in turn: they must not build layers); None when its own code may draw
    inert_calls: tuple[str, ...] | None = None
    # the classes its annotated fields hold (`recorder: Recorder | None = None`): (field, qualified classes)
    field_types: tuple[tuple[str, tuple[str, ...]], ...] = ()
    # what each attribute it assigns (`self.X = ...`, a class-level `X = ...`) may hold: (attribute, descriptors),
    # see `attribute_values`
    attribute_values: tuple[tuple[str, tuple[tuple[str, str, str], ...]], ...] = ()
    # (method, attribute): a method that draws from `self.<attribute>` (hands it to a `jax.random` function) in a
    # statement that always runs, before any branch or loop
    self_key_draws: tuple[tuple[str, str], ...] = ()


@dataclass
class ModuleSummary:
    name: str
    path: str
    digest: str  # of the text it was built from
    # by qualname; `summarise` fills it lazily (see LazyFunctions): each function summarised when first asked for
    functions: MutableMapping[str, FunctionSummary] = field(default_factory=dict)
    classes: dict[str, ClassSummary] = field(default_factory=dict)
    imports: dict[str, str] = field(default_factory=dict)  # local name -> qualified name (relative ones resolved)
    installed: bool = False
    # what its import does to JAX's x64 flag (x64_flag.py): the float64 rule of a module that imports it, or of a
    # test under it when it is a conftest, depends on it, so it is part of the shape
    x64: tuple[bool, bool] = (False, False)  # (module-level code enables it, a pytest hook / autouse fixture does)
    # module-level names bound once to a 64-bit dtype (`DTYPE = jnp.float64` in a settings module): a JAX array
    # asked for with one gets 32 bits unless the program enables x64, whichever module names it
    wide_dtypes: frozenset[str] = frozenset()
    # module-level functions jitted with donation (`@partial(jax.jit, donate_argnums=0)`): name -> (the donated
    # positions, the positional parameters); read from decorators alone, so no function is summarised to ask
    donating: dict[str, tuple[tuple[int, ...], tuple[str, ...]]] = field(default_factory=dict)

    # `shape()` once made (it summarises every function: several parses' worth on a 5,000-line module)
    _shape: str | None = field(default=None, init=False, repr=False, compare=False)

    def shape(self) -> str:
        """What callers can see of the module (its summaries, not its text): equal shapes answer alike. The same
        in every process (a result cache compares them across runs): sets are written sorted, never in their
        hash order, which changes with each interpreter's string hashing. Made once: a summary does not change
        after `summarise` returned it."""
        if self._shape is None:
            self._shape = repr(_canonical((dict(self.functions.items()), self.classes, self.imports, self.x64,
                                           self.wide_dtypes, self.donating)))
        return self._shape


def _canonical(value: object) -> object:
    """`value` with every set, dict and dataclass written in one order (for `shape`)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (type(value).__name__, tuple((f.name, _canonical(getattr(value, f.name)))
                                            for f in dataclasses.fields(value)))
    if isinstance(value, dict):
        return tuple(sorted(((repr(k), _canonical(v)) for k, v in value.items()), key=lambda kv: kv[0]))
    if isinstance(value, (set, frozenset)):
        return tuple(sorted((_canonical(v) for v in value), key=repr))
    if isinstance(value, (list, tuple)):
        return tuple(_canonical(v) for v in value)
    return value


# --- one module --------------------------------------------------------------------------------------------

def module_imports(tree: ast.Module, module: str, is_package: bool) -> dict[str, str]:
    """Local name -> qualified name for the module's imports at module level (inside `try`/`if` too), with
    relative imports resolved against the module's own name."""
    out: dict[str, str] = {}
    package = module if is_package else module.rpartition(".")[0]
    stack: list[ast.stmt] = list(tree.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    out[alias.asname] = alias.name
                else:
                    top = alias.name.split(".")[0]
                    out.setdefault(top, top)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".") if package else []
                if node.level - 1 > len(parts):
                    continue
                parts = parts[: len(parts) - (node.level - 1)]
                base = ".".join([*parts, *([base] if base else [])])
            if not base:
                continue
            for alias in node.names:
                if alias.name != "*":
                    out[alias.asname or alias.name] = f"{base}.{alias.name}"
                else:  # `from pkg.config import *`: no name of it is known here; kept as "*pkg.config" -> the module
                    out[f"*{base}"] = base
        elif isinstance(node, (ast.If, ast.Try)):
            stack.extend(node.body)
            stack.extend(node.orelse)
            if isinstance(node, ast.Try):
                for handler in node.handlers:
                    stack.extend(handler.body)
                stack.extend(node.finalbody)
    return out


def never_none(value: ast.AST) -> bool:
    """An expression whose value is never None: a constant other than None, a display, a comprehension, a
    lambda, an f-string, or the construction of a class (a call of a CapWords name: `UNet(...)`, `nn.Dense(...)`)."""
    if isinstance(value, ast.Constant):
        return value.value is not None
    if isinstance(value, (ast.List, ast.Tuple, ast.Dict, ast.Set, ast.ListComp, ast.SetComp, ast.DictComp,
                          ast.GeneratorExp, ast.Lambda, ast.JoinedStr)):
        return True
    if isinstance(value, ast.Call):
        func = value.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        return name[:1].isupper() and any(c.islower() for c in name)
    return False


def none_test(test: ast.expr) -> tuple[str, bool] | None:
    """`name is None` -> (name, True); `name is not None` -> (name, False); None for any other test."""
    if (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.left, ast.Name)
            and isinstance(test.ops[0], (ast.Is, ast.IsNot)) and isinstance(test.comparators[0], ast.Constant)
            and test.comparators[0].value is None):
        return test.left.id, isinstance(test.ops[0], ast.Is)
    return None


def dotted(node: ast.AST) -> str | None:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return ".".join([node.id, *reversed(parts)])


def qualify(node: ast.AST, imports: dict[str, str], local: set[str] | frozenset[str] = frozenset()) -> str | None:
    """`jr.normal` -> `jax.random.normal` through the module's imports; None when the head is no import."""
    text = dotted(node)
    if text is None:
        return None
    head, _, rest = text.partition(".")
    if head in local or head not in imports:
        return None
    return f"{imports[head]}.{rest}" if rest else imports[head]


_DONATING_TRANSFORMS = {"jax.jit", "jax.pmap", "jax.experimental.pjit.pjit"}


def _donated_positions(decorators: list[ast.expr], imports: dict[str, str], positional: list[str]) -> tuple[int, ...]:
    """The parameter positions a `jax.jit`/`jax.pmap` decorator donates (`@partial(jax.jit, donate_argnums=0)`,
    `@jax.jit(donate_argnames="params")`): literal `donate_argnums` (an int or a tuple of ints) and
    `donate_argnames` (a string or a tuple of strings), read without running anything."""
    found: set[int] = set()
    for d in decorators:
        if not isinstance(d, ast.Call):
            continue
        target = qualify(d.func, imports)
        if target in ("functools.partial",) and d.args:
            target = qualify(d.args[0], imports)
        if target not in _DONATING_TRANSFORMS:
            continue
        for kw in d.keywords:
            values = kw.value.elts if isinstance(kw.value, (ast.Tuple, ast.List)) else [kw.value]
            for v in values:
                if not isinstance(v, ast.Constant):
                    continue
                if kw.arg == "donate_argnums" and type(v.value) is int and 0 <= v.value < len(positional):
                    found.add(v.value)
                elif kw.arg == "donate_argnames" and isinstance(v.value, str) and v.value in positional:
                    found.add(positional.index(v.value))
    return tuple(sorted(found))


WIDE_DTYPES = frozenset(f"{m}.{t}" for m in ("jax.numpy", "numpy") for t in (
    "float64", "int64", "uint64", "complex128", "double", "cdouble", "longlong", "ulonglong"))


def _wide_dtype_names(tree: ast.Module, imports: dict[str, str]) -> frozenset[str]:
    """The module-level names bound exactly once, by `NAME = <64-bit dtype>` (`jnp.float64`, `np.int64`)."""
    bound: dict[str, list[ast.expr | None]] = {}
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
            node, (ast.AnnAssign, ast.AugAssign)) else []
        for t in targets:
            if isinstance(t, ast.Name):
                bound.setdefault(t.id, []).append(node.value if isinstance(node, ast.Assign) and len(
                    node.targets) == 1 else None)
    return frozenset(name for name, values in bound.items() if len(values) == 1 and values[0] is not None
                     and qualify(values[0], imports) in WIDE_DTYPES)


def summarise(text: str, module: str, path: str, is_package: bool = False, installed: bool = False,
              tree: ast.Module | None = None) -> ModuleSummary:
    """The summary of one module's source text (its syntax errors leave it empty). Its classes are summarised
    here; its functions and methods when first asked for (`LazyFunctions`): a module is read for the few
    functions a caller calls, and summarising every function of it was most of the cost of the index.
    `tree`: what `ast.parse(text)` gives, when the caller has parsed it already (it is only read)."""
    digest = hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest()
    summary = ModuleSummary(module, path, digest, installed=installed)
    if tree is None:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                tree = parse_module(text)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return summary
    imports = module_imports(tree, module, is_package)
    summary.imports = imports
    x64 = facts_of_tree(tree, module, is_package)
    summary.x64 = (x64.enables, x64.hook_enables)
    top_names = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
    summary.wide_dtypes = _wide_dtype_names(tree, imports)
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.decorator_list:
            positional = [a.arg for a in [*node.args.posonlyargs, *node.args.args]]
            donated = _donated_positions(node.decorator_list, imports, positional)
            if donated:
                summary.donating[node.name] = (donated, tuple(positional))
    functions = LazyFunctions()
    summary.functions = functions
    source = _Source(text)
    try:
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                functions.defer(node.name, _deferred_function(source.locate(node, None), module, node.name, imports,
                                                              top_names, functions.nested))
            elif isinstance(node, ast.ClassDef):
                _summarise_class(node, module, imports, top_names, summary, functions, source)
    except RecursionError:
        functions.stop()
    return summary


def _deferred_function(node: Callable[[], ast.FunctionDef | ast.AsyncFunctionDef], module: str, qualname: str,
                       imports: dict[str, str], top_names: set[str], nested: dict[str, FunctionSummary],
                       ) -> Callable[[], FunctionSummary]:
    return lambda: _Function(_Walk(node(), imports), module, qualname, imports, top_names, None, nested=nested).summary()


class _Source:
    """A module's text, from which a function's node is parsed again when its summary is first asked for: a lazy
    summary keeps no tree (the trees of every module read, kept alive, made each garbage collection walk them).
    The function's own lines are parsed at their own line numbers and columns (blank lines before them, a
    `class _:` line above a method), so its nodes are those of the module's tree; where that cannot be
    (a method on its class's line), or the node found differs in place or name, the whole module is parsed."""

    __slots__ = ("_starts", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self._starts: list[int] | None = None  # where each line begins (as the tokenizer counts lines)

    def locate(self, node: ast.FunctionDef | ast.AsyncFunctionDef, owner: ast.ClassDef | None,
               ) -> Callable[[], ast.FunctionDef | ast.AsyncFunctionDef]:
        first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
        last = node.end_lineno or node.lineno
        where = (node.lineno, node.col_offset, node.name)
        inside = owner.lineno if owner is not None else None
        return lambda: self.parse(first, last, where, inside)

    def parse(self, first: int, last: int, where: tuple[int, int, str],
              inside: int | None) -> ast.FunctionDef | ast.AsyncFunctionDef:
        if self._starts is None:
            starts = [0]
            starts.extend(m.end() for m in _LINE_END.finditer(self.text))
            self._starts = starts
        starts = self._starts
        found: ast.AST | None = None
        if inside is None or inside < first:
            lines = self.text[starts[first - 1]: starts[last] if last < len(starts) else len(self.text)]
            text = "\n" * (first - 1) + lines if inside is None else "\n" * (first - 2) + "class _:\n" + lines
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    tree = parse_module(text)
                except SyntaxError:
                    tree = None
            if tree is not None and len(tree.body) == 1:
                found = tree.body[0]
                if inside is not None:
                    found = found.body[0] if isinstance(found, ast.ClassDef) and len(found.body) == 1 else None
        if not (isinstance(found, (ast.FunctionDef, ast.AsyncFunctionDef))
                and (found.lineno, found.col_offset, found.name) == where):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                module = parse_module(self.text)
            found = next(n for n in walk_nodes(module) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                         and (n.lineno, n.col_offset, n.name) == where)
        assert isinstance(found, (ast.FunctionDef, ast.AsyncFunctionDef))
        return found


_LINE_END = re.compile(r"\r\n|\r|\n")


class LazyFunctions(MutableMapping[str, FunctionSummary]):
    """A module's function summaries by qualname, each made when first asked for, the same as summarising every
    function up front would make it. Each top-level function or method (`f`, `Class.m`) is summarised on its
    own: what it builds besides itself are the summaries of the functions defined inside it that it hands a
    key to (`f.<locals>.g`, in the shared `nested`), which only it names, so the order they are made in changes
    nothing. A name defined twice is summarised as often, in order (the last one is kept; an earlier one's
    nested functions stay, as they did). Iterating (or pickling) summarises all of them."""

    def __init__(self) -> None:
        self._done: dict[str, FunctionSummary] = {}
        self._todo: dict[str, list[Callable[[], FunctionSummary]]] = {}
        self._order: dict[str, int] = {}  # each top-level function's and method's place in the module
        self.nested: dict[str, FunctionSummary] = {}  # `outer.<locals>.inner`, as they are made
        self._stopped = False  # the module's walk met a RecursionError: what is left was never summarised

    def defer(self, qualname: str, make: Callable[[], FunctionSummary]) -> None:
        if not self._stopped:
            self._todo.setdefault(qualname, []).append(make)
            self._order.setdefault(qualname, len(self._order))

    def stop(self) -> None:
        self._stopped = True

    def _force(self, qualname: str) -> None:
        with _LAZY_LOCK:
            makers = self._todo.pop(qualname, None)
            if makers is None:
                return
            before = len(self.nested)
            try:
                for make in makers:
                    self._done[qualname] = make()
            except RecursionError:
                self._done.pop(qualname, None)
            if len(self.nested) != before:
                for name, fn in self.nested.items():
                    if name not in self._todo:
                        self._done.setdefault(name, fn)

    def _force_all(self) -> None:
        for qualname in list(self._todo):
            self._force(qualname)

    def _owner(self, qualname: str) -> str:
        return qualname.split(".<locals>.", 1)[0]

    def __getitem__(self, qualname: str) -> FunctionSummary:
        if qualname not in self._done:
            self._force(qualname if qualname in self._todo else self._owner(qualname))
        return self._done[qualname]

    def __contains__(self, qualname: object) -> bool:
        if not isinstance(qualname, str):
            return False
        if qualname in self._todo:
            self._force(qualname)  # (it may fail: a RecursionError leaves it out, as it did)
        elif ".<locals>." in qualname and qualname not in self._done:
            self._force(self._owner(qualname))
        return qualname in self._done

    def __setitem__(self, qualname: str, summary: FunctionSummary) -> None:
        with _LAZY_LOCK:
            self._todo.pop(qualname, None)
            self._done[qualname] = summary

    def __delitem__(self, qualname: str) -> None:
        with _LAZY_LOCK:
            found = self._todo.pop(qualname, None) is not None
            if qualname in self._done:
                del self._done[qualname]
            elif not found:
                raise KeyError(qualname)

    def __iter__(self) -> Iterator[str]:
        """In the order summarising the module in one pass gives: its functions and methods in the module's
        order, then the nested ones by their owner's place (each owner's in the order they were made)."""
        self._force_all()
        last = len(self._order)
        made = {name: at for at, name in enumerate(self.nested)}
        return iter(sorted(self._done, key=lambda name: (
            (0, self._order.get(name, last), 0) if name not in made
            else (1, self._order.get(self._owner(name), last), made[name]))))

    def __len__(self) -> int:
        self._force_all()
        return len(self._done)

    def __getstate__(self) -> dict[str, object]:
        self._force_all()  # (the makers are closures over the module's tree)
        return {"_done": self._done, "_todo": {}, "_order": self._order, "nested": self.nested,
                "_stopped": self._stopped}

    def __repr__(self) -> str:
        return repr(dict(self.items()))


_LAZY_LOCK = threading.RLock()  # function summaries made lazily (a module's summary is shared across indexes)


def annotation_classes(annotation: ast.expr | None, module: str, imports: dict[str, str],
                       top_names: set[str] | frozenset[str]) -> tuple[str, ...]:
    """The classes an annotation names, qualified: `Cls`, `mod.Cls`, `A | B`, `Optional[A]`, `Union[A, B]`
    (None left out); () when it names anything else (a generic, a string, a builtin type)."""
    if annotation is None:
        return ()
    if isinstance(annotation, ast.Constant) and annotation.value is None:
        return ("",)
    if isinstance(annotation, ast.BinOp) and isinstance(annotation.op, ast.BitOr):
        left = annotation_classes(annotation.left, module, imports, top_names)
        right = annotation_classes(annotation.right, module, imports, top_names)
        return tuple(c for c in (*left, *right) if c) if left and right else ()
    if isinstance(annotation, ast.Subscript):
        head = (qualify(annotation.value, imports) or dotted(annotation.value) or "").rsplit(".", 1)[-1]
        if head in ("Optional", "Union"):
            parts = annotation.slice.elts if isinstance(annotation.slice, ast.Tuple) else [annotation.slice]
            found = [annotation_classes(p, module, imports, top_names) for p in parts]
            return tuple(c for f in found for c in f if c) if all(found) else ()
        return ()
    if isinstance(annotation, ast.Name) and annotation.id in top_names:
        return (f"{module}.{annotation.id}",)
    name = qualify(annotation, imports) if isinstance(annotation, (ast.Name, ast.Attribute)) else None
    if name is None or "." not in name or name.split(".")[0] in _NOT_INDEXED:
        return ()
    return (name,)


def _returns_self(annotation: ast.expr | None, cls: str) -> tuple[int, ...]:
    """The positions of a method's returned tuple its annotation says hold an object of its own class (-1: the
    whole value): `-> Self`, `-> "Cls"`, `-> tuple[Self, State]`."""
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        try:
            annotation = ast.parse(annotation.value, mode="eval").body
        except SyntaxError:
            return ()

    def own(node: ast.expr) -> bool:
        name = dotted(node) or (node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else "")
        return bool(name) and name.rsplit(".", 1)[-1] in ("Self", cls)

    if annotation is None:
        return ()
    if own(annotation):
        return (-1,)
    if isinstance(annotation, ast.Subscript) and (dotted(annotation.value) or "").rsplit(".", 1)[-1] in ("tuple", "Tuple"):
        elements = annotation.slice.elts if isinstance(annotation.slice, ast.Tuple) else [annotation.slice]
        return tuple(i for i, e in enumerate(elements) if own(e))
    return ()


def _summarise_class(cls: ast.ClassDef, module: str, imports: dict[str, str], top_names: set[str],
                     summary: ModuleSummary, functions: LazyFunctions, source: _Source) -> None:
    methods = [n for n in cls.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    walks = [_Walk(m, imports) for m in methods]  # one walk per method serves every question below
    read = frozenset().union(*(w.self_reads for w in walks))
    generators = _generators(walks)
    bases = tuple(qualify(b, imports) or (f"{module}.{dotted(b)}" if dotted(b) in top_names else dotted(b) or "")
                  for b in cls.bases)
    decorated = any((dotted(d.func if isinstance(d, ast.Call) else d) or "").endswith("dataclass")
                    for d in cls.decorator_list)
    named_tuple = any((dotted(b) or "").endswith("NamedTuple") for b in cls.bases)
    own_init = any(m.name in ("__init__", "__post_init__", "__new__") for m in methods)
    fields = frozenset().union(*(w.self_stored for w in walks)) | {
        t.id for n in cls.body if isinstance(n, (ast.AnnAssign, ast.Assign))
        for t in (n.targets if isinstance(n, ast.Assign) else [n.target]) if isinstance(t, ast.Name)}
    method_names = {m.name for m in methods}
    # only a layer that makes parameters or variables is looked at (one that makes neither has nothing to init)
    stateful = cls.bases and any("param" in w.self_reads or "variable" in w.self_reads for w in walks)
    inert = _inert_calls([(w.calls, w.defs) for w in walks], method_names, imports, top_names) if stateful else None
    field_types = tuple((n.target.id, found) for n in cls.body if isinstance(n, ast.AnnAssign)
                        and isinstance(n.target, ast.Name)
                        and (found := annotation_classes(n.annotation, module, imports, top_names)))
    summary.classes[cls.name] = ClassSummary(module, cls.name, bases, tuple(m.name for m in methods), generators, read,
                                             (decorated or named_tuple) and not own_init, fields, inert, field_types,
                                             attribute_values(cls, methods, module, imports, top_names),
                                             _self_key_draws(methods, imports))
    for m in methods:  # (parsed again when first asked for: see _Source)
        functions.defer(f"{cls.name}.{m.name}", _deferred_method(source.locate(m, cls), module, cls.name, imports,
                                                                 top_names, read, functions.nested))


def super_attribute(func: ast.AST) -> str | None:
    """`super().<attr>` (no arguments to `super`): the attribute; None for anything else."""
    if (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Call) and isinstance(func.value.func, ast.Name)
            and func.value.func.id == "super" and not func.value.args):
        return func.attr
    return None


def _self_key_draws(methods: list[ast.FunctionDef | ast.AsyncFunctionDef],
                    imports: dict[str, str]) -> tuple[tuple[str, str], ...]:
    """(method, attribute) for each method that hands `self.<attribute>` to a `jax.random` function that consumes
    it, as the first argument, in a statement of its body that always runs (before the first compound one)."""
    found: list[tuple[str, str]] = []
    for method in methods:
        if method.name == "__init__":
            continue
        for stmt in method.body:
            if not isinstance(stmt, (ast.Expr, ast.Assign, ast.AnnAssign, ast.Return)):
                break
            for node in walk_nodes(stmt):
                q = qualify(node.func, imports) if isinstance(node, ast.Call) and node.args else None
                if (q is not None and q.startswith("jax.random.") and q.rsplit(".", 1)[1] not in _RANDOM_KEEPING
                        and isinstance(node.args[0], ast.Attribute) and isinstance(node.args[0].value, ast.Name)  # type: ignore[attr-defined]
                        and node.args[0].value.id == "self"):  # type: ignore[attr-defined]
                    found.append((method.name, node.args[0].attr))  # type: ignore[attr-defined]
            if isinstance(stmt, ast.Return):
                break
    return tuple(sorted(set(found)))


def attribute_values(cls: ast.ClassDef, methods: list[ast.FunctionDef | ast.AsyncFunctionDef], module: str,
                     imports: dict[str, str], top_names: set[str]) -> tuple[tuple[str, tuple[tuple[str, str, str], ...]], ...]:
    """What each attribute the class assigns may hold, one descriptor per assignment (kind, class, parameter):
    ("built", C, "") for `self.x = C(...)` in a method (the object holds a C); ("default", C, p) for `self.x = C() if p is None else p`
    (`p if p is not None else C()`, `p or C()`) in `__init__`, `p` a parameter whose default is None (a C when
    the constructor is not passed `p`); ("param", "", p) for `self.x = p` in `__init__` (what the constructor
    was given as `p`); ("field", C, "") for a class-level `x = C(...)` / `x: T =
    field(default_factory=C)`, a default the constructor of a record may replace (a C when the constructor is
    given no argument for it); ("unknown", "", "") for anything else (a value
    passed in, an attribute assigned through a tuple, `setattr`). A class without a descriptor for an
    attribute never assigns it."""
    out: dict[str, list[tuple[str, str, str]]] = {}

    def named(func: ast.expr) -> str:
        if isinstance(func, ast.Name) and func.id in top_names:
            return f"{module}.{func.id}"
        return qualify(func, imports) or ""

    def built(value: ast.expr | None) -> str:
        if isinstance(value, ast.Call) and not isinstance(value.func, ast.Call):
            last = (dotted(value.func) or "").rsplit(".", 1)[-1]
            if last == "field":  # field(default_factory=C) / eqx.field(default=C())
                for kw in value.keywords:
                    if kw.arg == "default_factory" and isinstance(kw.value, (ast.Name, ast.Attribute)):
                        return named(kw.value)
                    if kw.arg == "default":
                        return built(kw.value)
                return ""
            return named(value.func)
        return ""

    def defaulted(value: ast.expr, method: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[str, str] | None:
        param: ast.expr | None = None
        made: ast.expr | None = None
        if isinstance(value, ast.IfExp) and isinstance(value.test, ast.Compare) and len(value.test.ops) == 1 and (
                isinstance(value.test.comparators[0], ast.Constant) and value.test.comparators[0].value is None):
            tested = value.test.left
            if isinstance(value.test.ops[0], ast.Is):
                made, param = value.body, value.orelse
            elif isinstance(value.test.ops[0], ast.IsNot):
                param, made = value.body, value.orelse
            if not (isinstance(tested, ast.Name) and isinstance(param, ast.Name) and tested.id == param.id):
                return None
        elif isinstance(value, ast.BoolOp) and isinstance(value.op, ast.Or) and len(value.values) == 2:
            param, made = value.values
        if not isinstance(param, ast.Name) or method.name != "__init__":
            return None
        a = method.args
        positional = [*a.posonlyargs, *a.args]
        defaults: list[ast.expr | None] = [None] * (len(positional) - len(a.defaults)) + list(a.defaults)
        pairs = list(zip(positional, defaults, strict=True)) + list(zip(a.kwonlyargs, a.kw_defaults, strict=True))
        default = next((d for arg, d in pairs if arg.arg == param.id), None)
        if not (isinstance(default, ast.Constant) and default.value is None):
            return None
        if param.id in rebound(method):
            return None  # rebound before: no longer what the caller passed
        cls_name = built(made)
        return (cls_name, param.id) if cls_name else None

    def passed_in(value: ast.expr, method: ast.FunctionDef | ast.AsyncFunctionDef) -> str:
        """`self.metrics = metrics` in `__init__`, the parameter never rebound: what the constructor was given."""
        if not isinstance(value, ast.Name) or method.name != "__init__":
            return ""
        a = method.args
        if value.id not in {p.arg for p in [*a.posonlyargs, *a.args[1:], *a.kwonlyargs]} or value.id in rebound(method):
            return ""
        return value.id

    bound: dict[int, set[str]] = {}
    walked = {id(m): _breadth_first(m) for m in methods}  # one walk per method serves both questions

    def rebound(method: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
        """The names the method binds or deletes anywhere (one walk per method, not one per assignment)."""
        found = bound.get(id(method))
        if found is None:
            found = bound[id(method)] = {n.id for n in walked[id(method)]
                                         if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
        return found

    for method in methods:
        for node in walked[id(method)]:
            if isinstance(node, ast.Call) and dotted(node.func) in ("setattr", "object.__setattr__"):
                if len(node.args) > 1 and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str):
                    out.setdefault(node.args[1].value, []).append(("unknown", "", ""))
                continue
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _STORING_METHODS
                    and isinstance(node.func.value, ast.Attribute) and isinstance(node.func.value.value, ast.Name)
                    and node.func.value.value.id == "self"):
                out.setdefault(node.func.value.attr, []).append(("mutated", "", ""))  # self.metrics.update(...)
            if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Delete)):
                targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target]
                for target in targets:
                    if (isinstance(target, ast.Subscript) and isinstance(target.value, ast.Attribute)
                            and isinstance(target.value.value, ast.Name) and target.value.value.id == "self"):
                        out.setdefault(target.value.attr, []).append(("mutated", "", ""))  # self.metrics["x"] = m
                    for t in walk_nodes(target):
                        if not (isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self"
                                and not isinstance(t.ctx, ast.Load)):
                            continue
                        value = node.value if t is target and isinstance(node, (ast.Assign, ast.AnnAssign)) else None
                        found = built(value) if value is not None else ""
                        pair = defaulted(value, method) if value is not None and not found else None
                        given = passed_in(value, method) if value is not None and not found and not pair else ""
                        out.setdefault(t.attr, []).append(
                            ("built", found, "") if found else ("default", *pair) if pair else
                            ("param", "", given) if given else ("unknown", "", ""))
    for node in cls.body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                if isinstance(target, ast.Name):
                    found = built(node.value)
                    out.setdefault(target.id, []).append(("field", found, "") if found else ("unknown", "", ""))
    return tuple((attr, tuple(dict.fromkeys(values))) for attr, values in sorted(out.items()))


def _breadth_first(node: ast.AST) -> list[ast.AST]:
    """`list(walk_nodes(node))`, in the same order (breadth first), less the leaves no question asks about (contexts,
    operators, import aliases: syntax.CHILD_FIELDS skips them; dropping leaves keeps the others' order), in a
    fraction of the time (no generator per node)."""
    out = [node]
    child_fields, AST = CHILD_FIELDS, ast.AST
    at = 0
    while at < len(out):
        parent = out[at]
        at += 1
        cls = type(parent)
        fields = child_fields.get(cls)
        if fields is None:
            fields = child_fields_of(cls)
        for name in fields:
            value = getattr(parent, name, None)
            if type(value) is list:
                for child in value:
                    if isinstance(child, AST):
                        out.append(child)
            elif isinstance(value, AST):
                out.append(value)
    return out


def _deferred_method(node: Callable[[], ast.FunctionDef | ast.AsyncFunctionDef], module: str, cls: str,
                     imports: dict[str, str], top_names: set[str], read: frozenset[str],
                     nested: dict[str, FunctionSummary]) -> Callable[[], FunctionSummary]:
    def make() -> FunctionSummary:
        found = node()
        return _Function(_Walk(found, imports), module, f"{cls}.{found.name}", imports, top_names, cls, read,
                         nested).summary()
    return make


# initialisers whose values are constants: a parameter made with one draws nothing from the init's key
_CONSTANT_INITS = {"zeros", "ones", "constant", "zeros_init", "ones_init", "Constant", "Zeros", "Ones"}
# layer libraries: a function of a module that imports one may build layers (which create parameters)
_LAYER_LIBRARIES = ("flax", "haiku", "equinox", "praxis", "trax", "objax")
# the base classes of a layer whose `init` runs its methods and creates only what they create
LAYER_BASES = {"flax.linen.Module", "flax.linen.module.Module"}


def inert_layer_calls(methods: list[ast.FunctionDef | ast.AsyncFunctionDef], method_names: set[str],
                      imports: dict[str, str], top_names: set[str]) -> tuple[str, ...] | None:
    """Whether a flax layer's own code draws nothing when `init` runs it: no `self.param` with an initialiser
    other than a constant one (zeros, ones, `constant(v)`), no `self.make_rng`, no submodule built or called (a
    capitalised call, `self.X(...)` of an attribute that is no method of the class, a call of a local value),
    only calls of JAX (not `jax.random`), the standard library, builtins, flax's own lower-case functions
    (`with_logical_constraint`) and functions of other modules; those are returned, to be checked to build no
    layer (their modules import no layer library). `self.variable(...)` caches with any non-random initial
    value are state, not parameters. None when the class's own code may draw."""
    bodies = []
    for method in methods:
        nodes = list(walk_nodes(method))
        bodies.append(([n for n in nodes if isinstance(n, ast.Call)],
                       {n.name for n in nodes if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}))
    return _inert_calls(bodies, method_names, imports, top_names)


def _inert_calls(bodies: list[tuple[list[ast.Call], set[str]]], method_names: set[str], imports: dict[str, str],
                 top_names: set[str]) -> tuple[str, ...] | None:
    """`inert_layer_calls` from each method's calls (nested functions' included) and the names it defines."""
    outside: list[str] = []
    for calls, nested in bodies:
        for node in calls:  # nested functions' bodies included: a call of one is looked into here
            func = node.func
            if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self":
                if func.attr == "param":
                    init = node.args[1] if len(node.args) > 1 else next(
                        (k.value for k in node.keywords if k.arg == "init_fn"), None)
                    target = init.func if isinstance(init, ast.Call) else init
                    name = (dotted(target) or "").rsplit(".", 1)[-1] if target is not None else ""
                    if name not in _CONSTANT_INITS:
                        return None
                    continue
                if func.attr in _STATE_METHODS or (func.attr in method_names and func.attr != "make_rng"):
                    continue
                return None  # make_rng, a submodule held on self, a method of a base we cannot see
            if isinstance(func, ast.Attribute) and not isinstance(func.value, (ast.Name, ast.Attribute)):
                continue  # a method of a computed value: `x.reshape(...)`, `var.value.at[i].set(v)`
            text = dotted(func)
            if text is None:
                return None  # a call of a call's result (`nn.scan(Block)(...)`)
            head = text.split(".", 1)[0]
            qualified = qualify(func, imports)
            if qualified is None:
                if "." not in text and (hasattr(builtins, text) or text in nested):
                    continue  # len, range, ValueError, a function defined in the method
                if "." in text and head not in top_names:
                    continue  # a method of a local value: `page_state.page_map.at[i].set(...)`
                return None  # a function or class of this module, or a local callable
            last = qualified.rsplit(".", 1)[-1]
            top = qualified.split(".", 1)[0]
            if qualified.startswith("jax.random."):
                return None  # a draw
            if top == "jax" or top in _STDLIB:
                continue  # jnp, lax, PartitionSpec, functools.partial
            if top == "flax":
                if qualified.startswith("flax.linen.") and last[:1].islower():
                    continue  # flax's functions: with_logical_constraint, with_logical_partitioning, relu
                return None  # a flax layer or initialiser built
            outside.append(qualified)  # a function (or a record) of another module: asked in turn
    return tuple(sorted(set(outside)))


# a flax layer's own methods that read or write its variables, never drawing
_STATE_METHODS = {"variable", "has_variable", "get_variable", "put_variable", "is_mutable_collection",
                  "is_initializing", "sow", "has_rng"}
_STDLIB = frozenset(getattr(sys, "stdlib_module_names", ())) | {"numpy", "math", "functools", "typing"}


def class_key_generators(methods: list[ast.FunctionDef | ast.AsyncFunctionDef], imports: dict[str, str]) -> frozenset[str]:
    """The methods and properties of a class that give a fresh key on every call or read: those that split a
    key kept on `self`, store one half back on `self` and return a value, and those that return what one of
    them gives (`return next(self)` with such a `__next__`, `return self.next_key()`, `return self.fresh`)."""
    return _generators([_Walk(m, imports) for m in methods])


def _generators(walks: list[_Walk]) -> frozenset[str]:
    found = {w.node.name for w in walks if w.self_split & w.self_stored and w.returns_value}  # type: ignore[union-attr]
    grew = True
    while grew:
        grew = False
        for w in walks:
            name = w.node.name  # type: ignore[union-attr]
            if name not in found and w.returns_via & found:
                found.add(name)
                grew = True
    return frozenset(found)


class _Walk:
    """One walk over a function: everything the summaries ask of its nodes."""

    def __init__(self, node: ast.FunctionDef | ast.AsyncFunctionDef, imports: dict[str, str]) -> None:
        self.node = node
        self.parents: dict[ast.AST, ast.AST] = {}
        self.locals: set[str] = set()
        self.loads: dict[str, list[ast.Name]] = {}  # name -> its loads, in the function and those inside it
        self.stores: dict[str, list[ast.Name]] = {}  # name -> its stores and deletions, the same way
        self.copies: list[tuple[str, str]] = []  # (target, source) of `target = source` between plain names
        self.self_reads: set[str] = set()  # self.X read
        self.self_split: set[str] = set()  # split(self.X)
        self.self_stored: set[str] = set()  # self.X = ...
        self.returns_value = False
        self.returns_via: set[str] = set()  # `return next(self)` ("__next__"), `return self.m()`, `return self.p`
        self.calls: list[ast.Call] = []  # every call, in nested functions too
        self.defs: set[str] = set()  # the functions defined inside it
        self.exits: list[ast.AST] = []  # every `return` and `raise`, in nested functions too
        parents = self.parents
        stack: list[ast.AST] = [node]
        AST = ast.AST
        child_fields = CHILD_FIELDS
        while stack:
            parent = stack.pop()
            cls = type(parent)
            fields = child_fields.get(cls)
            if fields is None:
                fields = child_fields_of(cls)
            # ast.walk's work, with each node's parent noted on the way; the fields that hold no node the questions
            # below start from or pass through (contexts, operators, import aliases: syntax.iter_children's) skipped
            for name in fields:
                value = getattr(parent, name, None)
                if type(value) is list:
                    for child in value:
                        if isinstance(child, AST):
                            parents[child] = parent
                            stack.append(child)
                elif isinstance(value, AST):
                    parents[value] = parent
                    stack.append(value)
            if cls is ast.Name:
                if isinstance(parent.ctx, ast.Load):  # type: ignore[attr-defined]
                    self.loads.setdefault(parent.id, []).append(parent)  # type: ignore[attr-defined, arg-type]
                else:
                    self.locals.add(parent.id)  # type: ignore[attr-defined]
                    self.stores.setdefault(parent.id, []).append(parent)  # type: ignore[attr-defined, arg-type]
            elif cls is ast.Attribute:
                value = parent.value  # type: ignore[attr-defined]
                if type(value) is ast.Name and value.id == "self":
                    if isinstance(parent.ctx, ast.Load):  # type: ignore[attr-defined]
                        self.self_reads.add(parent.attr)  # type: ignore[attr-defined]
                    else:
                        self.self_stored.add(parent.attr)  # type: ignore[attr-defined]
            elif cls is ast.Assign:
                if type(parent.value) is ast.Name:  # type: ignore[attr-defined]
                    self.copies.extend((t.id, parent.value.id) for t in parent.targets  # type: ignore[attr-defined]
                                       if type(t) is ast.Name)
            elif cls is ast.Call:
                self.calls.append(parent)  # type: ignore[arg-type]
                args = parent.args  # type: ignore[attr-defined]
                if args and type(args[0]) is ast.Attribute and type(args[0].value) is ast.Name and (
                        args[0].value.id == "self") and qualify(parent.func, imports) == "jax.random.split":  # type: ignore[attr-defined]
                    self.self_split.add(args[0].attr)
            elif cls is ast.FunctionDef or cls is ast.AsyncFunctionDef:
                self.defs.add(parent.name)  # type: ignore[attr-defined]
            elif cls is ast.Raise:
                self.exits.append(parent)
            elif cls is ast.Return or cls is ast.Yield:
                if cls is ast.Return:
                    self.exits.append(parent)
                value = parent.value  # type: ignore[attr-defined]
                if value is not None:
                    self.returns_value = True
                    if cls is ast.Return:
                        self._via(value)

    def _via(self, value: ast.expr) -> None:
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "next" and (
                len(value.args) == 1 and isinstance(value.args[0], ast.Name) and value.args[0].id == "self"):
            self.returns_via.add("__next__")
        elif isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and (
                isinstance(value.func.value, ast.Name) and value.func.value.id == "self"):
            self.returns_via.add(value.func.attr)
        elif isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name) and value.value.id == "self":
            self.returns_via.add(value.attr)


class _Function:
    """Summarises one function's parameters (see the module docstring)."""

    def __init__(self, walk: _Walk, module: str, qualname: str, imports: dict[str, str], top_names: set[str],
                 cls: str | None, class_reads: frozenset[str] = frozenset(),
                 nested: dict[str, FunctionSummary] | None = None) -> None:
        self.node = walk.node
        self.module, self.qualname = module, qualname
        self.imports, self.top_names, self.cls, self.class_reads = imports, top_names, cls, class_reads
        self.parents, self.locals, self.loads, self.copies = walk.parents, walk.locals, walk.loads, walk.copies
        self.stores = walk.stores
        self._first_exit: int | None = None
        self._exits = walk.exits
        self._returns: list[ast.Return] | None = None  # its own `return`s (see _own_returns)
        # functions defined inside this one that `lax.cond`/`lax.switch` run, summarised when first met (by their
        # qualified name `outer.<locals>.inner`); the module's summary keeps them with its functions
        self.nested = nested if nested is not None else {}
        self.outer_defs: dict[str, tuple[ast.FunctionDef, str]] = {}  # functions of enclosing ones, by name
        self._own_defs: list[tuple[str, tuple[ast.FunctionDef, str]]] | None = None  # those defined in this one

    def summary(self) -> FunctionSummary:
        node = self.node
        args = node.args
        positional = [a.arg for a in [*args.posonlyargs, *args.args]]
        static = any(dotted(d) == "staticmethod" for d in node.decorator_list)
        if self.cls is not None and not static and positional:
            positional = positional[1:]
        names = [*positional, *(a.arg for a in args.kwonlyargs)]
        unseen = [d for d in node.decorator_list if not self._transparent(d)]
        opaque = bool(unseen)
        decorators = tuple(self._decorator_name(d) for d in unseen)
        seeable = not opaque or all(decorators)  # answered when each decorator hands back what it decorates
        params = tuple(self._param(name) for name in names)
        returns_self = _returns_self(node.returns, self.cls) if self.cls is not None and not static else ()
        products, as_tuple, record = self._factory_products() if self.cls is None and seeable else ((), False, None)
        fields, built = self._factory_fields() if self.cls is None and seeable else ((), None)
        own_returns = self._own_returns() if seeable else []
        carriers = returned_carriers(node, names) if own_returns and all(
            isinstance(r.value, ast.Tuple) for r in own_returns) else None  # (only tuples: a cheap test first)
        star = self._star_param(args.vararg.arg) if args.vararg is not None else None
        # (a registry returns a name on every path: the returns already found rule out nearly every function
        # before its body is walked again)
        registry = hands_back(node) if self.cls is None and not opaque and own_returns and all(
            isinstance(r.value, ast.Name) for r in own_returns) else ""
        return FunctionSummary(self.module, self.qualname, tuple(positional), params, opaque, args.vararg is not None,
                               returns_self, products, as_tuple, record, fields, built, carriers or (), star,
                               decorators, registry, self._kwargs_to_super(node))

    def _kwargs_to_super(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
        """`def __init__(self, *args, **kwargs): super().__init__(TransformType=X, *args, **kwargs)`: every read
        of the method's `**kwargs` is `**kwargs` in a call of `super().<the same method>(...)`."""
        kwarg = node.args.kwarg
        if self.cls is None or kwarg is None:
            return False
        loads = self._loads({kwarg.arg})
        for load in loads:
            holder = self.parents.get(load)
            call = self.parents.get(holder) if isinstance(holder, ast.keyword) and holder.arg is None else None
            if not (isinstance(call, ast.Call) and super_attribute(call.func) == node.name):
                return False
        return bool(loads)

    def _decorator_name(self, decorator: ast.expr) -> str:
        """A decorator's qualified name, `()` after it for a factory's call (`@init_fn_for(Config)`); "" when
        it is no plain name (`@registry[k]`, `@make()()`) or cannot be qualified."""
        called = isinstance(decorator, ast.Call)
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        if not isinstance(target, (ast.Name, ast.Attribute)):
            return ""
        name = qualify(target, self.imports) or (
            f"{self.module}.{target.id}" if isinstance(target, ast.Name) and target.id in self.top_names else None)
        if name is None and isinstance(target, ast.Name):  # one of the modules star-imported, `|` between them
            name = "|".join(f"{base}.{target.id}" for key, base in self.imports.items() if key.startswith("*")) or None
        return f"{name}()" if name and called else name or ""

    def _own_returns(self) -> list[ast.Return]:
        """The function's own `return` statements (not those of the functions or classes inside it), in the order
        a depth-first walk from the last statement meets them: the walk's `return`s (met in that order) whose
        nearest enclosing definition is this function. (Both factory questions asked it of a walk of their own
        over the whole body, a third of the time of a function's summary.)"""
        if self._returns is None:
            node, parents = self.node, self.parents
            returns: list[ast.Return] = []
            for exit_ in self._exits:
                if type(exit_) is not ast.Return:
                    continue
                up = parents.get(exit_)
                while up is not None and up is not node and not isinstance(
                        up, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
                    up = parents.get(up)
                if up is node:
                    returns.append(exit_)  # type: ignore[arg-type]
            self._returns = returns
        return list(self._returns)

    def _factory_fields(self) -> tuple[tuple[tuple[str, str], ...], str | None]:
        """What a factory that builds a record puts in its fields (see `FunctionSummary.factory_fields`): every own
        `return` calls the same class, and a keyword given the same function at every return (a `def` of this
        module's top level, or one made in the factory, never rebound in it) is a field holding that function."""
        returns = self._own_returns()
        calls = [r.value for r in returns if isinstance(r.value, ast.Call)]
        if not returns or len(calls) != len(returns):
            return (), None
        classes = {self._class_named(c.func) for c in calls}
        built = classes.pop() if len(classes) == 1 else None
        if built is None:
            return (), None
        held: dict[str, str | None] | None = None
        for call in calls:
            given: dict[str, str | None] = {}
            for kw in call.keywords:
                value = kw.value
                if kw.arg is not None and isinstance(value, ast.Name) and value.id not in self.locals:
                    given[kw.arg] = self._nested_target(value.id) or (
                        f"{self.module}.{value.id}" if value.id in self.top_names else None)
            held = given if held is None else {k: v for k, v in held.items() if given.get(k) == v}
        fields = tuple(sorted((name, target) for name, target in (held or {}).items() if target is not None))
        return (fields, built) if fields else ((), None)

    def _class_named(self, func: ast.expr) -> str | None:
        """The qualified name of a called class (or function): through the module's imports, or of this module."""
        if isinstance(func, ast.Name) and func.id in self.top_names and func.id not in self.imports:
            return f"{self.module}.{func.id}"
        return qualify(func, self.imports, self.locals)

    def _factory_products(self) -> tuple[tuple[str | None, ...], bool, str | None]:
        """What a factory hands back (see `FunctionSummary.factory_products`): every own `return` (not those of
        the functions inside) returns the same name, or tuples of one length naming the same function at each
        position (a tuple display, or a call `Rec(f, g)` of one class of this module, positional arguments only),
        each a `def` made once among the function's own statements and never rebound."""
        returns = self._own_returns()
        if not returns or any(r.value is None for r in returns):
            return (), False, None
        first = returns[0].value
        record = (first.func.id if isinstance(first, ast.Call) and isinstance(first.func, ast.Name)
                  and first.func.id in self.top_names and not first.keywords
                  and not any(isinstance(a, ast.Starred) for a in first.args) else None)

        def elements(value: ast.expr | None) -> list[ast.expr] | None:
            if isinstance(value, ast.Tuple) and record is None:
                return value.elts if not any(isinstance(e, ast.Starred) for e in value.elts) else None
            if record is not None and isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and (
                    value.func.id == record and not value.keywords):
                return value.args if not any(isinstance(e, ast.Starred) for e in value.args) else None
            return None
        as_tuple = elements(first) is not None
        width = len(elements(first) or [first])
        columns: list[list[ast.expr]] = [[] for _ in range(width)]
        for r in returns:
            parts = elements(r.value) if as_tuple else [r.value]
            if parts is None or len(parts) != width:
                return (), False, None
            for i, element in enumerate(parts):
                columns[i].append(element)  # type: ignore[arg-type]
        own_defs = [n.name for n in self.node.body if isinstance(n, ast.FunctionDef)]
        products: list[str | None] = []
        for column in columns:
            names = {e.id if isinstance(e, ast.Name) else None for e in column}
            name = names.pop() if len(names) == 1 else None
            made = (name is not None and own_defs.count(name) == 1 and name not in self.locals
                    and sum(1 for d in _breadth_first(self.node) if isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and d.name == name) == 1)
            products.append(self._nested_target(name) if made and name is not None else None)
        if not any(products):
            return (), False, None
        return tuple(products), as_tuple, f"{self.module}.{record}" if as_tuple and record is not None else None

    def _branches(self, call: ast.Call, q: str | None, position: int | None) -> CallSite | None:
        """A key handed to `lax.cond(pred, f, g, *operands)` (`lax.switch(i, [f, g], *operands)`) whose branches
        are functions defined in this one: one site naming every branch (exactly one of them runs)."""
        if position is None or q not in ("jax.lax.cond", "jax.lax.switch"):
            return None
        first = 3 if q == "jax.lax.cond" else 2
        if position < first or any(isinstance(a, ast.Starred) for a in call.args[:position]):
            return None
        if q == "jax.lax.cond":
            names = call.args[1:3]
        else:
            names = call.args[1].elts if len(call.args) > 1 and isinstance(call.args[1], (ast.List, ast.Tuple)) else []
        targets: list[str] = []
        for name in names:
            target = self._nested_target(name.id) if isinstance(name, ast.Name) else None
            if target is None:
                return None
            targets.append(target)
        return CallSite("|".join(targets), position - first, None, self._always(call)) if targets else None

    def _defs(self) -> dict[str, tuple[ast.FunctionDef, str]]:
        """The functions defined in this one (and in those enclosing it), by name: (node, qualified name)."""
        if self._own_defs is None:  # (one walk per function: it was one per call met by name)
            own: list[tuple[str, tuple[ast.FunctionDef, str]]] = []
            for n in _breadth_first(self.node):  # (ast.walk's order, without the leaves: no generator per node)
                if isinstance(n, ast.FunctionDef) and n is not self.node and self.parents.get(n) is not None:
                    own.append((n.name, (n, f"{self.qualname}.<locals>.{n.name}")))
            self._own_defs = own
        found = dict(self.outer_defs)
        found.update(self._own_defs)
        return found

    def _nested_target(self, name: str) -> str | None:
        """The qualified name of a function defined inside this one (or beside it, in the function enclosing
        it) called by name, its summary made when first met; None when the name is no such function or is
        rebound."""
        if name in self.locals:
            return None
        defs = self._defs()
        if name not in defs:
            return None
        node, qualname = defs[name]
        if qualname not in self.nested:
            inner = _Function(_Walk(node, self.imports), self.module, qualname, self.imports, self.top_names, None,
                              nested=self.nested)
            inner.outer_defs = defs
            self.nested[qualname] = FunctionSummary(self.module, qualname, (), (), True, False)  # while it is built
            self.nested[qualname] = inner.summary()
        return f"{self.module}.{qualname}"

    def _typed_receiver(self, call: ast.Call) -> str | None:
        """`config.gradient_config.recorder.compress(...)` with `config` a parameter annotated with a class of the
        project: the method of the classes the annotations of the parameter and of the fields on the way name
        ("chain:A,B:field.field:method"; resolved by the index, every implementation asked)."""
        func = call.func
        if not isinstance(func, ast.Attribute):
            return None
        attrs: list[str] = []
        base = func.value
        while isinstance(base, ast.Attribute):
            attrs.insert(0, base.attr)
            base = base.value
        if not isinstance(base, ast.Name) or base.id in ("self", "cls") or base.id in self.locals:
            return None
        a = self.node.args
        param = next((p for p in [*a.posonlyargs, *a.args, *a.kwonlyargs] if p.arg == base.id), None)
        classes = annotation_classes(param.annotation if param is not None else None, self.module, self.imports,
                                     self.top_names)
        if not classes:
            return None
        return f"chain:{','.join(classes)}:{'.'.join(attrs)}:{func.attr}"

    def _held_receiver(self, call: ast.Call) -> str | None:
        """`self.noise.apply(key, ...)` in a method: the method of whatever the object holds in the attribute
        ("attr:pkg.mod.Class:noise:apply"; resolved by the index from what the class and its relatives assign
        to it, and from how the object was constructed where the caller knows: see `held_classes`)."""
        func = call.func
        if (self.cls is None or _constructs(call) or not isinstance(func, ast.Attribute)
                or not isinstance(func.value, ast.Attribute) or not isinstance(func.value.value, ast.Name)
                or func.value.value.id != "self" or "self" in self.locals):
            return None
        return f"attr:{self.module}.{self.cls}:{func.value.attr}:{func.attr}"

    def _iterated_receiver(self, call: ast.Call) -> str | None:
        """`metric.init(key)` with `metric` bound only as the value target of `for name, metric in
        self.metrics.items()` (or `for metric in self.metrics.values()`, `for metric in self.metrics`), in a
        comprehension or a loop: the method of whatever the attribute's elements are
        ("attr:pkg.mod.Class:metrics[]:init"; see `held_classes`)."""
        func = call.func
        if self.cls is None or _constructs(call) or not (isinstance(func, ast.Attribute)
                                                         and isinstance(func.value, ast.Name)):
            return None
        name = func.value.id
        stores = [n for n in walk_nodes(self.node) if isinstance(n, ast.Name) and n.id == name
                  and not isinstance(n.ctx, ast.Load)]
        if len(stores) != 1:
            return None
        target: ast.AST = stores[0]
        holder = self.parents.get(target)
        if isinstance(holder, ast.Tuple) and len(holder.elts) == 2 and holder.elts[1] is target:
            target, holder = holder, self.parents.get(holder)
            method = "items"
        else:
            method = "values"
        if not (isinstance(holder, (ast.comprehension, ast.For)) and holder.target is target):
            return None
        source = holder.iter
        if isinstance(source, ast.Call) and isinstance(source.func, ast.Attribute) and not source.args:
            if source.func.attr != method:
                return None
            source = source.func.value
        elif method == "items":
            return None
        if not (isinstance(source, ast.Attribute) and isinstance(source.value, ast.Name) and source.value.id == "self"):
            return None
        return f"attr:{self.module}.{self.cls}:{source.attr}[]:{func.attr}"

    def _narrowed(self, call: ast.Call) -> str | None:
        """`m.compress(...)` in the body of `if isinstance(m, Cls):` with `Cls` a class the imports name: every
        implementation of the method in `Cls` and its subclasses may run ("impl:pkg.mod.Cls.compress")."""
        func = call.func
        if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)) or func.value.id in ("self", "cls"):
            return None
        receiver = func.value.id
        child: ast.AST = call
        cur = self.parents.get(call)
        while cur is not None and cur is not self.node:
            if isinstance(cur, ast.If) and any(child is st for st in cur.body):
                test = cur.test
                if (isinstance(test, ast.Call) and isinstance(test.func, ast.Name) and test.func.id == "isinstance"
                        and len(test.args) == 2 and isinstance(test.args[0], ast.Name)
                        and test.args[0].id == receiver):
                    cls = test.args[1]
                    name = qualify(cls, self.imports, self.locals) if not (
                        isinstance(cls, ast.Name) and cls.id in self.top_names) else f"{self.module}.{cls.id}"
                    assigned = any(isinstance(n, ast.Name) and n.id == receiver and not isinstance(n.ctx, ast.Load)
                                   and cur.lineno <= getattr(n, "lineno", 0) <= call.lineno for n in walk_nodes(cur))
                    return f"impl:{name}.{func.attr}" if name is not None and not assigned else None
            child, cur = cur, self.parents.get(cur)
        return None

    def _transparent(self, decorator: ast.expr) -> bool:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        name = dotted(target) or ""
        last = name.rsplit(".", 1)[-1]
        if last == "partial" and isinstance(decorator, ast.Call) and decorator.args:
            return self._transparent(decorator.args[0])
        return last in _TRANSPARENT or last.endswith("jit") or last == "setter"

    def _param(self, name: str) -> ParamSummary:
        uses: set[str] = set()
        direct: str | None = None
        calls: list[CallSite] = []
        consuming: list[ast.Name] = []  # the reads that may consume it (a draw, a split, a call that may)
        tracked = {name}
        loads = self._loads(tracked)
        if not loads:
            return ParamSummary(name, frozenset({"ignore"}), None)
        for load in loads:
            use, strength, site = self._use(load, tracked)
            uses.add(use)
            pieces = self._split_pieces(load, tracked) if use == "split" else None
            if pieces is not None:  # what the split gives is followed: the split alone draws nothing
                strength = self._pieces_consumption(pieces, strength, tracked, calls, 0)
            if site is not None:
                calls.append(site)
                consuming.append(load)
            if strength is not None and (direct is None or strength == "always"):
                direct = strength
                consuming.append(load)
        return ParamSummary(name, frozenset(uses), direct, tuple(dict.fromkeys(calls)),
                            self._only_without(consuming, name) if consuming else None)

    def _only_without(self, loads: list[ast.Name], key: str) -> str | None:
        """The parameter P (not `key`) such that each of `loads` runs only while P is None (`_none_guards`), P
        bound nowhere in the function but inside such a branch. None when there is no such parameter."""
        args = self.node.args
        params = {p.arg for p in [*args.posonlyargs, *args.args, *args.kwonlyargs]} - {key, "self", "cls"}
        common = set(params)
        for load in loads:
            common &= self._none_guards(load)
            if not common:
                return None
        return next((name for name in sorted(common)
                     if all(name in self._none_guards(store) for store in self.stores.get(name, ()))), None)

    def _none_guards(self, node: ast.AST) -> set[str]:
        """The names N such that `node` runs only while N is None: inside `if N is None:`, the `else` of `if N is
        not None:`, or the matching side of `... if N is None else ...`, in this function."""
        guards: set[str] = set()
        child: ast.AST = node
        cur = self.parents.get(node)
        while cur is not None and cur is not self.node:
            if isinstance(cur, (ast.If, ast.IfExp)) and (tested := none_test(cur.test)) is not None:
                body = cur.body if isinstance(cur, ast.If) else [cur.body]
                orelse = cur.orelse if isinstance(cur, ast.If) else [cur.orelse]
                if any(child is n for n in (body if tested[1] else orelse)):
                    guards.add(tested[0])
            child, cur = cur, self.parents.get(cur)
        return guards

    def _star_param(self, name: str) -> ParamSummary:
        """The `*args` parameter: a tuple whose elements are the arguments, so besides what `_param` follows
        (`args[0]`, `g(*args)`, copies) a loop or comprehension over it hands each argument to its target, whose
        uses count as the tuple's; an element unpacked (`a, b = args`) or a loop target that is no plain name is
        not followed: "maybe"."""
        summary = self._param(name)
        targets: set[str] = set()
        for load in self._loads({name}):
            parent = self.parents.get(load)
            if (isinstance(parent, ast.Call) and load in parent.args[1:]
                    and (qualify(parent.func, self.imports, self.locals) or "").startswith("jax.tree")
                    and not self._asks_only(parent.args[0])):
                # `tree_map(f, args)` calls f on each argument (`_param` ignores a key handed to jax.tree):
                # draws nothing only when f only asks what its argument is
                return ParamSummary(name, summary.uses | {"call"}, "maybe", summary.calls)
            if isinstance(parent, (ast.For, ast.AsyncFor, ast.comprehension)) and parent.iter is load:
                if not isinstance(parent.target, ast.Name):
                    return ParamSummary(name, summary.uses | {"call"}, "maybe", summary.calls)
                targets.add(parent.target.id)
            elif isinstance(parent, ast.Assign) and parent.value is load and not all(
                    isinstance(t, ast.Name) for t in parent.targets):
                return ParamSummary(name, summary.uses | {"call"}, "maybe", summary.calls)
        uses, direct, calls = set(summary.uses), summary.direct, list(summary.calls)
        for target in sorted(targets):
            element = self._param(target)
            uses |= element.uses
            calls += element.calls
            if element.direct is not None and (direct is None or element.direct == "always"):
                direct = element.direct
        return ParamSummary(name, frozenset(uses), direct, tuple(dict.fromkeys(calls)))

    def _asks_only(self, function: ast.expr) -> bool:
        """A lambda (or a name this function binds once, to a lambda) whose body calls nothing but `isinstance`,
        `issubclass`, `type`, `hasattr`, `callable` and `len`: it only asks what its argument is."""
        if isinstance(function, ast.Name):
            bound = [n.value for n in walk_nodes(self.node) if isinstance(n, ast.Assign)
                     and any(isinstance(t, ast.Name) and t.id == function.id for t in n.targets)]
            if len(bound) != 1:
                return False
            function = bound[0]
        if not isinstance(function, ast.Lambda):
            return False
        return all(isinstance(n.func, ast.Name) and n.func.id in _ASKING
                   for n in walk_nodes(function.body) if isinstance(n, ast.Call))

    def _split_pieces(self, load: ast.Name, tracked: set[str]) -> list[str] | None:
        """The names a split of the key is bound to (`key, subkey = split(key)`, `keys = split(key, n)`), those
        not already followed as the key itself; None when the split's result goes elsewhere (returned, handed to
        a call, stored): then the split counts as before."""
        node: ast.AST = load
        parent = self.parents.get(node)
        while isinstance(parent, (ast.Subscript, ast.Starred, ast.keyword)):
            node, parent = parent, self.parents.get(parent)
        if not isinstance(parent, ast.Call):
            return None
        stmt = self.parents.get(parent)
        if not (isinstance(stmt, ast.Assign) and stmt.value is parent):
            return None
        names: list[str] = []
        for target in stmt.targets:
            elements = target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target]
            for element in elements:
                element = element.value if isinstance(element, ast.Starred) else element
                if not isinstance(element, ast.Name):
                    return None  # stored on self, in a container: kept for a later draw elsewhere
                names.append(element.id)
        return [n for n in names if n not in tracked and n != "_"]

    def _zipped_into(self, load: ast.Name) -> str | None:
        """`keyed = dict(zip(names, keys))` with `keys` this load: the plain name the dict is bound to, whose
        values are the keys (followed as pieces, see `_pieces_consumption`); None for anything else."""
        zipped = self.parents.get(load)
        outer = self.parents.get(zipped) if isinstance(zipped, ast.Call) else None
        stmt = self.parents.get(outer) if isinstance(outer, ast.Call) else None
        if not (isinstance(zipped, ast.Call) and isinstance(zipped.func, ast.Name) and zipped.func.id == "zip"
                and len(zipped.args) == 2 and zipped.args[1] is load and not zipped.keywords
                and isinstance(outer, ast.Call) and isinstance(outer.func, ast.Name) and outer.func.id == "dict"
                and outer.args == [zipped] and not outer.keywords and {"zip", "dict"}.isdisjoint(self.locals)
                and isinstance(stmt, ast.Assign) and stmt.value is outer and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], ast.Name)):
            return None
        return stmt.targets[0].id

    def _moved_on(self, load: ast.Name) -> bool:
        """A key handed to a call the index cannot follow that is no method of an object of unknown class: a
        builtin that passes it on (`zip(keys, xs)`), a local function or `vmap(f)`; its pieces stay in code that
        uses them as keys. (`obj.place_on_grid(key=k)` is asked as any such call: maybe.)"""
        node: ast.AST = load
        parent = self.parents.get(node)
        while isinstance(parent, (ast.Subscript, ast.Starred, ast.keyword)) and getattr(parent, "value", None) is node:
            node, parent = parent, self.parents.get(parent)
        if not isinstance(parent, ast.Call):
            return False
        func = parent.func
        return qualify(func, self.imports, self.locals) is not None or not (
            isinstance(func, ast.Attribute) and not (isinstance(func.value, ast.Name) and func.value.id in ("self", "cls")))

    def _surely_unread(self, load: ast.Name) -> bool:
        """A read of a key that surely draws nothing: its `.shape`, a format, a test, or an argument a known
        call ignores (a logger, a sampler's shape); not one whose value moves on (`zip(keys, xs)`, a loop)."""
        node: ast.AST = load
        parent = self.parents.get(node)
        while isinstance(parent, (ast.Subscript, ast.Starred)) and getattr(parent, "value", None) is node:
            node, parent = parent, self.parents.get(parent)
        if isinstance(parent, ast.keyword):
            parent = self.parents.get(parent)
        if isinstance(parent, ast.Call) and (qualify(parent.func, self.imports, self.locals) or "").startswith(
                ("jax.tree", "jax.numpy.", "jax.lax.")):
            return False  # tree_unflatten(structure, keys), jnp.stack(keys): the keys move on
        return isinstance(parent, (ast.Call, ast.Attribute, ast.FormattedValue, ast.JoinedStr, ast.Compare, ast.If, ast.IfExp, ast.Assert, ast.BoolOp, ast.UnaryOp, ast.While, ast.BinOp))

    def _pieces_consumption(self, pieces: list[str], cap: str | None, tracked: set[str], calls: list[CallSite],
                            depth: int) -> str | None:
        """How surely a function draws from the keys a split gave (`pieces`), at most as surely as the split runs
        (`cap`): drawn, split again and drawn, handed to a function (asked through its call site), returned or
        stored (they leave: as sure as the split). Pieces that are deleted, ignored or only shown draw nothing,
        and neither does the split that made them: splitting alone draws no number."""
        best: str | None = None
        for piece in pieces:
            followed = {piece}
            for load in self._loads(followed):
                zipped = self._zipped_into(load) if depth < 4 else None
                if zipped is not None:  # keyed = dict(zip(names, keys)): its values are the pieces
                    strength = self._pieces_consumption([zipped], cap, tracked | followed, calls, depth + 1)
                    if strength is not None and (best is None or strength == "always"):
                        best = strength
                    continue
                use, strength, site = self._use(load, followed | tracked)
                if use == "split" and depth < 4:
                    more = self._split_pieces(load, followed | tracked)
                    if more is not None:
                        strength = self._pieces_consumption(more, strength, tracked | followed, calls, depth + 1)
                if use in ("return", "store") or (use == "call" and site is None and (
                        self._nested(load) or self._moved_on(load))) or (
                        use == "ignore" and not self._surely_unread(load)):
                    strength = cap  # it leaves, or moves on where we cannot follow it (zip(keys, xs), a loop)
                if site is not None:  # a piece mapped over a function (vmap(f)(keys)): as sure as the split, as
                    # when the index could not see the function, unless the function draws nothing from it
                    sure = cap == "always" if self._mapped_argument(load) else site.always and cap == "always"
                    calls.append(dataclasses.replace(site, always=sure))
                strength = None if strength is None or cap is None else (
                    "always" if strength == "always" and cap == "always" else "maybe")
                if strength is not None and (best is None or strength == "always"):
                    best = strength
        return best

    def _loads(self, tracked: set[str]) -> list[ast.Name]:
        """Loads of the parameter and of plain local copies of it (`rng = key`), in the function and the
        functions inside it."""
        grew = bool(self.copies)
        while grew:
            grew = False
            for target, source in self.copies:
                if source in tracked and target not in tracked:
                    tracked.add(target)
                    grew = True
        found: list[ast.Name] = []
        for name in tracked:
            for n in self.loads.get(name, ()):
                parent = self.parents.get(n)
                if isinstance(parent, ast.Assign) and parent.value is n and all(
                        isinstance(t, ast.Name) and t.id in tracked for t in parent.targets):
                    continue  # the copy itself
                if self._shadowed(n):
                    continue  # `def helper(m, key): ...` inside: its own parameter, another value
                found.append(n)
        return found

    def _shadowed(self, load: ast.Name) -> bool:
        """A load inside a function nested in this one that has a parameter of that name."""
        cur = self.parents.get(load)
        while cur is not None and cur is not self.node:
            if isinstance(cur, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                a = cur.args
                if any(p.arg == load.id for p in [*a.posonlyargs, *a.args, *a.kwonlyargs, *(
                        x for x in (a.vararg, a.kwarg) if x is not None)]):
                    return True
            cur = self.parents.get(cur)
        return False

    def _nested(self, node: ast.AST) -> bool:
        cur = self.parents.get(node)
        while cur is not None and cur is not self.node:
            if isinstance(cur, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                return True
            cur = self.parents.get(cur)
        return False

    def _always(self, node: ast.AST) -> bool:
        """Whether a node runs on every path that returns: in a top-level statement of the body that is no branch
        or loop, outside conditional expressions, with no return before it (a guard that only raises never
        returns to the caller: what follows it runs whenever the call returns)."""
        top = node
        while self.parents.get(top) is not self.node:
            parent = self.parents.get(top)
            if parent is None or isinstance(parent, (ast.IfExp, ast.BoolOp)):
                return False
            top = parent
        body = self.node.body
        if isinstance(top, (ast.If, ast.For, ast.While, ast.Try, ast.With, ast.Match, ast.AsyncFor, ast.AsyncWith)) or not isinstance(top, ast.stmt):
            return False
        if self._first_exit is None:  # the first statement of the body that may leave it, found once
            # (the statement of the body each `return` of the walk is in, nested functions included: what an
            # ast.walk of each statement in turn found; a `raise` never returns, so a guard that only raises is no exit)
            index = {id(stmt): i for i, stmt in enumerate(body)}
            first = len(body)
            for node in self._exits:
                if type(node) is not ast.Return:
                    continue
                while (up := self.parents.get(node)) is not self.node and up is not None:
                    if isinstance(up, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                        break  # a nested function's `return` leaves that function, not this one
                    node = up
                if up is not self.node:
                    continue
                first = min(first, index.get(id(node), first))
            self._first_exit = first
        at = next((i for i, stmt in enumerate(body) if stmt is top), None)
        return at is not None and at <= self._first_exit

    def _use(self, load: ast.Name, tracked: set[str]) -> tuple[str, str | None, CallSite | None]:
        """What one read of the parameter does: (use, consumption strength or None, call site)."""
        if self._nested(load):
            return "call", "maybe", None  # a closure that may draw from it
        node: ast.AST = load
        parent = self.parents.get(node)
        while (isinstance(parent, ast.Subscript) and parent.value is node) or isinstance(parent, ast.Starred):
            node, parent = parent, self.parents.get(parent)  # an element of a key array: used as the key
        if isinstance(parent, (ast.FormattedValue, ast.JoinedStr)):
            return "ignore", None, None
        if isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.Mod) and isinstance(parent.left, ast.Constant):
            return "ignore", None, None  # "%s" % key
        if isinstance(parent, ast.Attribute):
            return "ignore", None, None  # key.shape, key.dtype
        if isinstance(parent, (ast.Compare, ast.If, ast.IfExp, ast.Assert, ast.BoolOp, ast.UnaryOp, ast.While)):
            return "ignore", None, None
        if isinstance(parent, (ast.Return, ast.Yield)) or (isinstance(parent, (ast.Tuple, ast.List, ast.Dict)) and (
                isinstance(self.parents.get(parent), ast.Return))):
            return "return", None, None
        if isinstance(parent, (ast.Assign, ast.AnnAssign)) and parent.value is node:
            targets = parent.targets if isinstance(parent, ast.Assign) else [parent.target]
            stored_on_self = [t.attr for t in targets if isinstance(t, ast.Attribute)
                              and isinstance(t.value, ast.Name) and t.value.id == "self"]
            if stored_on_self and all(attr not in self.class_reads for attr in stored_on_self):
                return "ignore", None, None  # stored on self and never read
            if stored_on_self or any(isinstance(t, (ast.Attribute, ast.Subscript)) for t in targets):
                return "store", "maybe", None  # kept for a later draw elsewhere
            return "store", None, None
        if isinstance(parent, (ast.Tuple, ast.List, ast.Dict, ast.Set, ast.keyword)):
            holder = self.parents.get(parent) if not isinstance(parent, ast.keyword) else parent
            if isinstance(parent, ast.keyword):
                call = self.parents.get(parent)
                if isinstance(call, ast.Call):
                    return self._call_use(call, node, parent.arg)
            if isinstance(holder, ast.keyword) and isinstance(call := self.parents.get(holder), ast.Call):
                return self._container_use(call, parent, holder.arg)
            if isinstance(holder, ast.Call) and not isinstance(parent, ast.keyword):
                return self._container_use(holder, parent, None)
            return "store", None, None
        if isinstance(parent, ast.Call) and node in parent.args:
            return self._call_use(parent, node, None)
        if isinstance(parent, ast.Call) and parent.func is node:
            return "call", "maybe", None  # the key called?: unknown
        return "ignore", None, None

    def _container_use(self, call: ast.Call, container: ast.AST,
                       keyword: str | None) -> tuple[str, str | None, CallSite | None]:
        """A key in a container literal handed to a call (`model.apply(v, x, rngs={"dropout": key})`,
        `f([key, other])`): the callee reads it. What the call does with the container, as `_call_use` says of it,
        at most "maybe" (which entry it draws from is not known here); never "draws nothing" for a call that may
        read it, except the calls `_call_use` knows to keep or ignore their arguments."""
        use, _, _ = self._call_use(call, container, keyword)
        if use in ("ignore", "store", "return", "derive"):
            return use, None, None
        return "call", "maybe", None

    def _call_use(self, call: ast.Call, arg: ast.AST, keyword: str | None) -> tuple[str, str | None, CallSite | None]:
        always = self._always(call)
        strength = "always" if always else "maybe"
        q = qualify(call.func, self.imports, self.locals)
        func_name = call.func.id if isinstance(call.func, ast.Name) else None
        if q is not None and q.startswith("jax.random."):
            name = q.rsplit(".", 1)[1]
            key = next((kw.value for kw in call.keywords if kw.arg == "key"), call.args[0] if call.args else None)
            if arg is not key:
                return "ignore", None, None  # a shape, a mean, a count
            if name in _RANDOM_KEEPING:
                return "ignore", None, None
            if name == "fold_in":
                return "derive", None, None
            return ("split" if name == "split" else "draw"), strength, None
        if (q or func_name) in _LOOKING or (q or "").startswith(("logging.", "jax.numpy.", "jax.tree", "numpy.")):
            return "ignore", None, None  # (NumPy cannot draw from a JAX key: `np.asarray(key)` copies its data)
        if isinstance(call.func, ast.Attribute):
            if call.func.attr in _LOGGING_METHODS:
                return "ignore", None, None
            if call.func.attr in _STORING_METHODS and q is None:
                return "store", None, None
        if (q or "").rsplit(".", 1)[-1].endswith("eval_shape") or self._lowered(call):
            return "ignore", None, None  # abstract evaluation and ahead-of-time lowering draw nothing
        if q == "functools.partial" and self._abstract_only(call):
            return "ignore", None, None  # partial(init, ..., key) run only under jax.eval_shape
        if (q or "").startswith("chex.assert"):
            return "ignore", None, None  # chex's assertions read shapes, types and values; they draw nothing
        called = (dotted(call.func) or "").rsplit(".", 1)[-1]
        if called.lstrip("_").split("_", 1)[0].lower() in _SAVING_VERBS:
            return "store", None, None  # save_checkpoint(path, key), np.savez(f, key=key): kept, not drawn from
        position = call.args.index(arg) if keyword is None and arg in call.args else None  # type: ignore[arg-type]
        if position is not None and any(isinstance(a, ast.Starred) for a in call.args[:position]):
            return "call", "maybe", None
        mapped = self._mapped_partial(call)
        if mapped is not None:  # vmap(partial(f, model))(keys, xs): f's parameters after those the partial filled
            inner, filled = mapped
            site = self._function_target(inner)
            if site is not None and not site.startswith("jax."):
                return "call", None, CallSite(site, None if position is None else position + len(filled), keyword,
                                              always)
        target: str | None = None
        nested = self._nested_target(func_name) if func_name is not None else None
        if nested is not None:
            target = nested
        elif func_name is not None and func_name not in self.locals:
            if func_name in self.imports:
                target = self.imports[func_name]
            elif func_name in self.top_names:
                target = f"{self.module}.{func_name}"
        elif q is not None:
            target = q
        elif (isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name)
              and call.func.value.id in ("self", "cls") and self.cls is not None):
            target = f"self.{call.func.attr}"
        elif self.cls is not None and (attr := super_attribute(call.func)) is not None:
            target = f"super.{attr}"  # `super().__init__(..., key=key)`: the base's method
        if target is None and isinstance(call.func, ast.Attribute):
            target = (self._narrowed(call) or self._typed_receiver(call) or self._held_receiver(call)
                      or self._iterated_receiver(call))
        if target is not None and target.startswith("jax.lax."):
            branches = self._branches(call, target, position)
            if branches is not None:
                return "call", None, branches
        if target is None or target.split(".")[0] in ("jax",):
            return "call", strength if target is None and _constructs(call) else "maybe", None
        return "call", None, CallSite(target, position, keyword, always, self._passes(call, arg))

    def _passes(self, call: ast.Call, key: ast.AST) -> tuple[tuple[str, str], ...]:
        """The other arguments of `call` known not to be None (CallSite.passes): a value that cannot be None, or
        a parameter of this function read unchanged (bound nowhere in it)."""
        args = self.node.args
        params = {p.arg for p in [*args.posonlyargs, *args.args, *args.kwonlyargs]}
        out: list[tuple[str, str]] = []
        given = [(f"#{i}", a) for i, a in enumerate(call.args) if not isinstance(a, ast.Starred)] if not any(
            isinstance(a, ast.Starred) for a in call.args) else []
        for where, value in [*given, *((kw.arg, kw.value) for kw in call.keywords if kw.arg is not None)]:
            if value is key:
                continue
            if isinstance(value, ast.Name) and value.id in params and value.id not in self.stores:
                out.append((where, f"param:{value.id}"))
            elif never_none(value):
                out.append((where, "value"))
        return tuple(out)


    def _mapped_partial(self, call: ast.Call) -> tuple[ast.expr, list[ast.expr]] | None:
        """The function a call runs through `functools.partial` and the transformations that pass arguments on or
        map them (`eqx.filter_vmap(partial(single_loss, model))(keys, xs)`, `fn(key, x)` with `fn = partial(f, w)`
        bound once, `jax.vmap(f, in_axes=(None, 0))(w, keys)`), with how many leading positional parameters the
        partial filled; None for any other call (key_flow's `mapped_partial_callee` for the analysed module)."""
        def bound_once(name: ast.Name) -> ast.expr | None:
            if name.id not in self.locals:
                return name
            stores = [n for n in walk_nodes(self.node) if isinstance(n, ast.Name) and n.id == name.id
                      and not isinstance(n.ctx, ast.Load)]
            bound = [n.value for n in walk_nodes(self.node) if isinstance(n, ast.Assign) and len(n.targets) == 1
                     and n.targets[0] in stores]
            return bound[0] if len(stores) == 1 and len(bound) == 1 else None  # fn = partial(f, w), bound once

        return through_partial(call, lambda e: qualify(e, self.imports, self.locals), bound_once)

    def _mapped_argument(self, load: ast.Name) -> bool:
        """A key handed to a call through `functools.partial`/`jax.vmap`/`jax.jit` (see `_mapped_partial`)."""
        node: ast.AST = load
        parent = self.parents.get(node)
        while isinstance(parent, (ast.Subscript, ast.Starred, ast.keyword)) and getattr(parent, "value", None) is node:
            node, parent = parent, self.parents.get(parent)
        return isinstance(parent, ast.Call) and self._mapped_partial(parent) is not None

    def _function_target(self, func: ast.expr) -> str | None:
        """The qualified name of a function named by `func` (a function of this module, an imported one, or a
        dotted name through an import); None for a local value or anything unknown."""
        if isinstance(func, ast.Name):
            nested = self._nested_target(func.id)
            if nested is not None:
                return nested
            if func.id in self.locals:
                return None
            if func.id in self.imports:
                return self.imports[func.id]
            return f"{self.module}.{func.id}" if func.id in self.top_names else None
        return qualify(func, self.imports, self.locals)

    def _lowered(self, call: ast.Call) -> bool:
        """`jax.jit(f).lower(x, key)` (`.trace(...)`) and `jax.make_jaxpr(f)(x, key)`: traced on abstract values,
        nothing is drawn (the key is as fresh for the first real call as before)."""
        func = call.func
        if isinstance(func, ast.Call):
            return (qualify(func.func, self.imports, self.locals) or "").rsplit(".", 1)[-1] == "make_jaxpr"
        if not (isinstance(func, ast.Attribute) and func.attr in ("lower", "trace") and isinstance(func.value, ast.Call)):
            return False
        wrapper = func.value.func
        if isinstance(wrapper, ast.Call) and (dotted(wrapper.func) or "").rsplit(".", 1)[-1] == "partial" and wrapper.args:
            wrapper = wrapper.args[0]  # partial(jax.jit, static_argnums=1)(f).lower(...)
        return (qualify(wrapper, self.imports, self.locals) or dotted(wrapper) or "").rsplit(".", 1)[-1] in (
            "jit", "pjit", "filter_jit")

    def _abstract_only(self, call: ast.Call) -> bool:
        """`p = functools.partial(init, ..., key)` whose every use is abstract evaluation: `jax.eval_shape(p)`,
        `jax.jit(p, ...).eval_shape()`. Shapes and dtypes are computed; no number is drawn."""
        stmt = self.parents.get(call)
        if not (isinstance(stmt, ast.Assign) and stmt.value is call and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], ast.Name)):
            return False
        uses = self.loads.get(stmt.targets[0].id, [])
        for use in uses:
            parent = self.parents.get(use)
            if not isinstance(parent, ast.Call) or use not in parent.args:
                return False
            name = qualify(parent.func, self.imports, self.locals) or dotted(parent.func) or ""
            if name.rsplit(".", 1)[-1].endswith("eval_shape"):
                continue
            above = self.parents.get(parent)
            if (name.rsplit(".", 1)[-1] in ("jit", "pjit") and parent.args[0] is use
                    and isinstance(above, ast.Attribute) and above.attr == "eval_shape"
                    and isinstance(self.parents.get(above), ast.Call)):
                continue
            return False
        return bool(uses)


_PURE_METHODS = frozenset({"init", "apply", "init_with_output"})  # flax / haiku / stax: functions of their inputs
_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def returned_carriers(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda, names: list[str]
                      ) -> tuple[tuple[str, tuple[int, ...]], ...] | None:
    """For a function whose every own `return` is a tuple of one length n >= 2: for each parameter of `names`,
    the positions of that tuple whose expression reads a value computed from the parameter (`variables =
    mlp.init(key, x)`, `params = variables["params"]`, ... `return mlp, params`: `key` reaches position 1 only).
    A value computed from a parameter moves on through assignments (of any target: a local container written
    into holds it), `for` targets and `with ... as`, and into the object whose method is called with it (other
    than the pure `init`/`apply` of flax, haiku and stax modules); None (unknown) as soon as such a value may be
    kept where the caller can reach it other than by the returned tuple: stored into an attribute, handed to a
    call whose result is discarded, yielded, read by a nested function or class, or bound to a `global` /
    `nonlocal` name. A caller that discards those positions (`mlp, _ = init_mlp(key, ...)`) gets nothing drawn
    from the key."""
    if isinstance(node, ast.Lambda):
        return None
    own: list[ast.AST] = []
    returns: list[ast.Return] = []
    stack: list[ast.AST] = list(node.body)
    while stack:
        n = stack.pop()
        if isinstance(n, _DEFINITIONS):
            own.append(n)
            continue
        if isinstance(n, (ast.Yield, ast.YieldFrom, ast.Global, ast.Nonlocal, ast.Await)):
            return None
        if isinstance(n, ast.Return):
            returns.append(n)
        own.append(n)
        stack.extend(ast.iter_child_nodes(n))
    if not returns or any(not isinstance(r.value, ast.Tuple) for r in returns):
        return None
    sizes = {len(r.value.elts) for r in returns if isinstance(r.value, ast.Tuple)}
    if len(sizes) != 1 or sizes.pop() < 2 or any(isinstance(e, ast.Starred) for r in returns
                                                  if isinstance(r.value, ast.Tuple) for e in r.value.elts):
        return None
    statements = [n for n in own if isinstance(n, ast.stmt) and not isinstance(n, _DEFINITIONS)]
    args = node.args
    local = {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]} | {
        n.id for n in own if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    local |= {a.arg for a in (args.vararg, args.kwarg) if a is not None}
    local -= {"self", "cls"}
    facts = [_statement_facts(stmt) for stmt in statements]  # read once, asked once per parameter
    nested = set().union(*(_reads(d) for d in own if isinstance(d, _DEFINITIONS)))
    width = len(returns[0].value.elts)  # type: ignore[union-attr]
    returned = [set().union(*(_reads(r.value.elts[i]) for r in returns if isinstance(r.value, ast.Tuple)))
                for i in range(width)]
    out: list[tuple[str, tuple[int, ...]]] = []
    for name in names:
        tainted = _tainted_from(name, facts, local)
        if tainted is None or tainted & nested:
            return None  # kept where a caller may reach it, or read by a nested function or class
        out.append((name, tuple(i for i in range(width) if returned[i] & tainted)))
    return tuple(out)


def _returns_and_bound(node: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[list[ast.Return], list[str]]:
    """One walk of a function's own body (not the functions, lambdas and classes inside it): its `return`s and
    the names it binds, once per binding (assigned, deleted, or defined by a nested `def`/`class`)."""
    returns: list[ast.Return] = []
    bound: list[str] = []
    todo: list[ast.AST] = list(node.body)
    while todo:
        current = todo.pop()
        if isinstance(current, ast.Return):
            returns.append(current)
        elif isinstance(current, ast.Name) and not isinstance(current.ctx, ast.Load):
            bound.append(current.id)
        if isinstance(current, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.append(current.name)
        elif not isinstance(current, ast.Lambda):
            todo.extend(ast.iter_child_nodes(current))
    return returns, bound


def _returns_its_argument(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether every `return` of the function hands back its one positional parameter, never rebound: a
    decorator that hands back what it decorates (`def register(fn): REGISTRY[fn.__name__] = fn; return fn`)."""
    params = [*node.args.posonlyargs, *node.args.args]
    if len(params) != 1 or isinstance(node, ast.AsyncFunctionDef):
        return False
    name = params[0].arg
    returns, bound = _returns_and_bound(node)
    return bool(returns) and name not in bound and all(
        isinstance(r.value, ast.Name) and r.value.id == name for r in returns)


def hands_back(node: ast.FunctionDef | ast.AsyncFunctionDef) -> str:
    """FunctionSummary.hands_back of a module-level function: "direct", "factory" or ""."""
    if node.decorator_list:
        return ""
    if _returns_its_argument(node):
        return "direct"
    returns, bound = _returns_and_bound(node)
    names = {r.value.id for r in returns if isinstance(r.value, ast.Name)}
    if not returns or len(names) != 1 or len(returns) != sum(isinstance(r.value, ast.Name) for r in returns):
        return ""
    name = names.pop()
    defs = [n for n in node.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == name]
    # the nested `def` binds the name once; any other binding makes it another value
    return "factory" if len(defs) == 1 and bound.count(name) == 1 and not defs[0].decorator_list and _returns_its_argument(
        defs[0]) else ""


def _reads(node: ast.AST) -> set[str]:
    return {n.id for n in walk_nodes(node) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Store)}


# what one statement does with names, for _tainted_from: (flows: (names read, target names, writes an attribute,
# writes into a non-Name root) per source and its targets; names read by a call whose result it discards (None
# when it discards none); method calls with arguments: (names the arguments read, the receiver's root name or None
# when it is no name, the method stores what it is given))
_Facts = tuple[list[tuple[set[str], set[str], bool]], set[str] | None, list[tuple[set[str], str | None, bool]]]


def _statement_facts(stmt: ast.stmt) -> _Facts:
    flows: list[tuple[set[str], set[str], bool]] = []

    def flow(source: ast.AST, targets: list[ast.expr]) -> None:
        names: set[str] = set()
        attribute = False
        for target in targets:
            for n in walk_nodes(target):
                if isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Store):
                    attribute = True
                elif isinstance(n, ast.Name):
                    names.add(n.id)
        flows.append((_reads(source), names, attribute))

    if isinstance(stmt, ast.Assign):
        flow(stmt.value, list(stmt.targets))
    elif isinstance(stmt, (ast.AnnAssign, ast.AugAssign)) and stmt.value is not None:
        flow(stmt.value, [stmt.target])
    elif isinstance(stmt, (ast.For, ast.AsyncFor)):
        flow(stmt.iter, [stmt.target])
    elif isinstance(stmt, (ast.With, ast.AsyncWith)):
        for item in stmt.items:
            if item.optional_vars is not None:
                flow(item.context_expr, [item.optional_vars])
    discarded = _reads(stmt.value) if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) else None
    methods: list[tuple[set[str], str | None, bool]] = []
    for call in (n for n in walk_nodes(stmt) if isinstance(n, ast.Call)):
        if not isinstance(call.func, ast.Attribute) or call.func.attr in _PURE_METHODS:
            continue
        if not call.args and not call.keywords:
            continue
        receiver = call.func.value
        while isinstance(receiver, (ast.Attribute, ast.Subscript)):
            receiver = receiver.value
        root = receiver.id if isinstance(receiver, ast.Name) else None
        given = set().union(*(_reads(a) for a in [*call.args, *(k.value for k in call.keywords)]))
        methods.append((given, root, call.func.attr in _STORING_METHODS))
    return flows, discarded, methods


def _tainted_from(param: str, facts: list[_Facts], local: set[str]) -> set[str] | None:
    """The local names that may hold a value computed from `param` (a fixpoint over the statements, so loops are
    followed), or None when such a value may be kept where a caller can reach it otherwise than by a return: an
    attribute store, a call whose result is discarded (`buffer.append(x)`, `register(x)`: what it keeps is not
    known), a write into or a storing method (_STORING_METHODS) of an object that is no local of the function
    (`self`, a module's `CACHE[k] = x`, `LOG.append(x)`), or any method of `self` or of no name; a local object
    a storing method is given it (`draws.append(x)`) holds it."""
    tainted = {param}
    changed = True
    while changed:
        changed = False
        for flows, discarded, methods in facts:
            if discarded is not None and discarded & tainted:
                return None
            for reads, names, attribute in flows:
                if not reads & tainted:
                    continue
                if attribute or not names <= local:
                    return None  # `self.params = ...`, `CACHE[k] = x`: kept on an outside object
                if not names <= tainted:
                    tainted |= names
                    changed = True
            for given, root, storing in methods:
                if not given & tainted:
                    continue
                if root is None or root in ("self", "cls"):
                    return None
                if storing and root not in local:
                    return None  # `LOG.append(x)`: kept by an object outside the function
                if storing and root not in tainted:
                    tainted.add(root)
                    changed = True
    return tainted


def _constructs(call: ast.Call) -> bool:
    name = dotted(call.func) or ""
    return name.rsplit(".", 1)[-1][:1].isupper() and any(kw.arg == "key" for kw in call.keywords)


# --- the project ---------------------------------------------------------------------------------------------

def import_root(path: Path) -> tuple[Path, str]:
    """The folder a file is imported from (above its top-most package) and its module name."""
    path = path.absolute()
    parts = [path.stem] if path.stem != "__init__" else []
    folder = path.parent
    while (folder / "__init__.py").is_file() and folder.parent != folder:
        parts.insert(0, folder.name)
        folder = folder.parent
    return folder, ".".join(parts)


class ProjectIndex:
    """The summaries of a project's modules (and of the installed packages it calls), by module name."""

    def __init__(self, roots: Iterable[Path] = (), installed: bool = True) -> None:
        # `_split`'s answers, by (qualified name, file naming it): the same until a module is fed, forgotten or
        # summarised again, or a root is added (each clears them and moves `_generation` on, so an answer worked
        # out before is not kept after)
        self._splits: dict[tuple[str, str | None], tuple[ModuleSummary, str] | None] = {}
        self._generation = 0
        # texts that changed (a module fed another text, a new one, one forgotten) or roots added, in all and per
        # module name: what a document's incremental analysis compares, less its own module's (`changes_beside`)
        self.changes = 0
        self._changes_of: dict[str, int] = {}
        self.roots: list[Path] = []
        for root in roots:
            self.add_root(root)
        self.installed = installed
        self._by_name: dict[str, ModuleSummary | None] = {}  # None: looked for, not found
        self._name_of: dict[str, str] = {}  # absolute path -> module name
        self._consumption: dict[tuple[object, ...], str | None] = {}
        self._pending: dict[str, tuple[str, str]] = {}  # module name -> (path, text) fed lazily, not summarised yet
        self._generator_names: frozenset[str] | None = None
        self._beside: dict[tuple[str, str], str | None] = {}  # (folder, qualified name) -> "name\0cut" found there, or None
        self._lock = threading.RLock()
        self.parsed = 0  # modules summarised (for tests and benchmarks)
        self._subclasses: dict[tuple[str, str], list[tuple[ModuleSummary, str]] | None] = {}
        self._outside: dict[str, bool] = {}  # attribute -> assigned from outside its class somewhere (held_classes)
        self._named: dict[tuple[str, str, bool], bool] = {}  # (name, file, definitions counted) -> spelled in another file (named_elsewhere)
        self._files: tuple[tuple[Path, ...], list[Path] | None] | None = None
        # summaries of modules fed lazily, made from the tree their own analysis parsed (`adopt`), kept aside
        # until a module asks for one: then it is that module's summary, without a second parse. Aside, not
        # read: what the index has read (generator_attributes) stays what was asked, in the order it was.
        self._adopted: dict[str, ModuleSummary] = {}

    def __getstate__(self) -> dict[str, object]:
        state = dict(self.__dict__)
        del state["_lock"]  # a spawned worker gets a copy of the index, and a lock of its own
        state["_adopted"] = {}  # (a cache: its summaries' functions would all be summarised to be pickled)
        state["_splits"] = {}  # (a cache)
        return state

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__dict__.update(state)
        self._lock = threading.RLock()

    def adopt(self, path: str | os.PathLike[str], text: str, tree: ast.Module) -> None:
        """`tree` is `ast.parse(text)` of the file `path` (its analysis parsed it): when the index holds that
        text unsummarised (fed lazily), the summary it will need if a module asks about this one is made from
        the tree now (the cheap part of a summary: the functions are summarised when asked for), and kept
        aside, not as read (see `_adopted`)."""
        file = str(Path(path).absolute())
        with self._lock:
            name = self._name_of.get(file)
            pending = self._pending.get(name) if name is not None else None
            if (name is None or pending is None or name in self._adopted or pending[0] != file
                    or not (pending[1] is text or pending[1] == text)):
                return
            self._adopted[name] = summarise(text, name, file, Path(file).stem == "__init__", tree=tree)

    def add_root(self, root: Path) -> None:
        root = Path(root).absolute()
        if root not in self.roots:
            self.roots.append(root)
            self.changes += 1
            self._forget_splits()

    def _forget_splits(self) -> None:
        self._generation += 1
        self._splits = {}

    # ---- feeding ---------------------------------------------------------------------------------------

    def update(self, path: str | os.PathLike[str], text: str, lazy: bool = False) -> ModuleSummary | None:
        """Summarises a project file's text again if it changed (its root is added as needed). `lazy`: keep the
        text and summarise it when a module first asks about it (the language server feeds every edit)."""
        file = Path(path).absolute()
        root, name = import_root(file)
        with self._lock:
            self._forget_splits()
            self.add_root(root)
            if str(file) not in self._name_of:
                self._beside.clear()  # a new file may be the module a name beside it was looked for
            self._name_of[str(file)] = name
            old = self._by_name.get(name)
            digest = hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest()
            if old is not None and old.digest == digest and old.path == str(file):
                self._pending.pop(name, None)
                return old
            self._subclasses.clear()  # the text changed (or is new): a class may derive from another now
            self._changed(name)
            self._outside.clear()
            # what other files spell is the same for the changed file's own questions (each keystroke in a
            # private module would read every project file again); every other file's may have changed
            self._named = {k: v for k, v in self._named.items() if k[1] == str(file)}
            self._adopted.pop(name, None)
            if old is None:
                self._files = None
            if lazy:
                self._pending[name] = (str(file), text)
                return None
            return self._summarise_fed(name, str(file), text)

    def _summarise_fed(self, name: str, file: str, text: str) -> ModuleSummary:
        """(Under the lock.) The fed text of `name` summarised and kept."""
        old = self._by_name.get(name)
        summary = self._fed_summary(name, file, text, self._adopted.get(name))
        self._keep_fed(name, summary, old is None or old.shape() != summary.shape())
        return summary

    @staticmethod
    def _fed_summary(name: str, file: str, text: str, adopted: ModuleSummary | None) -> ModuleSummary:
        """The summary of a fed text: the one made from its analysis's parse when that was of this text."""
        if adopted is not None and adopted.path == file and adopted.digest == hashlib.sha1(
                text.encode("utf-8", "surrogatepass")).hexdigest():
            return adopted
        return summarise(text, name, file, Path(file).stem == "__init__")

    def _keep_fed(self, name: str, summary: ModuleSummary, shape_changed: bool) -> None:
        """(Under the lock.) `summary` of the pending text of `name` becomes the module's."""
        self._pending.pop(name, None)
        self._adopted.pop(name, None)
        self._forget_splits()
        self.parsed += 1
        if shape_changed:
            self._consumption.clear()  # answers may have changed
        self._by_name[name] = summary
        self._generator_names = None

    def update_file(self, path: str | os.PathLike[str]) -> ModuleSummary | None:
        try:
            data = Path(path).read_bytes()
            if len(data) > _MAX_BYTES:
                return None
            return self.update(path, data.decode("utf-8"))
        except (OSError, UnicodeDecodeError):
            return None

    def _changed(self, name: str | None) -> None:
        self.changes += 1
        if name is not None:
            self._changes_of[name] = self._changes_of.get(name, 0) + 1

    def changes_beside(self, name: str) -> int:
        """How many times a text other than module `name`'s changed, or a root was added (see `changes`): the
        same number means every other module reads as it did."""
        return self.changes - self._changes_of.get(name, 0)

    def forget(self, path: str | os.PathLike[str]) -> None:
        with self._lock:
            self._forget_splits()
            name = self._name_of.pop(str(Path(path).absolute()), None)
            self._changed(name)
            if name is not None:
                self._beside.clear()
                self._generator_names = None
                self._by_name.pop(name, None)
                self._pending.pop(name, None)
                self._adopted.pop(name, None)
                self._consumption.clear()
            self._subclasses.clear()
            self._outside.clear()
            self._named.clear()
            self._files = None

    def module_name(self, path: str | os.PathLike[str]) -> str:
        return self._name_of.get(str(Path(path).absolute())) or import_root(Path(path))[1]

    def texts_digest(self) -> str:
        """A digest of the text of every project module fed or read (for result caches; parses nothing)."""
        with self._lock:
            h = hashlib.sha1()
            digests = {name: hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest()
                       for name, (_, text) in self._pending.items()}
            digests.update({name: m.digest for name, m in self._by_name.items()
                            if m is not None and not m.installed and name not in digests})
            for name in sorted(digests):
                h.update(f"{name}\0{digests[name]}\0".encode())
            return h.hexdigest()

    def project_shape(self) -> str:
        """A digest of what the project's modules show their callers (for result caches): equal when only
        function bodies changed in ways no summary sees."""
        with self._lock:
            for name, pending in list(self._pending.items()):
                self._summarise_fed(name, *pending)
            h = hashlib.sha1()
            for name in sorted(k for k, v in self._by_name.items() if v is not None and not v.installed):
                summary = self._by_name[name]
                assert summary is not None
                h.update(name.encode())
                h.update(summary.shape().encode("utf-8", "surrogatepass"))
            return h.hexdigest()

    def shape_digest(self, known: Callable[[str], str | None]) -> tuple[str, dict[str, str]]:
        """`project_shape` for a result cache that remembers each module's shape by its text: `known` gives a
        text digest's module shape digest, or None; only modules whose text it does not know are summarised.
        Returns (the project's shape digest, the new text -> shape entries). An edit inside a function body that
        changes nothing its callers see leaves the digest, so the other files' cached results still hold."""
        with self._lock:
            texts: dict[str, tuple[str, str | None]] = {}  # module name -> (text digest, shape digest if known)
            for name, (_, text) in self._pending.items():
                texts[name] = (hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest(), None)
            for name, module in self._by_name.items():
                if module is not None and not module.installed and name not in texts:
                    texts[name] = (module.digest, hashlib.sha1(module.shape().encode("utf-8", "surrogatepass")).hexdigest())
            new: dict[str, str] = {}
            h = hashlib.sha1()
            for name in sorted(texts):
                text_digest, shape = texts[name]
                shape = shape or known(text_digest)
                if shape is None:
                    file, text = self._pending[name]
                    summary = self._summarise_fed(name, file, text)
                    shape = hashlib.sha1(summary.shape().encode("utf-8", "surrogatepass")).hexdigest()
                    new[text_digest] = shape
                h.update(f"{name}\0{shape}\0".encode())
            return h.hexdigest(), new

    def modules(self) -> Iterator[ModuleSummary]:
        with self._lock:
            return iter([m for m in self._by_name.values() if m is not None])

    # ---- lookup ----------------------------------------------------------------------------------------

    def module(self, name: str) -> ModuleSummary | None:
        while True:
            with self._lock:
                pending = self._pending.get(name)
                if pending is None:
                    break
                old, adopted = self._by_name.get(name), self._adopted.get(name)
            # A text fed lazily (an open document's) is summarised, and its shape compared with the last one's,
            # outside the lock: that is several parses' worth on a long module, and the analysis of the document
            # being typed in asks the index about other modules meanwhile (the server's project check summarises
            # in its own thread). Kept unless a newer text was fed meanwhile; then that one is summarised.
            summary = self._fed_summary(name, *pending, adopted)
            shape_changed = old is None or old.shape() != summary.shape()
            with self._lock:
                if self._pending.get(name) is pending and self._by_name.get(name) is old:
                    self._keep_fed(name, summary, shape_changed)
                    return summary
                if name not in self._pending and name in self._by_name:
                    return self._by_name[name]  # another thread kept this text's (or a newer) summary meanwhile
        with self._lock:
            if name in self._by_name:
                return self._by_name[name]
            self._by_name[name] = None  # a cycle or a second question finds it missing, not loops
            found = self._load(name)
            self._by_name[name] = found
            self._generator_names = None
            return found

    def _load(self, name: str) -> ModuleSummary | None:
        if not name or name.split(".")[0] in _NOT_INDEXED:
            return None
        parts = name.split(".")
        if all(p.isidentifier() for p in parts):  # (always, but for names made of something else than names)
            # the two candidates of each root as strings: Path objects for every root of every name asked were half
            # the time the index spent finding modules (6% of the CLI's on optax, chex, equinox and flax)
            relative = os.path.join(*parts)
            module_file, package_file = relative + ".py", os.path.join(relative, "__init__.py")
            for root in self.roots:
                for candidate, package in ((os.path.join(root, module_file), False),
                                           (os.path.join(root, package_file), True)):
                    if os.path.isfile(candidate):
                        return self._read(Path(candidate), name, package, installed=False)
        else:
            relative_path = Path(*name.split("."))
            for root in self.roots:
                for candidate_path, package in ((root / relative_path.with_suffix(".py"), False),
                                                (root / relative_path / "__init__.py", True)):
                    if candidate_path.is_file():
                        return self._read(candidate_path, name, package, installed=False)
        if self.installed:
            origin = _installed_origin(name)
            if origin is not None:
                return self._read(origin, name, origin.name == "__init__.py", installed=True)
        return None

    def _read(self, file: Path, name: str, package: bool, installed: bool) -> ModuleSummary | None:
        try:
            stat = file.stat()
            if stat.st_size > _MAX_BYTES:
                return None
            stamp = (str(file.absolute()), name, stat.st_mtime_ns, stat.st_size)
            if installed and stamp in _installed_summaries:  # read by another index of this process already
                return _installed_summaries[stamp]
            text = file.read_bytes().decode("utf-8")
        except (OSError, UnicodeDecodeError):
            return None
        self.parsed += 1
        summary = summarise(text, name, str(file), package, installed)
        self._name_of[str(file.absolute())] = name
        if installed:
            _installed_summaries[stamp] = summary
        return summary

    def beside(self, qualified: str, near: str) -> str | None:
        """`qualified` as named from the file `near` when its head is no module on the roots: a module found
        in the folder of `near` or a folder above it (a script's folder is the first entry of its `sys.path`;
        `from inference.paged_attention import Op` in `MaxText/tests/x_test.py`, run from `MaxText/`), renamed
        to its name on the roots. None when no such file is found a few folders up."""
        parts = qualified.split(".")
        if len(parts) < 2 or parts[0] in _NOT_INDEXED or self.module(parts[0]) is not None:
            return None
        folder = Path(near).absolute().parent
        for _ in range(6):
            memo = (str(folder), qualified)
            hit = self._beside.get(memo, "")
            if hit == "":
                hit = None
                for cut in range(len(parts) - 1, 0, -1):
                    relative = Path(*parts[:cut])
                    for file in (folder / relative.with_suffix(".py"), folder / relative / "__init__.py"):
                        if file.is_file():
                            root_name = self._name_of.get(str(file)) or import_root(file)[1]
                            self._name_of.setdefault(str(file), root_name)
                            hit = f"{root_name}\0{cut}"
                            break
                    if hit is not None:
                        break
                self._beside[memo] = hit
            if hit is not None:
                name, at = hit.split("\0")
                return ".".join([name, *parts[int(at):]])
            if folder.parent == folder:
                return None
            folder = folder.parent
        return None

    def _split(self, qualified: str, near: str | None = None) -> tuple[ModuleSummary, str] | None:
        """The module holding a qualified name and the rest of the name (`Class.method`, `f`), following the
        re-exports of packages (`from .core import f` in an `__init__.py`) a few steps; `near`: the file that
        names it, for a module found beside it (see `beside`). Kept (`_splits`): every call of a project function
        asks it, most of them of names asked before."""
        memo = (qualified, near)
        splits = self._splits
        if memo in splits:
            return splits[memo]
        generation = self._generation
        found = self._split_now(qualified, near)
        if self._generation == generation:  # (nothing fed meanwhile, by another thread or by the question)
            splits[memo] = found
        return found

    def _split_now(self, qualified: str, near: str | None) -> tuple[ModuleSummary, str] | None:
        parts = qualified.split(".")
        for _ in range(6):
            found = None
            for cut in range(len(parts) - 1, 0, -1):
                module = self.module(".".join(parts[:cut]))
                if module is not None:
                    found = (module, ".".join(parts[cut:]))
                    break
            if found is None and near is not None:
                moved = self.beside(qualified, near)
                if moved is not None and moved != qualified:
                    return self._split(moved)
            if found is None:
                return None
            module, rest = found
            head, _, tail = rest.partition(".")
            if head in module.functions or head in module.classes:
                return module, rest
            target = module.imports.get(head)
            if target is None or target == qualified:
                return None
            qualified = f"{target}.{tail}" if tail else target
            parts = qualified.split(".")
        return None

    def function(self, qualified: str, near: str | None = None) -> FunctionSummary | None:
        """A function or method by qualified name (`pkg.mod.f`, `pkg.mod.Class.method`); a class gives its
        `__init__` (a constructor call), or None when it has none the index can see. `near`: see `_split`."""
        with self._lock:
            found = self._split(qualified, near)
            if found is None:
                return None
            module, rest = found
            if rest in module.classes:
                return self.method(module, rest, "__init__")
            if rest in module.functions:
                return module.functions[rest]
            cls, _, method = rest.partition(".")
            return self.method(module, cls, method) if cls in module.classes and "." not in method else None

    def cls(self, qualified: str, near: str | None = None) -> ClassSummary | None:
        with self._lock:
            found = self._split(qualified, near)
            if found is None:
                return None
            module, rest = found
            return module.classes.get(rest)

    def method(self, module: ModuleSummary, cls: str, name: str, depth: int = 0) -> FunctionSummary | None:
        """A method of a class, looked up through its bases the index can see."""
        own = module.functions.get(f"{cls}.{name}")
        if own is not None or depth > 5:
            return own
        return self._inherited_method(module, cls, name, depth)

    def _inherited_method(self, module: ModuleSummary, cls: str, name: str, depth: int = 0) -> FunctionSummary | None:
        """A method of one of the class's bases the index can see (its own definition left out)."""
        summary = module.classes.get(cls)
        for base in summary.bases if summary is not None else ():
            found = self._split(base) if base else None
            if found is not None and found[1] in found[0].classes:
                inherited = self.method(found[0], found[1], name, depth + 1)
                if inherited is not None:
                    return inherited
        return None

    def key_generator(self, qualified_class: str, attribute: str) -> bool:
        """Whether reading `attribute` of an object of the class (or calling it) gives a fresh key each time."""
        with self._lock:
            cls = self.cls(qualified_class)
            seen = 0
            while cls is not None and seen < 6:
                if attribute in cls.key_generators:
                    return True
                if attribute in cls.methods:
                    return False
                base = next((b for b in cls.bases if b and self.cls(b) is not None), None)
                cls = self.cls(base) if base is not None else None
                seen += 1
            return False

    def drawless_layer(self, qualified_class: str, depth: int = 0) -> bool:
        """Whether `init` of a flax layer of this class draws nothing from its key: neither the class nor any
        base (up to `flax.linen.Module`) creates a random parameter or builds a submodule, and the functions
        of other modules they call live in modules that import no layer library (see `inert_layer_calls`)."""
        with self._lock:
            cls = self.cls(qualified_class)
            if cls is None or cls.inert_calls is None or not cls.bases or depth > 5:
                return False
            home = self._split(qualified_class)
            near = home[0].path if home is not None else None
            for target in cls.inert_calls:
                found = self._split(target, near)
                if found is None:
                    return False
                module, rest = found
                built = module.classes.get(rest)
                if built is not None:
                    if not built.record:
                        return False  # a class built: only a record (a dataclass, a struct) surely is no layer
                elif rest not in module.functions or any(
                        v.split(".", 1)[0] in _LAYER_LIBRARIES for v in module.imports.values()):
                    return False  # a function that may build layers (its module imports a layer library)
            return all(base in LAYER_BASES or (bool(base) and self.drawless_layer(
                self.beside(base, near) or base if near else base, depth + 1)) for base in cls.bases)

    def generator_attributes(self) -> frozenset[str]:
        """The names of key-generator properties of the classes the index has read that no class it has read
        holds data under (`self.rng = key`, a field `rng: Array`): for receivers of unknown class, a read of one
        of these is a fresh key."""
        with self._lock:
            if self._generator_names is None:
                classes = [c for m in self._by_name.values() if m is not None for c in m.classes.values()]
                fields = frozenset().union(*(c.fields for c in classes))
                self._generator_names = frozenset(a for c in classes for a in c.key_generators) - fields
            return self._generator_names

    # ---- questions -------------------------------------------------------------------------------------

    def consumption(self, fn: FunctionSummary, param: str, depth: int = 0, built: Built = None,
                    valued: frozenset[str] = frozenset()) -> str | None:
        """Whether the function consumes the key given as `param`: "always", "maybe", or None (never); a callee
        it hands the key to is asked in turn (one the index cannot see: "maybe"). `built`: for a method called
        on an object whose construction the caller saw, (its class, the keywords and the number of positional
        arguments its constructor was given): what the object's attributes hold then (see `held_classes`).
        `valued`: the parameters the call is known to give a value other than None (a key drawn from only while
        one of them is None is not drawn from: ParamSummary.only_without)."""
        key: tuple[object, ...] = (fn.module, fn.qualname, param) if built is None else (
            fn.module, fn.qualname, param, built)
        if valued:
            key = (*key, valued)
        with self._lock:
            if key in self._consumption:
                return self._consumption[key]
            self._consumption[key] = "maybe"  # recursion: unknown while being worked out
            answer = self._consumption_of(fn, param, depth, built, valued)
            self._consumption[key] = answer
            return answer

    def _consumption_of(self, fn: FunctionSummary, param: str, depth: int, built: Built = None,
                        valued: frozenset[str] = frozenset()) -> str | None:
        summary = fn.param(param)
        if summary is None:
            return "maybe"
        if summary.only_without is not None and summary.only_without in valued:
            return None
        best = summary.direct
        for site in summary.calls:
            if best == "always":
                break
            answer = self._site_consumption(fn, site, depth, built, valued)
            if answer == "always" and not site.always:
                answer = "maybe"
            if answer == "always" or (answer == "maybe" and best is None):
                best = answer
        return best

    def _site_consumption(self, fn: FunctionSummary, site: CallSite, depth: int, built: Built = None,
                          valued: frozenset[str] = frozenset()) -> str | None:
        if depth > 8 or site.target is None:
            return "maybe"
        # the callee's parameters given a value other than None, from this call and from what `fn` was given
        passed = frozenset(where for where, what in site.passes
                           if what == "value" or what.removeprefix("param:") in valued)
        if site.target.startswith("attr:"):
            return self._held_consumption(site, depth, built)
        if "|" in site.target:  # the branches of a lax.cond / lax.switch: exactly one runs
            answers = [self._site_consumption(fn, dataclasses.replace(site, target=t), depth)
                       for t in site.target.split("|")]
            return "always" if all(a == "always" for a in answers) else "maybe" if any(answers) else None
        if site.target.startswith("chain:"):  # parameter annotated with a class, then annotated fields
            _, classes, path, method = site.target.split(":")
            held = self._field_classes(classes.split(","), [a for a in path.split(".") if a], fn.module)
            if held is None:
                return "maybe"
            return self._site_consumption(fn, dataclasses.replace(
                site, target="|".join(f"impl:{c}.{method}" for c in held)), depth)
        if site.target.startswith("impl:"):
            qualified_class, _, method = site.target[5:].rpartition(".")
            callees = self.implementations(qualified_class, method)
            if callees is None:
                return "maybe"
            answers = [self._callee_consumption(callee, site, depth) for callee in callees]
            return "always" if answers and all(a == "always" for a in answers) else "maybe" if any(answers) else None
        if site.target.startswith("super.") and "." in fn.qualname:
            inherited = self._super_method(fn.module, fn.qualname.rpartition(".")[0], site.target[6:])
            return self._callee_consumption(inherited, site, depth, built, passed)
        if site.target.startswith("self."):
            module = self.module(fn.module)
            cls = fn.qualname.split(".")[0] if "." in fn.qualname else None
            callee = self.method(module, cls, site.target[5:]) if module is not None and cls is not None else None
            return self._callee_consumption(callee, site, depth, built, passed)  # the same object: as it was built
        else:
            callee = self.function(site.target)
        return self._callee_consumption(callee, site, depth, valued=passed)

    def _held_consumption(self, site: CallSite, depth: int, built: Built) -> str | None:
        """`self.noise.apply(key)`: every class the attribute may hold is asked (its own or inherited method);
        "maybe" when what it holds is not known."""
        assert site.target is not None
        _, owner, attr, method = site.target.split(":")
        classes = self.held_classes(owner, attr, built)
        if not classes:
            return "maybe"
        answers: list[str | None] = []
        for qualified in classes:
            found = self._split(qualified)
            callee = self.method(found[0], found[1], method) if found is not None and found[1] in found[0].classes else None
            answers.append(self._callee_consumption(callee, site, depth))
        return "always" if all(a == "always" for a in answers) else "maybe" if any(answers) else None

    def held_classes(self, owner: str, attr: str, built: Built = None) -> list[str] | None:
        """The classes an attribute of an object of class `owner` may hold (`self.noise = Noiseless()`): from
        every assignment to it in the class, its bases and (the object's exact class unknown) its subclasses.
        With `built` (the object's class and how its constructor was called) the object's class and its bases
        are all there is, and a default the constructor was not given an argument for is what it holds
        (`self.noise = Noiseless() if noise is None else noise`, a record's `noise: N = field(default_factory=
        Noiseless)`). None when any assignment's value is not known to be an object of a class the index reads,
        a class on the way cannot be read, or code outside the classes may assign the attribute."""
        with self._lock:
            exact, passed, positional, given = built if built is not None else (owner, frozenset(), 0, ())
            elements = attr.endswith("[]")
            attr = attr.removesuffix("[]")
            chain = self._class_chain(exact)
            if chain is None or (built is not None and owner not in {f"{m.name}.{c}" for m, c in chain}):
                return None
            init_owner: str | None = None
            if built is not None:
                init = self.method(chain[0][0], chain[0][1], "__init__")
                init_owner = f"{init.module}.{init.qualname.rsplit('.', 1)[0]}" if init is not None else None
                init_params = init.positional if init is not None else ()
            else:
                found = self._split(owner)
                below = self.subclasses(found[0], found[1]) if found is not None else None
                if below is None:
                    return None
                chain = chain + [(m, c) for m, c in below]
            if self._assigned_outside(attr):
                return None
            out: list[str] = []
            for module, name in chain:
                summary = module.classes[name]
                for kind, made, param in dict(summary.attribute_values).get(attr, ()):
                    if elements != (kind == "param"):
                        return None  # the elements of a constructed object, or the object passed in: unknown
                    if kind == "param":
                        held = dict(given).get(param) if built is not None and f"{module.name}.{name}" == init_owner else None
                        if held is None:
                            return None
                        out.extend(held)  # (qualified by the caller, read by the index: see ProjectView._built)
                        continue
                    if kind == "default" and built is not None and f"{module.name}.{name}" == init_owner and (
                            param not in passed and param not in init_params[:positional]):
                        pass  # the constructor was not given the parameter: the default is what it holds
                    elif kind == "field" and built is not None and attr not in passed and positional == 0:
                        pass  # a record's default the constructor was given nothing for
                    elif kind != "built":
                        return None
                    found = self._split(made, module.path) if made else None
                    if found is None or found[1] not in found[0].classes:
                        return None
                    out.append(f"{found[0].name}.{found[1]}")
            return list(dict.fromkeys(out))

    def _class_chain(self, qualified: str) -> list[tuple[ModuleSummary, str]] | None:
        """The class and all its bases, each read by the index; None when one cannot be read (a base of a
        library the index does not read may assign any attribute), except bases that assign none."""
        out: list[tuple[ModuleSummary, str]] = []
        todo = [qualified]
        while todo:
            name = todo.pop()
            found = self._split(name)
            if found is None or found[1] not in found[0].classes:
                if name.split(".", 1)[0] in _ASSIGNING_NO_ATTRIBUTE or name in ("object", "ABC", "Generic", "Protocol"):
                    continue
                return None
            if found in out or len(out) > 12:
                continue
            out.append(found)
            todo.extend(b for b in found[0].classes[found[1]].bases if b)
        return out

    def _assigned_outside(self, attr: str) -> bool:
        """Whether code of the project may assign the attribute on an object from outside its class
        (`obj.noise = ...`, `setattr(obj, "noise", ...)`, `eqx.tree_at(lambda m: m.noise, ...)`, `dataclasses.
        replace(obj, noise=...)`), read from the text of every project file; True when the files cannot all be
        listed."""
        if attr in self._outside:
            return self._outside[attr]
        files = self._project_files()
        answer = files is None
        name = re.escape(attr)
        written = re.compile(rf"(?<!\bself)\.{name}\s*(?:=[^=]|[-+*/|&]=)|setattr\(|__dict__|\.{name}\s*\[[^\]]*\]"
                             rf"\s*=[^=]|\.{name}\.(?:{'|'.join(sorted(_STORING_METHODS))})\(")
        replaced = re.compile(rf"replace\([^()]*(?:\([^()]*\)[^()]*)*\b{name}\s*=[^=]")  # replace(obj, noise=...)
        for path in files or ():
            try:
                text = path.read_text(encoding="utf-8", errors="replace")
            except OSError:
                answer = True
                break
            if attr in text and (any(written.search(line) and attr in line for line in text.splitlines())
                                 or ("tree_at(" in text and f".{attr}" in text) or replaced.search(text)):
                answer = True  # (eqx.tree_at's `lambda m: m.noise` may sit on another line than the call)
                break
        self._outside[attr] = answer
        return answer

    def sees_through(self, fn: FunctionSummary) -> bool:
        """Whether the index answers for calls of `fn`: no decorator it cannot see through, or each of them a
        function of the project (or an installed package) that hands back what it decorates (a registry:
        FunctionSummary.hands_back), so calling `fn` runs `fn` as written."""
        if not fn.opaque:
            return True
        for name in fn.decorators:
            called = name.endswith("()")
            candidates = (name[:-2] if called else name).split("|") if name else []
            decorator = next((found for found in map(self.function, candidates) if found is not None), None)
            if decorator is None or decorator.hands_back != ("factory" if called else "direct"):
                return False
        return bool(fn.decorators)

    def _callee_consumption(self, callee: FunctionSummary | None, site: CallSite, depth: int,
                            built: Built = None, valued: frozenset[str] = frozenset()) -> str | None:
        if callee is None or not self.sees_through(callee):
            return "maybe"
        if valued:  # positions named as the callee's parameters
            valued = frozenset(callee.positional[int(w[1:])] if w.startswith("#") and int(w[1:]) < len(
                callee.positional) else w for w in valued)
        name = site.keyword
        if name is None and site.position is not None:
            if site.position >= len(callee.positional):
                return self.consumption(callee, STAR, depth + 1, built) if callee.star_args else None
            name = callee.positional[site.position]
        if name is None:
            return "maybe"
        if callee.param(name) is None:
            if callee.kwargs_to_super and site.keyword is not None and "." in callee.qualname and depth < 8:
                cls, _, method = callee.qualname.rpartition(".")
                inherited = self._super_method(callee.module, cls, method)  # the keyword travels on in `**kwargs`
                if inherited is not None:
                    return self._callee_consumption(inherited, site, depth + 1, built, valued)
            return "maybe"
        return self.consumption(callee, name, depth + 1, built, valued)

    def _super_method(self, module_name: str, cls: str, name: str) -> FunctionSummary | None:
        """The method `super().<name>` calls in a method of `cls`: the first base the index can see that has it."""
        module = self.module(module_name)
        return self._inherited_method(module, cls, name) if module is not None else None

    def _field_classes(self, classes: list[str], path: list[str], near: str) -> list[str] | None:
        """The classes the annotated fields along `path` hold, from objects of `classes` (a field looked up in the
        class and its bases); None when a field on the way has no annotation the index can read."""
        for attr in path:
            held: list[str] = []
            for qualified in classes:
                found = self._field_type(qualified, attr, near)
                if found is None:
                    return None
                held.extend(found)
            classes = list(dict.fromkeys(held))
        return classes or None

    def _field_type(self, qualified: str, attr: str, near: str, depth: int = 0) -> tuple[str, ...] | None:
        found = self._split(qualified, near) if depth < 6 else None
        if found is None or found[1] not in found[0].classes:
            return None
        cls = found[0].classes[found[1]]
        own = dict(cls.field_types).get(attr)
        if own is not None:
            return own
        for base in cls.bases:
            inherited = self._field_type(base, attr, found[0].path, depth + 1) if base else None
            if inherited is not None:
                return inherited
        return None

    def implementations(self, qualified_class: str, method: str) -> list[FunctionSummary | None] | None:
        """Every implementation of `method` an object of the class (or of a subclass of it) may run: the class's
        own or inherited one and each override in a subclass of the project. None when that cannot be known: the
        class is no project class (an installed one may have subclasses anywhere), or the project's modules
        cannot all be listed."""
        with self._lock:
            found = self._split(qualified_class)
            if found is None or found[0].installed or found[1] not in found[0].classes:
                return None
            subclasses = self.subclasses(found[0], found[1])
            if subclasses is None:
                return None
            out: list[FunctionSummary | None] = [self.method(found[0], found[1], method)]
            out += [self.method(module, name, method) for module, name in subclasses]
            return out

    def subclasses(self, module: ModuleSummary, cls: str) -> list[tuple[ModuleSummary, str]] | None:
        """The classes of the project that derive from `module.cls`, directly or not: the modules whose text
        names the class (or one of its subclasses found so far) are summarised and their bases resolved. None when
        the project's files cannot all be listed (more than a few thousand under its roots)."""
        memo_key = (module.name, cls)
        if memo_key in self._subclasses:
            return self._subclasses[memo_key]
        files = self._project_files()
        if files is None:
            self._subclasses[memo_key] = None
            return None
        texts: dict[str, str] = {file: text for file, text in self._pending.values()}  # an editor's unsaved texts
        for path in files:
            if str(path) in texts:
                continue
            try:
                data = path.read_bytes()
                texts[str(path)] = data.decode("utf-8") if len(data) <= _MAX_BYTES else ""
            except (OSError, UnicodeDecodeError):
                continue
        family = {(module.name, cls)}
        out: list[tuple[ModuleSummary, str]] = []
        work = [cls]
        looked: set[tuple[str, str]] = set()
        while work:
            short = work.pop()
            for file, text in texts.items():
                if short not in text or (file, short) in looked:
                    continue
                looked.add((file, short))
                name = self._name_of.get(file) or import_root(Path(file))[1]
                candidate = self.module(name)
                if candidate is None:
                    continue
                for class_name, summary in candidate.classes.items():
                    if (candidate.name, class_name) in family:
                        continue
                    for base in summary.bases:
                        resolved = self._split(base, candidate.path) if base else None
                        if resolved is not None and (resolved[0].name, resolved[1]) in family:
                            family.add((candidate.name, class_name))
                            out.append((candidate, class_name))
                            work.append(class_name)
                            break
        self._subclasses[memo_key] = out
        return out

    def named_elsewhere(self, name: str, path: str, definitions: bool = True) -> bool:
        """Whether a project file other than `path` spells the identifier `name` (an import of it, a call, a
        string), read from the text of every project file (a fed text not yet summarised, else the file on disk, as
        `_outside` reads them); True when the files cannot all be listed or read. Kept until another file's text
        changes. `definitions=False`: a `def NAME` of another file's own function of that name does not count."""
        file = str(Path(path).absolute())
        with self._lock:
            if (name, file, definitions) in self._named:
                return self._named[(name, file, definitions)]
            files = self._project_files()
            fed = {p: t for p, t in self._pending.values()}
        answer = files is None
        word = re.compile(rf"\b{re.escape(name)}\b" if definitions else rf"(?<!def )\b{re.escape(name)}\b")
        for other in files or ():
            if str(other) == file:
                continue
            text = fed.get(str(other))
            if text is None:
                try:
                    text = other.read_text(encoding="utf-8", errors="replace")
                except OSError:
                    answer = True
                    break
            if name in text and word.search(text):
                answer = True
                break
        with self._lock:
            self._named[(name, file, definitions)] = answer
        return answer

    def _project_files(self) -> list[Path] | None:
        """The Python files under the project's roots (not in hidden, virtual-environment or site-packages folders),
        listed once per set of roots; None when there are more than `_MAX_FILES`."""
        if self._files is not None and self._files[0] == tuple(self.roots):
            return self._files[1]
        found: dict[str, Path] = {}
        for root in self.roots:
            for folder, dirs, names in os.walk(root):
                dirs[:] = [d for d in dirs if not d.startswith(".") and d not in _SKIPPED_FOLDERS]
                for n in names:
                    if n.endswith(".py"):
                        path = Path(folder, n).absolute()
                        found[str(path)] = path
                if len(found) > _MAX_FILES:
                    self._files = (tuple(self.roots), None)
                    return None
        listed = sorted(found.values())
        self._files = (tuple(self.roots), listed)
        return listed

    def view(self, path: str | os.PathLike[str], tree: ast.Module | None = None) -> ProjectView:
        """What one module's analysis asks the index through (`ModuleModel.project`)."""
        return ProjectView(self, str(path), tree)


# Summaries of installed packages' modules, shared by every index of the process (a run that indexes several
# projects reads each installed module once): by (path, module name, mtime, size), so an upgrade is read again.
_installed_summaries: dict[tuple[str, str, int, int], ModuleSummary] = {}


def _installed_origin(name: str) -> Path | None:
    """The source file of an installed module, found on the interpreter's search path without importing it
    (PathFinder looks for files; no code of the package runs)."""
    cwd = Path.cwd()
    folders = [p for p in sys.path if p and Path(p).absolute() != cwd]
    parts = name.split(".")
    origin: str | None = None
    for i in range(len(parts)):
        if not folders:
            return None
        try:
            origin, folders = _find_module(".".join(parts[: i + 1]), folders)
        except (ImportError, ValueError, OSError):
            return None
    if not origin or not origin.endswith(".py"):
        return None
    return Path(origin)


def _find_module(name: str, folders: list[str]) -> tuple[str | None, list[str]]:
    """A module's file and, for a package, the folders its submodules are looked for in. A namespace package
    below a regular one (a folder without `__init__.py`, as some installed packages ship) cannot be found by
    PathFinder without importing its parent (its path is computed from `sys.modules`), and nothing is imported
    here: its folders are those of that name in the folders searched."""
    try:
        spec = PathFinder.find_spec(name, folders)
    except KeyError:  # _NamespacePath asked sys.modules for the parent package
        last = name.rpartition(".")[2]
        return None, [str(Path(f) / last) for f in folders if (Path(f) / last).is_dir()]
    if spec is None:
        return None, []
    locations = spec.submodule_search_locations
    return spec.origin, list(locations) if locations is not None else []


class FunctionScope(Protocol):
    """What `ProjectView.qualified` reads of a function's scope (scopes.FunctionInfo has it)."""

    local_names: set[str]
    imports: dict[str, str]

    @property
    def parent(self) -> FunctionScope | None: ...


def _function_import(name: str, scope: FunctionScope) -> str | None:
    """What `name` names where `scope` (or a function around it) binds it only by an import; None otherwise."""
    cur: FunctionScope | None = scope
    while cur is not None:
        if name in cur.local_names:
            return cur.imports.get(name) or None
        cur = cur.parent
    return None


class ProjectView:
    """One module's window on the index: qualified names of its calls (relative imports included) and the
    questions rules ask about them."""

    def __init__(self, index: ProjectIndex, path: str, tree: ast.Module | None) -> None:
        self.index, self.path = index, path
        self.module = index.module_name(path)
        self._tree = tree
        self._imports: dict[str, str] | None = None

    def private(self) -> bool:
        """Whether the module is private by its dotted name (`pkg._impl`, `pkg._x.mod`): no part of a package's
        interface, imported only by the project's own modules."""
        return any(part.startswith("_") and not part.startswith("__") for part in self.module.split("."))

    def named_elsewhere(self, name: str, definitions: bool = True) -> bool:
        """Whether another file of the project spells `name` (ProjectIndex.named_elsewhere)."""
        return self.index.named_elsewhere(name, self.path, definitions)

    def imports(self) -> dict[str, str]:
        if self._imports is None:
            tree = self._tree
            self._imports = module_imports(tree, self.module, Path(self.path).stem == "__init__") if tree else {}
        return self._imports

    def qualified(self, func: ast.AST, local: set[str] | frozenset[str] = frozenset(),
                  module_names: Iterable[str] = (), scope: FunctionScope | None = None) -> str | None:
        """The qualified name of a called expression: through the module's imports (relative ones too, and those
        of the function `scope` and the functions around it), or a function or class of this module."""
        found = qualify(func, self.imports(), local)
        if found is not None:
            return found
        head = dotted(func)
        if scope is not None and head is not None:
            name, _, rest = head.partition(".")
            target = _function_import(name, scope)
            if target:
                base = self._absolute(target)
                if base is not None:
                    return f"{base}.{rest}" if rest else base
        if isinstance(func, ast.Name) and func.id not in local and func.id in module_names:
            return f"{self.module}.{func.id}"
        if head is not None and (name := head.partition(".")[0]) not in local:
            stars = [base for key, base in self.imports().items() if key.startswith("*")]
            provider = next((found for base in stars if (found := self._star_provided(base, name, 2))), None)
            if provider is not None:  # `from generax.flows.affine import *` then `ConditionalOptionalTransport(...)`
                rest = head.partition(".")[2]
                return f"{provider}.{rest}" if rest else provider
        return None

    def _star_provided(self, module: str, name: str, hops: int) -> str | None:
        """Where `name` comes from when a module gets it by `from <module> import *`: a function or class
        `module` defines, a name it imports by name, or (through `hops` more star imports, a package's
        `__init__` re-exporting its modules) one of those of another module; None when the index has no module
        of that name or `name` is private (a star import skips `_names`)."""
        if name.startswith("_"):
            return None
        summary = self.index.module(module)
        if summary is None:
            return None
        if name in summary.classes or name in summary.functions:
            return f"{module}.{name}"
        if name in summary.imports:
            return summary.imports[name]
        if hops:
            for key, base in summary.imports.items():
                if key.startswith("*") and (found := self._star_provided(base, name, hops - 1)) is not None:
                    return found
        return None

    def _absolute(self, target: str) -> str | None:
        """`..utils.X` from this module -> `pkg.utils.X`; an absolute name as it is; None above the top."""
        level = len(target) - len(target.lstrip("."))
        if not level:
            return target
        package = self.module if Path(self.path).stem == "__init__" else self.module.rpartition(".")[0]
        parts = package.split(".") if package else []
        if level - 1 > len(parts):
            return None
        parts = parts[: len(parts) - (level - 1)]
        rest = target[level:]
        return ".".join([*parts, *([rest] if rest else [])]) or None

    def function(self, qualified: str) -> FunctionSummary | None:
        return self.index.function(qualified, self.path)

    def donated_positions(self, qualified: str) -> tuple[tuple[int, ...], tuple[str, ...]] | None:
        """For `pkg.steps.apply_grads`, a module-level function of another module jitted with donation: the
        donated positions and the positional parameters (ModuleSummary.donating); None otherwise."""
        module, _, name = qualified.rpartition(".")
        if not module or module.split(".")[0] in _NOT_INDEXED:
            return None
        summary = self.index.module(module)
        return summary.donating.get(name) if summary is not None else None

    def wide_dtype(self, qualified: str) -> bool:
        """Whether `pkg.settings.DTYPE` is a module-level name another module of the project binds once to a
        64-bit dtype (ModuleSummary.wide_dtypes)."""
        module, _, name = qualified.rpartition(".")
        if not module or module.split(".")[0] in _NOT_INDEXED:
            return False
        summary = self.index.module(module)
        return summary is not None and name in summary.wide_dtypes

    def drawless_layer(self, qualified_class: str) -> bool:
        """Whether `init` of a layer of this class draws nothing (see `ProjectIndex.drawless_layer`)."""
        moved = self.index.beside(qualified_class, self.path)
        return self.index.drawless_layer(moved or qualified_class)

    def argument_consumption(self, qualified: str, call: ast.Call, built: ast.Call | None = None,
                             valued: Callable[[ast.expr], bool] = never_none,
                             ) -> list[tuple[ast.AST, str | None]] | None:
        """For each argument of a call of `qualified`: whether the callee consumes it ("always", "maybe",
        None); None when the index cannot see the callee. `built`: for a method of an object, the call that
        constructed the object (`problem = Sphere(num_dims=4)`), whose arguments say what it holds. `valued`:
        whether an argument is known not to be None (the caller may know more of its names than syntax)."""
        context = self._built(qualified, built)
        callee = self.index.function(qualified, self.path)
        if callee is None:
            cls = self.index.cls(qualified, self.path)
            if cls is not None and cls.record:  # Randomness(prng_key=key, step=0): the record stores the key
                return [(a, None) for a in [*call.args, *(k.value for k in call.keywords)]]
            return None
        if not self.index.sees_through(callee):
            return None
        out: list[tuple[ast.AST, str | None]] = []
        if any(isinstance(arg, ast.Starred) for arg in call.args) or any(kw.arg is None for kw in call.keywords):
            return None
        given = [*((callee.positional[i] if i < len(callee.positional) else STAR, arg)
                   for i, arg in enumerate(call.args)), *((kw.arg or "", kw.value) for kw in call.keywords)]
        if any(p.only_without is not None or any(site.passes for site in p.calls) for p in callee.params):
            with_value = frozenset(name for name, arg in given if name != STAR and valued(arg))
        else:
            with_value = frozenset()
        for name, arg in given:
            if name == STAR:
                out.append((arg, self.index.consumption(callee, STAR, built=context) if callee.star_args else None))
            elif callee.param(name) is None:
                out.append((arg, "maybe"))  # a keyword no parameter takes (`**kwargs`)
            else:
                out.append((arg, self.index.consumption(callee, name, built=context,
                                                        valued=with_value - {name})))
        return out

    def factory_product(self, qualified: str, position: int | None, width: int = 0) -> str | None:
        """The qualified name of the function a call of the factory `qualified` hands back (see
        `FunctionSummary.factory_products`): the whole value (`position` None) or the element `position` of the
        tuple of `width` elements it returns (`a, b = make(...)`); None when it is no such factory, or the shapes
        do not match."""
        factory = self.index.function(qualified, self.path)
        if factory is None or not self.index.sees_through(factory) or not factory.factory_products:
            return None
        if position is None:
            return None if factory.factory_tuple else factory.factory_products[0]
        if not factory.factory_tuple or width != len(factory.factory_products) or position >= width:
            return None
        if factory.factory_record is not None:
            record = self.index.cls(factory.factory_record)
            if record is None or not record.record:
                return None  # built by a class that may do anything with its arguments
        return factory.factory_products[position]

    def factory_field(self, qualified: str, attr: str) -> str | None:
        """The qualified name of the function held in field `attr` of the record a call of the factory
        `qualified` returns (see `FunctionSummary.factory_fields`); None when it is no such factory, the field
        holds no known function, or the class built is not a record (it may do anything with its arguments)."""
        factory = self.index.function(qualified, self.path)
        if factory is None or not self.index.sees_through(factory) or factory.factory_fields_class is None:
            return None
        held = dict(factory.factory_fields).get(attr)
        if held is None:
            return None
        record = self.index.cls(factory.factory_fields_class)
        return held if record is not None and record.record else None

    def _built(self, qualified: str, built: ast.Call | None) -> Built:
        """(the object's class, the keywords and the number of positional arguments its constructor was given)
        for a method `Class.method` of an object built by `built`; None when unknown (`*args`, `**kwargs`)."""
        if built is None or "." not in qualified or any(isinstance(a, ast.Starred) for a in built.args) or any(
                kw.arg is None for kw in built.keywords):
            return None
        owner = qualified.rsplit(".", 1)[0]
        found = self.index._split(self.index.beside(owner, self.path) or owner, self.path)
        if found is None or found[1] not in found[0].classes:
            return None
        init = self.index.method(found[0], found[1], "__init__")
        named = [(init.positional[i] if init is not None and i < len(init.positional) else None, a)
                 for i, a in enumerate(built.args)] + [(kw.arg, kw.value) for kw in built.keywords]
        given = tuple((param, held) for param, value in named
                      if param is not None and (held := self._display_classes(value)) is not None)
        return (f"{found[0].name}.{found[1]}", frozenset(kw.arg for kw in built.keywords if kw.arg is not None),
                len(built.args), given)

    def _display_classes(self, value: ast.AST) -> tuple[str, ...] | None:
        """`{"a": A(...), "b": B(...)}` (a list, tuple or set of such calls too): the classes of its elements,
        each a class the index reads; None when an element is anything else."""
        if isinstance(value, ast.Dict):
            elements = value.values if all(k is not None for k in value.keys) else []
        elif isinstance(value, (ast.List, ast.Tuple, ast.Set)):
            elements = value.elts
        else:
            return None
        out: list[str] = []
        for element in elements:
            own = {n.name for n in self._tree.body if isinstance(n, ast.ClassDef)} if self._tree is not None else ()
            q = self.qualified(element.func, module_names=own) if isinstance(element, ast.Call) else None
            found = self.index._split(self.index.beside(q, self.path) or q, self.path) if q is not None else None
            if found is None or found[1] not in found[0].classes:
                return None
            out.append(f"{found[0].name}.{found[1]}")
        return tuple(dict.fromkeys(out)) if out else None

    def key_generator(self, qualified_class: str, attribute: str) -> bool:
        return self.index.key_generator(qualified_class, attribute)

    def implementations_consumption(self, qualified_class: str, method: str,
                                    call: ast.Call) -> list[tuple[ast.AST, str | None]] | None:
        """`argument_consumption` for a method called on an object of the class or of any subclass of it: each
        argument is consumed "always" when every implementation consumes it on every path, "maybe" when one may,
        None when none does; None when not every implementation is known (see `ProjectIndex.implementations`)."""
        callees = self.index.implementations(self.index.beside(qualified_class, self.path) or qualified_class, method)
        if not callees or any(c is None or not self.index.sees_through(c) for c in callees):
            return None
        known = [c for c in callees if c is not None]
        out: list[tuple[ast.AST, str | None]] = []
        for i, arg in enumerate(call.args):
            if isinstance(arg, ast.Starred):
                return None
            answers = [(self.index.consumption(c, c.positional[i]) if i < len(c.positional)
                        else self.index.consumption(c, STAR) if c.star_args else None) for c in known]
            out.append((arg, _all_or_some(answers)))
        for kw in call.keywords:
            if kw.arg is None:
                return None
            answers = [self.index.consumption(c, kw.arg) if c.param(kw.arg) else "maybe" for c in known]
            out.append((kw.value, _all_or_some(answers)))
        return out

    def returns_self(self, qualified_method: str) -> tuple[int, ...]:
        """The positions of a method's returned tuple that hold an object of its class (see FunctionSummary)."""
        found = self.index.function(qualified_method, self.path)
        return found.returns_self if found is not None else ()

    def stale_key_draw(self, qualified_class: str, method: str) -> tuple[str, str, int] | None:
        """For `obj.method(...)` on an object of a class of another module (`FixedSampler(key)`): when `method`
        draws from `self.<attr>` on every call and the only assignment of `<attr>` in the class is `self.<attr> =
        <param>` in `__init__`, (attr, param, its position among the constructor's positional parameters, -1
        for a keyword-only one); None otherwise (a class that advances its key, or one the index cannot see)."""
        with self.index._lock:
            found = self.index._split(qualified_class, self.path)
            if found is None or found[1] not in found[0].classes:
                return None
            summary = found[0].classes[found[1]]
            init = self.index.method(found[0], found[1], "__init__")
        values = dict(summary.attribute_values)
        for drawing, attr in summary.self_key_draws:
            stored = values.get(attr, ())
            if drawing != method or len(stored) != 1 or stored[0][0] != "param" or init is None:
                continue
            param = stored[0][2]
            return attr, param, init.positional.index(param) if param in init.positional else -1
        return None

    def item_assigning(self, qualified_class: str) -> bool:
        """Whether objects of a class (of another module) are written through their own `__setitem__`, defined
        by the class or a base the index can see (`g[i] = v` on such an object is no array update)."""
        with self.index._lock:
            found = self.index._split(qualified_class, self.path)
            if found is None or found[1] not in found[0].classes:
                return False
            return self.index.method(found[0], found[1], "__setitem__") is not None

    def generator_attributes(self) -> frozenset[str]:
        return self.index.generator_attributes()


def _all_or_some(answers: list[str | None]) -> str | None:
    """One call that runs one of several implementations: "always" when each always consumes, else "maybe"
    when one may, else None."""
    return "always" if answers and all(a == "always" for a in answers) else "maybe" if any(answers) else None


# --- the process's shared index (the language server's workspace) --------------------------------------------

_shared: ProjectIndex | None = None


def start_shared_index(roots: Iterable[Path] = ()) -> ProjectIndex:
    """Starts (or returns) the index every analysis of this process asks when it is given none: the language
    server's, fed the documents it is sent (`ProjectIndex.update`) and reading the rest of the workspace lazily,
    the first time a module of it is asked about."""
    global _shared
    if _shared is None:
        _shared = ProjectIndex(roots)
    else:
        for root in roots:
            _shared.add_root(root)
    return _shared


def shared_index() -> ProjectIndex | None:
    return _shared


# --- module texts (x64_reach.py reads what a module does at import) -------------------------------------------


def module_text(index: ProjectIndex, name: str) -> tuple[str, str] | None:
    """The source text and path of a module of the project (found on its roots; never an installed package):
    the text fed to the index when it was fed one (an editor's unsaved text), else the file's on disk. None when
    the project has no such module."""
    with index._lock:
        pending = index._pending.get(name)
        roots = list(index.roots)
    if pending is not None:
        return pending[1], pending[0]
    if not name or name.split(".")[0] in _NOT_INDEXED:
        return None
    relative = Path(*name.split("."))
    for root in roots:
        for candidate in (root / relative.with_suffix(".py"), root / relative / "__init__.py"):
            if candidate.is_file():
                try:
                    data = candidate.read_bytes()
                    return (data.decode("utf-8"), str(candidate)) if len(data) <= _MAX_BYTES else None
                except (OSError, UnicodeDecodeError):
                    return None
    return None
