"""Where PRNG keys are consumed, and which consumption repeats an earlier one.

JAX's random numbers are a pure function of the key, so a key may be *consumed* once: by a sampler, by `split`,
or by any function it is handed to (which may draw from it or split it: `init(key)`, `Linear(..., key=k)`).
`fold_in(key, data)` *derives* a key: several derivations with distinct data are fine, but under JAX's default
(partitionable) threefry `fold_in(k, i)` equals `split(k, n)[i]`, so a derivation and a consumption of the same
key overlap. Keys are followed through names, elements of split arrays (`keys[0]`), attributes and dict entries
(`self.rng`, `state.key`, `rngs["dropout"]`), along every path of a scope (branches, loops with a second pass,
early returns), and into loop and `vmap` bodies that close over a key they then consume every iteration.

Calls that only ask about a key (shape/dtype queries, `key_data`, printing, a predicate in an `assert` or an
`if` test) do not consume it.
"""

from __future__ import annotations

import ast
import bisect
import heapq
import re
from collections import Counter
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

from sharpbits.analysis.execution import Execution
from sharpbits.analysis.facts import Fact
from sharpbits.analysis.flow import ForwardFlow, statement_lists
from sharpbits.analysis.kinds import Kind
from sharpbits.analysis.liveness import values_dead_before
from sharpbits.analysis.project_index import _NOT_INDEXED as NOT_INDEXED
from sharpbits.analysis.project_index import (
    LAYER_BASES,
    class_key_generators,
    hands_back,
    inert_layer_calls,
    never_none,
    none_test,
    returned_carriers,
    super_attribute,
)
from sharpbits.analysis.rules.prng_key_reuse.carried_fields import carried_fields, is_record, record_fields
from sharpbits.analysis.rules.prng_key_reuse.framework_apply import apply_draws
from sharpbits.analysis.rules.prng_key_reuse.reuse import Asked, KeyWalks, ModulePasses, _Passes
from sharpbits.analysis.scopes import FunctionInfo, Scopes

if TYPE_CHECKING:
    from sharpbits.analysis.model import ModuleModel
from sharpbits.analysis.syntax import (
    called_name,
    expected_to_raise,
    is_assertion,
    iter_children,
    literal_int,
    through_partial,
    walk_nodes,
)
from sharpbits.analysis.traced import HAIKU_TRANSFORMS, Provenance

# jax.random functions that take a key without consuming it
RANDOM_NON_CONSUMING = {"key", "PRNGKey", "key_data", "wrap_key_data", "key_impl", "clone"}
RANDOM_DERIVING = {"fold_in"}
# calls that receive a key without drawing from it
# methods that store a value in a container: the key is kept, not drawn from
_STORING_METHODS = {"append", "extend", "insert", "add", "appendleft", "put", "setdefault"}
# the first word of a function's name that says it stores its arguments (`save_checkpoint_if_due(state, key)`,
# `np.save(path, key)`, `pickle.dump(key, f)`): a key handed to it is kept for later, not drawn from
_SAVING_VERBS = {"save", "dump", "dumps", "serialize", "persist", "store", "write"}
# point-mass distributions (numpyro's Delta, distrax's and TFP's Deterministic): sampling one draws nothing
_POINT_MASSES = {"Delta", "Deterministic", "VectorDeterministic", "PointMass"}
# (`getattr(key, "dtype", None)`, `hasattr(key, "shape")`: a validator reading what the key is, round 36's plasmax)
NOT_A_CONSUMER = {"print", "isinstance", "len", "type", "repr", "str", "id", "hash", "getattr", "hasattr", "zip",
                  "enumerate", "list",
                  "tuple", "iter", "reversed", "sorted", "dict", "set", "jax.device_put", "jax.tree.map",
                  "jax.tree_util.tree_map", "jax.block_until_ready", "jax.debug.print", "jax.numpy.shape",
                  "jax.numpy.ndim", "jax.numpy.size", "jax.dtypes.issubdtype", "jax.numpy.issubdtype",
                  "jax.device_get", "jax.tree.leaves", "jax.tree_util.tree_leaves"}
# logging formats its arguments (`logging.info("key: %s", key)`, absl's `logging.info`, `logger.debug(...)`): it
# draws nothing from a key it is given
_LOGGING_MODULES = ("logging.", "absl.logging.", "loguru.logger.")
_LOGGER_NAME = re.compile(r"_*(\w+_)?(log|logger|logging)")  # log, _logger, LOGGER, train_logger; not catalog
_LOG_LEVELS = {"debug", "info", "warning", "warn", "error", "exception", "critical", "fatal", "log", "vlog",
               "log_first_n", "log_every_n", "log_every_n_seconds", "trace", "success"}


def _logs(q: str | None, call: ast.Call) -> bool:
    """Whether the call writes a log record: a function of a logging module, or a level method of an object named
    as a logger (`logger.info`, `self._log.warning`, `LOGGER.debug`)."""
    if q is not None and q.startswith(_LOGGING_MODULES):
        return True
    func = call.func
    if not (isinstance(func, ast.Attribute) and func.attr in _LOG_LEVELS):
        return False
    receiver = func.value
    name = receiver.attr if isinstance(receiver, ast.Attribute) else receiver.id if isinstance(receiver, ast.Name) else ""
    return _LOGGER_NAME.fullmatch(name.lower()) is not None


# the modules of JAX's and flax's initializers (`jax.nn.initializers.zeros`, `flax.linen.initializers.constant`)
_INITIALIZER_MODULES = ("jax.nn.initializers.", "flax.linen.initializers.", "flax.nnx.initializers.",
                        "flax.nnx.nn.initializers.")
# normalisation layers whose parameters start as ones and zeros: their init draws nothing from its key
DRAWLESS_LAYERS = {f"{lib}.{layer}" for lib in ("flax.linen", "flax.nnx", "haiku", "equinox.nn")
                   for layer in ("LayerNorm", "RMSNorm", "GroupNorm", "BatchNorm", "InstanceNorm")}
# equinox's dropout: in inference mode (`inference=True`, the old `deterministic=True`, or `p=0`) its `__call__`
# returns its input and draws nothing from the key it is given
_DROPOUTS = {"equinox.nn.Dropout", "equinox.nn._dropout.Dropout"}
# haiku (`hk.transform(f)` and the position of `rng` in its `apply`: traced.HAIKU_TRANSFORMS): the calls that take a key from that rng; the
# layers and functions that never do when applied (their initialisers run in `init` only); builtins and array
# methods that take no key
_HAIKU_RNG = {f"haiku.{name}" for name in ("next_rng_key", "next_rng_keys", "maybe_next_rng_key", "reserve_rng_keys",
                                            "dropout", "PRNGSequence", "get_rng_sequence_state",
                                            "maybe_get_rng_sequence_state", "replace_rng_sequence_state")}
_HAIKU_PLAIN = {f"haiku.{name}" for name in (
    "Linear", "Conv1D", "Conv2D", "Conv3D", "ConvND", "Conv1DTranspose", "Conv2DTranspose", "Conv3DTranspose",
    "DepthwiseConv1D", "DepthwiseConv2D", "Sequential", "Flatten", "Reshape", "LayerNorm", "RMSNorm", "BatchNorm",
    "GroupNorm", "InstanceNorm", "Embed", "Bias", "LSTM", "GRU", "VanillaRNN", "DeepRNN", "dynamic_unroll",
    "static_unroll", "MaxPool", "AvgPool", "max_pool", "avg_pool", "MultiHeadAttention", "get_parameter",
    "get_state", "set_state", "Module", "nets.MLP", "initializers.Orthogonal", "initializers.VarianceScaling",
    "initializers.TruncatedNormal", "initializers.RandomNormal", "initializers.RandomUniform",
    "initializers.Constant", "one_hot", "expand_apply", "BatchApply")}
# haiku layers that call the functions they are given (a layer list, a recurrent core)
_HAIKU_CALLS_ARGUMENTS = {"haiku.Sequential", "haiku.DeepRNN", "haiku.dynamic_unroll", "haiku.static_unroll"}
_HAIKU_BUILTINS = {"len", "range", "enumerate", "zip", "isinstance", "int", "float", "bool", "list", "tuple", "dict",
                   "min", "max", "abs", "sum", "super", "getattr", "print", "sorted", "reversed", "str"}
_ARRAY_METHODS = {"reshape", "astype", "sum", "mean", "max", "min", "transpose", "squeeze", "flatten", "ravel",
                  "set", "get", "add", "multiply", "clip", "swapaxes", "dot", "std", "var", "argmax", "argmin", "all",
                  "any", "prod", "cumsum", "round", "append", "items", "keys", "values"}
# unittest's identity and type checks: they compare objects, never draw from a key handed to them
_IDENTITY_CHECKS = {"assertIs", "assertIsNot", "assertIsInstance", "assertNotIsInstance", "assertIsNone",
                    "assertIsNotNone"}
# key streams: objects built from a key that hand out keys derived from it on every request (nnx's `Rngs(key)`
# folds in the counters 0, 1, 2, ...; haiku's `PRNGSequence(key)` splits it, then each key in turn), so two streams
# built from one key hand out the same keys in the same order: building one surely consumes its key
_KEY_STREAMS = {"flax.nnx.Rngs", "flax.nnx.rnglib.Rngs", "haiku.PRNGSequence"}
# nnx layers whose constructor draws its parameters from the `rngs` it is given (a LayerNorm draws nothing)
_NNX_DRAWING_LAYERS = {f"flax.nnx.{name}" for name in (
    "Linear", "LinearGeneral", "Einsum", "Conv", "ConvTranspose", "Embed", "MultiHeadAttention")}
# transformations that run a function once per element, iteration or device: a key it closes over and consumes
# is consumed again each time
# Equinox layers whose constructor draws exactly the arrays `weight` and `bias` (see reinitialised_argument)
_EQUINOX_WEIGHT_LAYERS = frozenset(f"equinox.nn.{name}" for name in (
    "Linear", "Conv", "Conv1d", "Conv2d", "Conv3d", "ConvTranspose", "ConvTranspose1d", "ConvTranspose2d",
    "ConvTranspose3d"))
_REPEATING = {"jax.vmap", "jax.pmap", "equinox.filter_vmap", "flax.nnx.vmap", "scan body", "fori_loop body",
              "while_loop body", "map body"}
# transformations whose result takes the function's arguments unchanged (as far as keys go)
_PASSING_ON = {"jit", "pjit", "filter_jit", "named_call", "checkpoint", "remat"}
# transformations that call the function with each mapped element of their arguments at the same positions
_MAPPING = {"vmap", "filter_vmap"}
# samplers that pick or reorder rows: one key for every leaf of a pytree picks the same rows of each (brax, evorl:
# `jax.tree.map(lambda x: jax.random.permutation(key, x), batch)` shuffles observations and actions together)
_ROW_SELECTING = {"permutation", "choice", "shuffle"}
# kinds of value that are one leaf of a pytree
_ONE_LEAF = frozenset({Kind.JAX, Kind.JAX_MASK, Kind.NUMPY, Kind.KEY, Kind.PYTHON, Kind.REF})
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)
# NumPy calls that copy an array to the host: `np.array(key)[0]` is one word of the key
_HOST_COPIES = {"numpy.array", "numpy.asarray", "numpy.asanyarray", "numpy.copy"}


@dataclass(frozen=True)
class KeyUse:
    node: ast.AST  # the key as used: a Name, `keys[0]`, `self.rng`, `rngs["dropout"]`
    label: str  # how the message names it
    call: ast.Call
    statement: ast.stmt | None
    how: str  # "draw" (a sampler), "split" (split, or handed to a function), "derive" (fold_in)
    definite: bool  # surely consumed: not a call of this module's function that may skip the key


@dataclass(frozen=True)
class KeyReuse:
    """A key consumed again: `node` is the second use, `first` the one it repeats."""

    node: ast.AST
    label: str
    first: KeyUse | None  # None for `where` = "comprehension" and "closure"
    where: str  # "again" (after an earlier use), "loop" (the same use, next iteration), "comprehension", "closure",
    # "init" (a method consumes a key on `self` that `__init__` consumed and left; `transform`: the method),
    # "seed body" (a key of a literal seed made in a body run per iteration; `transform`: "what runs it|unit"),
    # "carry" (a loop body hands the key it consumed back in its carry), "unmapped" (a key handed to a vmapped
    # function at an `in_axes` None position that it draws from; `transform`: the vmap)
    transform: str = ""  # for "closure": the transformation that repeats the body; for "carry": the loop
    sure: bool = True  # both uses surely consume the key (not a function we cannot see)


State = dict[str, KeyUse]  # label -> its first use on this path (absent: fresh)


# a plain copy of a key (`rng = self.key`) is kept in the state under `~rng`, its KeyUse naming the origin
_ALIAS = "~"
_LAST = "^"  # `^label`: the latest sure use of the key, after the first (state[label])
_EARLIER = _LAST * 2  # `^^label`: the sure use before that one
_INDEX = "@"  # `keys[@i]`: the element of `keys` at the index held by the name `i`
_ALIAS_CALL = ast.Call(func=ast.Name("<alias>", ast.Load()), args=[], keywords=[])


def _merge(a: State | None, b: State | None) -> State | None:
    """Consumed on either path: consumed. A copy is the same key only when it is one on both paths."""
    if a is None:
        return b
    if b is None:
        return a
    out = dict(b)
    out.update(a)
    for label in [k for k in out if k.startswith(_ALIAS)]:
        if label not in a or label not in b or a[label].label != b[label].label:
            del out[label]
    return out


def _conflict(first: KeyUse, how: str, definite: bool) -> bool:
    """Derivations with distinct data may follow each other and draws; everything else repeats the key. Two uses
    that each may not happen (calls of functions that draw only under a flag) stay silent."""
    if "derive" in (first.how, how) and "split" not in (first.how, how):
        return False
    return first.definite or definite


class KeyFlow(Fact):
    """The key part of ModuleModel (see model.py): `key_reuses()` lists every repeated consumption."""

    Memory = KeyWalks  # each function's walk, taken again in the next version when all it read is the same

    _key_reuses: list[KeyReuse] | None = None
    _consumption: dict[int, dict[str, str]] | None = None
    _methods: dict[str, FunctionInfo] | None = None
    _loop_calls: tuple[list[ast.Call], list[ast.Call]] | None = None
    _generators: dict[str, frozenset[str]] | None = None
    _on_self: dict[tuple[str, str], tuple[ast.expr, FunctionInfo] | None] | None = None
    _guards: dict[int, dict[str, frozenset[str]]] | None = None
    _flag_guards: dict[int, dict[str, frozenset[tuple[str, bool]]]] | None = None
    _seed_constants: dict[str, int | None] | None = None
    _key_names: set[int] | None = None  # ids of the names of kind KEY (see _may_have_own_key)
    _globals: set[str] | None = None  # the names `global` declares anywhere (see _declared_global)
    _equinox: bool | None = None  # whether the module imports equinox (see uses_equinox)
    _walks: KeyWalks | None = None  # this document's memory, while the key reuses are found (see _project_answer)
    _relay: dict[str, frozenset[int]] = {}  # see _relayed_params (this version's, while the key reuses are found)
    _passes: ModulePasses | None = None  # its module passes' results, while the key reuses are found
    _inside: dict[int, list[FunctionInfo]] | None = None  # see _functions_inside

    def __init__(self, model: ModuleModel) -> None:
        super().__init__(model)
        self._positions: dict[int, tuple[ast.Call, frozenset[int]]] = {}
        self._bound_by_assignment: dict[int, dict[str, ast.expr]] = {}  # see _bound_once_by_assignment
        self._assigned: dict[int, tuple[FunctionInfo | None, dict[str, list[ast.expr | None]], dict[str, list[ast.Name]]]] = {}
        self._framework_draws: dict[tuple[int, int], tuple[ast.Call, list[tuple[ast.AST, str]] | None]] = {}
        self._walked: dict[int, tuple[ast.AST, list[ast.AST]]] = {}
        # id(scope) -> (scope, name -> (the partial, the key it holds, how a call consumes it)): see key_partials
        self._key_partials: dict[int, tuple[FunctionInfo | None, dict[str, tuple[ast.Call, ast.expr, str]]]] = {}

    def walked(self, node: ast.AST) -> list[ast.AST]:
        """`walk_nodes(node)` of a function's node, made once per analysis: the guards, the reads after a split and
        the checks of a draw each walked the whole function again (`none_guards` once per parameter). Read only:
        callers iterate it."""
        found = self._walked.get(id(node))
        if found is None or found[0] is not node:
            found = self._walked[id(node)] = (node, walk_nodes(node))
        return found[1]

    def key_reuses(self) -> list[KeyReuse]:
        if self._key_reuses is None:
            self._key_reuses = self._find_key_reuses()
        return self._key_reuses

    def framework_draws(self, call: ast.Call, scope: FunctionInfo | None) -> list[tuple[ast.AST, str]] | None:
        """framework_apply.apply_draws, once per call in this version: asked by the scope filter, the walks' key
        labels, argument_uses and the walks' memory (KeyWalks asks it again for a walk taken from the last one)."""
        key = (id(call), id(scope))
        known = self._framework_draws.get(key)
        if known is not None and known[0] is call:
            return known[1]
        found = apply_draws(self, call, scope)
        self._framework_draws[key] = (call, found)
        return found

    def random_key_arg(self, call: ast.Call, scope: FunctionInfo | None) -> tuple[ast.AST | None, str]:
        """The key a `jax.random` call uses (None if none), and how: "draw", "split" or "derive"."""
        q = self.scopes.qualname(call.func, scope)
        if q is None or not q.startswith("jax.random."):
            return None, ""
        name = q.rsplit(".", 1)[1]
        if name in RANDOM_NON_CONSUMING:
            return None, ""
        key = next((kw.value for kw in call.keywords if kw.arg == "key"), call.args[0] if call.args else None)
        return key, "derive" if name in RANDOM_DERIVING else "split" if name == "split" else "draw"

    def key_partials(self, scope: FunctionInfo | None) -> dict[str, tuple[ast.Call, ast.expr, str]]:
        """`sample = functools.partial(jax.random.normal, key)`: a name the scope binds once to a partial of a
        `jax.random` function that holds the key (positionally or as `key=`). Each call `sample(shape)` runs the
        sampler on that key, so it consumes the key as the sampler does ("draw" or "split"; `fold_in` partials are
        left out). Only where the partial cannot hold another key than the one its name now names: the key is a
        plain name the scope does not bind after the partial (nor in a loop around it), and every read of the
        partial's name, nested functions included, is a call of it (a partial handed elsewhere is not followed).
        name -> (the partial, the key it holds, how); found once per scope."""
        memo = self._key_partials
        known = memo.get(id(scope))
        if known is not None and known[0] is scope:
            return known[1]
        found: dict[str, tuple[ast.Call, ast.expr, str]] = {}
        own = self.scopes.own_nodes(scope)
        candidates = [n for n in own if type(n) is ast.Assign and len(n.targets) == 1  # type: ignore[attr-defined]
                      and type(n.targets[0]) is ast.Name and type(n.value) is ast.Call  # type: ignore[attr-defined]
                      and n.value.args]  # type: ignore[attr-defined]
        for stmt in candidates:
            partial_call: ast.Call = stmt.value  # type: ignore[attr-defined,assignment]
            name: str = stmt.targets[0].id  # type: ignore[attr-defined]
            if self.scopes.qualname(partial_call.func, scope) != "functools.partial" or any(
                    isinstance(a, ast.Starred) for a in partial_call.args) or any(
                    k.arg is None for k in partial_call.keywords):
                continue
            inner = ast.Call(func=partial_call.args[0], args=partial_call.args[1:], keywords=partial_call.keywords)
            key, how = self.random_key_arg(inner, scope)
            if key is None or how == "derive" or not isinstance(key, ast.Name):
                continue
            stores = self._assigned_in(scope)[1]
            if len(stores.get(name, [])) != 1 or (scope is not None and (
                    name in scope.params or name in scope.outer_names or key.id in scope.outer_names)):
                continue
            if self._declared_global(name) or self._declared_global(key.id):
                continue
            if any(getattr(n, "lineno", 0) >= stmt.lineno for n in stores.get(key.id, [])) or self._in_loop(stmt, scope):
                continue
            root = self.scopes.tree if scope is None else scope.node
            reads = [n for n in self.walked(root) if type(n) is ast.Name and n.id == name  # type: ignore[attr-defined]
                     and type(n.ctx) is ast.Load]  # type: ignore[attr-defined]
            if not reads or not all(isinstance(p := self.scopes.parents.get(n), ast.Call) and p.func is n
                                    for n in reads):
                continue
            found[name] = (partial_call, key, how)
        memo[id(scope)] = (scope, found)
        return found

    def _in_loop(self, node: ast.AST, scope: FunctionInfo | None) -> bool:
        """Whether a statement lies in a loop of its own scope."""
        root = self.scopes.tree if scope is None else scope.node
        cur = self.scopes.parents.get(node)
        while cur is not None and cur is not root:
            if isinstance(cur, (ast.For, ast.AsyncFor, ast.While)):
                return True
            cur = self.scopes.parents.get(cur)
        return False

    def partial_key(self, call: ast.Call, scope: FunctionInfo | None) -> tuple[ast.expr, str] | None:
        """The key a call of a name bound to a key-holding partial of a jax.random function consumes (see
        `key_partials`), and how; None for any other call."""
        if type(call.func) is not ast.Name:
            return None
        held = self.key_partials(scope).get(call.func.id)  # type: ignore[attr-defined]
        return (held[1], held[2]) if held is not None else None

    def stored_key_draw(self, call: ast.Call, scope: FunctionInfo | None) -> tuple[ast.expr, str] | None:
        """`sampler.draw(4)` with `sampler = FixedSampler(key)` bound once in `scope`, a class of this module whose
        `__init__` stores its parameter as it is (`self.key = key`) and whose method draws from `self.key` in a
        statement that always runs, nothing in the class storing `self.key` again: each call draws from the key
        given to the constructor (the expression returned, with the attribute), the same numbers every time."""
        func = call.func
        if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)):
            return None
        built = self._receiver_as_built(func.value, scope)
        value = built[0] if built is not None else None
        classes = self.scopes.module_classes()
        if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Name)):
            return None
        if value.func.id not in classes:
            return self._project_stored_key_draw(value, func.attr)
        cls = value.func.id
        init, method = self.traced._method(f"{cls}.__init__"), self.traced._method(f"{cls}.{func.attr}")
        if init is None or method is None or isinstance(init.node, ast.Lambda) or isinstance(method.node, ast.Lambda):
            return None
        stored: dict[str, str] = {}  # attribute -> the __init__ parameter stored there unchanged
        for stmt in init.node.body:
            if (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Attribute)
                    and isinstance(stmt.targets[0].value, ast.Name) and stmt.targets[0].value.id == "self"
                    and isinstance(stmt.value, ast.Name) and stmt.value.id in init.params[1:]):
                stored[stmt.targets[0].attr] = stmt.value.id
        if not stored:
            return None
        drawn: set[str] = set()
        for stmt in method.node.body:  # the statements that always run: up to the first compound one
            if not isinstance(stmt, (ast.Expr, ast.Assign, ast.AnnAssign, ast.Return)):
                break
            for node in walk_nodes(stmt):
                if isinstance(node, ast.Call):
                    key, how = self.random_key_arg(node, method)
                    if (how == "draw" and isinstance(key, ast.Attribute) and isinstance(key.value, ast.Name)
                            and key.value.id == "self" and key.attr in stored):
                        drawn.add(key.attr)
            if isinstance(stmt, ast.Return):
                break
        methods = [fn for fn in self.scopes.functions.values() if fn.qualname.startswith(cls + ".")]
        for attr in sorted(drawn):
            param = stored[attr]
            stores = sum(isinstance(n, ast.Attribute) and n.attr == attr and not isinstance(n.ctx, ast.Load)
                         for fn in methods for n in self.scopes.own_nodes(fn))
            reads = sum(isinstance(n, ast.Name) and n.id == param for n in self.scopes.own_nodes(init))
            if stores != 1 or reads != 1:
                continue  # the class advances the key (`self.key, sub = split(self.key)`), or __init__ uses it
            positional = init.params[1:]
            index = positional.index(param)
            given = value.args[index] if index < len(value.args) and not any(
                isinstance(a, ast.Starred) for a in value.args) else next(
                (k.value for k in value.keywords if k.arg == param), None)
            if given is not None:
                return given, attr
        return None

    def _project_stored_key_draw(self, built: ast.Call, method: str) -> tuple[ast.expr, str] | None:
        """stored_key_draw for an object of a class another module of the project defines (the project index's
        summary of the class: ProjectView.stale_key_draw)."""
        project = self.model.project
        qualified = project.qualified(built.func) if project is not None else None
        if project is None or qualified is None or qualified.split(".")[0] in NOT_INDEXED:
            return None
        stale = project.stale_key_draw(qualified, method)
        if stale is None or any(isinstance(a, ast.Starred) for a in built.args):
            return None
        attr, param, position = stale
        given = built.args[position] if 0 <= position < len(built.args) else next(
            (k.value for k in built.keywords if k.arg == param), None)
        return (given, attr) if given is not None else None

    def holds_key_partial(self, call: ast.Call, scope: FunctionInfo | None) -> bool:
        """`functools.partial(jax.random.normal, key)` bound to a name of `key_partials`: building it draws
        nothing (its calls do)."""
        return any(held[0] is call for held in self.key_partials(scope).values())

    def reads_one_word(self, call: ast.Call, q: str | None, scope: FunctionInfo | None) -> bool:
        """`np.array(subkey)[0]`, `int(np.asarray(key)[1])`: a NumPy copy of a single key, indexed at once by an
        int literal, is one of the key's two uint32 words: an integer on the host (a seed for NumPy's generator,
        an id), not a key, and NumPy draws nothing from it. Only for a name bound in this scope to a single key
        (a target of unpacking `jax.random.split(...)`, or `jax.random.PRNGKey(...)` / `jax.random.key(...)`):
        a parameter may hold a key array, whose row `np.array(keys)[0]` is a whole key."""
        if q not in _HOST_COPIES or len(call.args) != 1 or call.keywords or not isinstance(call.args[0], ast.Name):
            return False
        parent = self.scopes.parents.get(call)
        if not (isinstance(parent, ast.Subscript) and parent.value is call and isinstance(parent.ctx, ast.Load)
                and literal_int(parent.slice) is not None):
            return False
        return self._single_key_name(call.args[0].id, scope)

    def _single_key_name(self, name: str, scope: FunctionInfo | None) -> bool:
        """Whether every binding of NAME in SCOPE (a function, not a parameter or a name of an outer scope) makes
        one key: `key, subkey = jax.random.split(key)` (two pieces, each one key), `k = jax.random.PRNGKey(0)`."""
        if scope is None or name not in scope.local_names or name in scope.params or name in scope.outer_names:
            return False
        bindings = 0
        for node in self.scopes.own_nodes(scope):
            if not (isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, (ast.Store, ast.Del))):
                continue
            parent = self.scopes.parents.get(node)
            if isinstance(parent, ast.Tuple):
                holder = self.scopes.parents.get(parent)
                value = holder.value if isinstance(holder, ast.Assign) and holder.targets == [parent] else None
                if not (isinstance(value, ast.Call) and self.scopes.qualname(value.func, scope) == "jax.random.split"
                        and not any(isinstance(e, ast.Starred) for e in parent.elts)
                        and _split_count(value) in (None, len(parent.elts))):
                    return False
            elif isinstance(parent, ast.Assign) and parent.targets == [node]:
                if not (isinstance(parent.value, ast.Call) and self.scopes.qualname(
                        parent.value.func, scope) in ("jax.random.PRNGKey", "jax.random.key")):
                    return False
            else:
                return False
            bindings += 1
        return bindings > 0

    def seed_label(self, node: ast.AST, scope: FunctionInfo | None) -> str | None:
        """`jax.random.PRNGKey(1)`, `jax.random.key(SEED)` with `SEED = 1` a module constant or a name this scope
        binds once to 1: a key made from a known seed. Two keys made from one seed are one key (`PRNGKey(s)` and
        `key(s)` draw the same numbers under the default implementation), so they share the label "seed 1"."""
        if not isinstance(node, ast.Call) or len(node.args) != 1:
            return None
        q = self.scopes.qualname(node.func, scope)
        if q not in ("jax.random.PRNGKey", "jax.random.key"):
            return None
        impl = ""
        for kw in node.keywords:
            if kw.arg != "impl" or not isinstance(kw.value, ast.Constant) or not isinstance(kw.value.value, str):
                return None
            impl = f" ({kw.value.value})"
        value = self._seed_value(node.args[0], scope)
        return None if value is None else f"seed {value}{impl}"

    def _seed_value(self, value: ast.AST, scope: FunctionInfo | None) -> int | None:
        """An int literal, a name bound once in this scope to one (not a parameter), or a module constant."""
        found = literal_int(value)
        if found is not None or not isinstance(value, ast.Name):
            return found
        if scope is not None and value.id in scope.local_names:
            if value.id in scope.params or value.id in scope.outer_names:
                return None
            stores = [n for n in self.scopes.own_nodes(scope) if isinstance(n, ast.Name) and n.id == value.id
                      and not isinstance(n.ctx, ast.Load)]
            bound = [n for n in self.scopes.own_nodes(scope) if isinstance(n, ast.Assign) and len(n.targets) == 1
                     and isinstance(n.targets[0], ast.Name) and n.targets[0].id == value.id]
            if len(stores) != 1 or len(bound) != 1:
                return None
            return literal_int(bound[0].value)
        if scope is not None and self.scopes.is_local(value.id, scope):
            return None  # an enclosing function's name
        if self._seed_constants is None:
            self._seed_constants = {}
        if value.id not in self._seed_constants:
            self._seed_constants[value.id] = _module_int(self, value)
        return self._seed_constants[value.id]

    def is_predicate(self, call: ast.Call) -> bool:
        """A call whose result is only tested for truth (`assert is_prng_key(key)`, `if is_valid(k):`): it asks
        about its arguments rather than using them."""
        node: ast.AST = call
        parent = self.scopes.parents.get(node)
        while isinstance(parent, ast.BoolOp) or (isinstance(parent, ast.UnaryOp) and isinstance(parent.op, ast.Not)):
            node, parent = parent, self.scopes.parents.get(parent)
        if isinstance(parent, ast.Call) and node in parent.args[:1] and _truth_assertion(parent.func):
            return True  # self.assertTrue(is_valid(key)): tested for truth as well
        return isinstance(parent, (ast.Assert, ast.If, ast.While, ast.IfExp)) and parent.test is node  # type: ignore[union-attr]

    def _find_key_reuses(self) -> list[KeyReuse]:
        if not any(q == "jax" or q.startswith(("jax.random", "flax", "haiku")) for q in self.scopes.import_targets()):
            return []  # this module can name neither a jax.random function nor a key stream (nnx.Rngs(seed))
        walks = self.memory()
        assert walks is None or isinstance(walks, KeyWalks)
        if walks is None:
            always = self._always_consumed_params()
            self._relay = self._relayed_params(always)
            return self._found_key_reuses(always, None)
        walks.begin()
        try:  # (what a version that fails half-way made is what the next one compares with: all of it holds)
            walks.begin_version(self)  # (what holds of the last version's answers, KeyWalks.kept)
            passes = self._passes = walks.begin_passes(self)  # (which functions' module passes hold)
            self._walks = walks
            always = self._always_consumed_params()
            self._relay = self._relayed_params(always)
            always = passes.set_always(always, self._relay)
            return self._found_key_reuses(always, walks)
        finally:
            walks.commit()
            self._walks = self._passes = None

    def _found_key_reuses(self, always: dict[str, set[int]], walks: KeyWalks | None) -> list[KeyReuse]:
        # the scopes that may consume a key: they call jax.random, a function of the module that always consumes a
        # key argument, or hand a key (by kind) to any function (with the memory: whether its passes hold)
        scopes: list[tuple[FunctionInfo | None, bool]] = []
        passes = self._passes
        facts = _ScopeKeyFacts.of(self, None) if passes is None else passes.module_facts(
            self, partial(_ScopeKeyFacts.of, self, None))
        if self._may_consume(facts, always, None):
            scopes.append((None, False))
        if passes is None:
            for info in self.scopes.functions.values():
                if not isinstance(info.node, ast.Lambda) and self._may_consume(self._key_facts(info), always, info):
                    scopes.append((info, False))
        else:
            assert walks is not None
            run = reused = 0
            keep_answer = walks.keep_answer if walks.answering() else None
            for info, record in passes.units:
                if isinstance(info.node, ast.Lambda):
                    continue
                consumes = record.consumes
                if consumes is None:
                    consumes = record.consumes = self._may_consume(self._key_facts(info, record), always, info)
                    run += 1
                else:
                    if keep_answer is not None:
                        keep_answer(info)
                    reused += 1
                if consumes:
                    scopes.append((info, record.held and passes.same_always))
            passes.count("filter", reused, run)
        found: list[KeyReuse] = []
        for fn, held in scopes:
            if fn is None:
                found.extend(_ScopeWalk(self, None, self.scopes.tree.body, always).found)
            elif walks is None:
                found.extend(_ScopeWalk(self, fn, fn.node.body, always).found)  # type: ignore[arg-type]
            else:
                found.extend(walks.found(
                    self, fn, always, partial(self._flows_of, fn),
                    lambda log, fn=fn: _ScopeWalk(self, fn, fn.node.body, always, log).found,  # type: ignore[misc]
                    held))
        found.extend(self._closure_reuses())
        found.extend(self._decorator_key_reuses())
        found.extend(carry_reuses(self))
        found.extend(after_init_reuses(self, always))
        found.extend(seed_keys_in_repeated_bodies(self))
        return found

    def _flows_of(self, fn: FunctionInfo) -> list[tuple[int, dict[int, Kind]]]:
        """The kinds the flows of a function and of every function inside it recorded (KeyWalks.found)."""
        if self._inside is None:
            self._inside = self._functions_inside()
        return [(id(f.node), self.kinds.flow_records(f)) for f in [fn, *self._inside.get(id(fn), ())]]

    def _functions_inside(self) -> dict[int, list[FunctionInfo]]:
        """id(function) -> every function defined inside it, at any depth."""
        inside: dict[int, list[FunctionInfo]] = {}
        for info in self.scopes.functions.values():
            outer = info.parent
            while outer is not None:
                inside.setdefault(id(outer), []).append(info)
                outer = outer.parent
        return inside

    def _closure_reuses(self) -> list[KeyReuse]:
        """A key a vmap/scan/fori_loop body closes over and consumes: every element or iteration draws the same
        numbers. So does a function `jax.tree.map` calls once per leaf, traced or not (`_leaf_closure_reuses`).
        Per function, taken from the last version where its passes hold (ModulePasses)."""
        out: list[KeyReuse] = []
        passes = self._passes
        if passes is None:
            for fn in self.scopes.functions.values():
                out.extend(self._closure_reuses_of(fn))
            return out
        run = 0
        for fn, record in passes.units:
            part = record.closure
            if part is None:
                part = record.closure = self._closure_reuses_of(fn)
                run += 1
            if part:
                out.extend(part)
        passes.count("closure", len(passes.units) - run, run)
        return out

    def _closure_reuses_of(self, fn: FunctionInfo) -> list[KeyReuse]:
        out = self._leaf_closure_reuses(fn)
        if not fn.traces:
            return out
        repeating = next((t.reason for t in fn.traces if t.reason in _REPEATING), None)
        if repeating is None:
            return out
        for node in self.scopes.own_nodes(fn):
            if not isinstance(node, ast.Call):
                continue
            key, how = self.random_key_arg(node, fn)
            if how == "derive" or not isinstance(key, ast.Name) or key.id in fn.local_names:
                continue  # a key the body derives per element, or its own
            out.append(KeyReuse(key, key.id, None, "closure", repeating))
        out.extend(self._unmapped_key_reuses(fn))
        return out

    def _decorator_key_reuses(self) -> list[KeyReuse]:
        """`@stochastic(seed=0)` whose decorator makes one key (`key = jax.random.key(seed)`, in the factory or at
        module level) and whose wrapper hands it to the decorated function on every call (`return fn(key,
        *args)`): when the function consumes that parameter on every path and the module calls it more than once
        (in a loop or a comprehension, or at two places), every call draws the same numbers. Per function, taken
        from the last version where its passes hold (ModulePasses)."""
        out: list[KeyReuse] = []
        passes = self._passes
        if passes is None:
            for fn in self.scopes.functions.values():
                if fn.parent is None and not isinstance(fn.node, ast.Lambda) and fn.node.decorator_list:
                    out.extend(self._decorator_reuses_of(fn))
            return out
        run = reused = 0
        for fn, record in passes.decorated:  # (the module-level functions with a decorator, in order)
            part = record.decorator
            if part is None:
                part = record.decorator = self._decorator_reuses_of(fn, record)
                run += 1
            else:
                reused += 1
            out.extend(part)
        passes.count("decorator", reused, run)
        return out

    def _decorator_reuses_of(self, fn: FunctionInfo, record: _Passes | None = None) -> list[KeyReuse]:
        out: list[KeyReuse] = []
        always = self._key_facts(fn, record).always
        if not always:
            return out
        calls = [c for c in self.scopes.nodes(ast.Call) if isinstance(c, ast.Call)
                 and isinstance(c.func, ast.Name) and c.func.id == fn.name]
        if len(calls) < 2 and not any(self.model.fact(Execution).enclosing_loop(c) is not None for c in calls):
            return out
        for deco in fn.node.decorator_list:  # type: ignore[union-attr]
            wrapper = self.traced.decorator_wrapper(deco, None)
            if wrapper is None or wrapper.parent is None or isinstance(wrapper.node, ast.Lambda):
                continue
            wrapped = {p for p in wrapper.parent.params}  # the decorator's `fn`
            for call in self.scopes.own_calls(wrapper):
                if not (isinstance(call.func, ast.Name) and call.func.id in wrapped):
                    continue
                for position, arg in enumerate(call.args):
                    if isinstance(arg, ast.Starred):
                        break
                    if position in always and isinstance(arg, ast.Name) and self._made_once_outside(arg, wrapper):
                        out.append(KeyReuse(arg, arg.id, None, "decorator", f"{fn.name}|{ast.unparse(deco)}"))
        return out

    def _made_once_outside(self, key: ast.Name, wrapper: FunctionInfo) -> bool:
        """`key` read in `wrapper` is bound once, outside it (in the decorator or its factory, or at module level),
        to a key made from a seed (`jax.random.key(seed)`, `PRNGKey(0)`)."""
        if key.id in wrapper.local_names:
            return False
        scope = wrapper.parent
        while scope is not None and key.id not in scope.local_names:
            scope = scope.parent
        value = self.traced.bound_once(key.id, scope)
        return isinstance(value, ast.Call) and self.scopes.qualname(value.func, scope) in (
            "jax.random.key", "jax.random.PRNGKey")

    def _leaf_closure_reuses(self, fn: FunctionInfo) -> list[KeyReuse]:
        """`jax.tree.map(lambda p: p + jax.random.normal(key, p.shape), params)`: `jax.tree.map` calls the function
        once per leaf, and a key it closes over is the same key at every leaf, so leaves of one shape get the same
        noise (others numbers made from the same bits). Not when every mapped tree is known to be one leaf (an
        array, a key, a Python scalar), nor for samplers that pick rows (`permutation`, `choice`: the same rows of
        every leaf keep a batch aligned, on purpose), nor for a key the function rebinds (`nonlocal key`)."""
        calls = self.kinds.tree_map_calls(fn) if isinstance(fn.node, ast.Lambda) or fn.parent is not None else []
        if not calls or not any(self._many_leaves(call) for call in calls):
            return []
        out = []
        for node in self.scopes.own_nodes(fn):
            if not isinstance(node, ast.Call):
                continue
            key, how = self.random_key_arg(node, fn)
            if how == "derive" or not isinstance(key, ast.Name) or key.id in fn.local_names or key.id in fn.outer_names:
                continue  # a key derived per leaf (`fold_in`), the function's own, or one it rebinds (`nonlocal key`)
            if (self.scopes.qualname(node.func, fn) or "").rsplit(".", 1)[-1] in _ROW_SELECTING:
                continue  # the same rows of every leaf: how a batch's leaves stay aligned
            out.append(KeyReuse(key, key.id, None, "closure", ast.unparse(calls[0].func)))
        return out

    def _many_leaves(self, call: ast.Call) -> bool:
        """Whether a `jax.tree.map(f, tree, *rest)` may map more than one leaf: its trees are not all of a kind
        that is a single leaf."""
        scope = self.scopes.enclosing_function(call)
        trees = call.args[1:]
        return bool(trees) and not all(
            not isinstance(t, ast.Starred) and self.kinds.kind_of(t, scope) in _ONE_LEAF for t in trees)

    def _unmapped_key_reuses(self, fn: FunctionInfo) -> list[KeyReuse]:
        """`jax.vmap(f, in_axes=(0, None))(xs, key)` with `f` drawing from that parameter (never rebinding it):
        the key is handed unmapped to every element, which all draw the same numbers, as from a closed-over key.
        Reported at the key argument of the call (the body is right for a mapped key)."""
        out = []
        positional = [p.arg for p in [*fn.node.args.posonlyargs, *fn.node.args.args]]
        stored = {n.id for n in self.scopes.own_nodes(fn) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
        for site in fn.traces:
            if site.transform.rsplit(".", 1)[-1] not in _MAPPING or not site.unmapped_argnums or not isinstance(
                    site.node, ast.Call):
                continue
            call = self.scopes.parents.get(site.node)
            if not (isinstance(call, ast.Call) and call.func is site.node) or any(
                    isinstance(a, ast.Starred) for a in call.args):
                continue
            # a bound method (`jax.vmap(self._predict, in_axes=...)`): the site counts `self` (_past_self), the call
            # does not
            bound = int(bool(site.node.args) and isinstance(site.node.args[0], ast.Attribute)
                        and positional[:1] in (["self"], ["cls"]))
            for i in site.unmapped_argnums:
                if not bound <= i < min(len(positional), len(call.args) + bound) or positional[i] in stored:
                    continue
                param = positional[i]
                draws = any(isinstance(node, ast.Call) and (found := self.random_key_arg(node, fn))[1] in (
                    "draw", "split") and isinstance(found[0], ast.Name) and found[0].id == param
                    for node in self.scopes.own_nodes(fn))
                arg = call.args[i - bound]
                if draws and not isinstance(arg, ast.Constant):  # (`None` handed there: nothing to draw from)
                    out.append(KeyReuse(arg, ast.unparse(arg), None, "unmapped", ast.unparse(site.node.func)))
        return out

    def record_class(self, call: ast.Call, scope: FunctionInfo | None) -> bool:
        """A call that builds a record of this module (carried_fields.is_record: a dataclass, NamedTuple, flax
        `PyTreeNode` or Equinox `Module`) without a method of its own that could draw: it stores a
        key handed to it (`State(..., seed=key)`) and draws nothing."""
        if not isinstance(call.func, ast.Name) or (scope is not None and self.scopes.is_local(call.func.id, scope)):
            return False
        cls = self.module_classes().get(call.func.id)
        if cls is None:
            return False
        methods = [n.name for n in cls.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
        return is_record(cls, self.scopes.qualname) and not any(
            m in ("__init__", "__post_init__", "__new__") for m in methods)

    def _samples_point_mass(self, call: ast.Call, scope: FunctionInfo | None) -> bool:
        """A call that samples a point-mass distribution built right there: `Delta(v).sample(key)`,
        `numpyro.sample("x", dist.Delta(v), rng_key=key)`, `rv(dist.Delta(v), name="x")(key)`. Its one value is
        fixed, so the key it is given draws nothing."""
        func = call.func
        built: list[ast.expr]
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Call):
            built = [func.value]  # Delta(v).sample(key)
        else:
            built = [*call.args, *(k.value for k in call.keywords)]
            if isinstance(func, ast.Call):
                built += [*func.args, *(k.value for k in func.keywords)]  # rv(Delta(v))(key)
        for node in built:
            if isinstance(node, ast.Call):
                q = self.scopes.qualname(node.func, scope)
                if q is not None and "." in q and q.rsplit(".", 1)[1] in _POINT_MASSES:
                    return True
        return False

    def reinitialised_argument(self, arg: ast.AST, scope: FunctionInfo | None) -> bool:
        """`arg` is handed to a function of this module that replaces every array an Equinox layer holds
        (`weight` and `bias`) with `eqx.tree_at` and reads the old ones only for their shapes and dtypes (`.shape`,
        `.dtype`, `jnp.zeros_like`, `is None`): Equinox's re-initialisation idiom (`_init_linear(eqx.nn.Linear(...,
        key=k), k)`), in which the numbers the constructor drew are never read."""
        call = self.scopes.parents.get(arg)
        if not isinstance(call, ast.Call) or arg not in call.args or any(isinstance(a, ast.Starred) for a in call.args):
            return False
        helper = self.scopes.resolve_function(call.func, scope)
        if helper is None or isinstance(helper.node, ast.Lambda):
            return False
        positional = [a.arg for a in [*helper.node.args.posonlyargs, *helper.node.args.args]]
        index = call.args.index(arg)  # type: ignore[arg-type]
        if index >= len(positional):
            return False
        name = positional[index]
        own = list(self.scopes.own_nodes(helper))
        parents = self.scopes.parents
        replaced: set[str] = set()

        def shape_only(read: ast.AST) -> bool:
            up = parents.get(read)
            if isinstance(up, ast.Attribute) and up.value is read:
                return up.attr in ("shape", "dtype", "ndim", "size")
            if isinstance(up, ast.Call) and up.args and up.args[0] is read:
                return (self.scopes.qualname(up.func, helper) or "").startswith("jax.numpy.") and called_name(
                    up.func).endswith("_like")
            return isinstance(up, ast.Compare) and all(isinstance(op, (ast.Is, ast.IsNot)) for op in up.ops)

        for n in own:
            if not (isinstance(n, ast.Name) and n.id == name):
                continue
            up = parents.get(n)
            if not isinstance(n.ctx, ast.Load):
                value = up.value if isinstance(up, ast.Assign) and up.targets == [n] else None
                if not (isinstance(value, ast.Call) and self.scopes.qualname(value.func, helper) == "equinox.tree_at"
                        and len(value.args) >= 2 and isinstance(value.args[1], ast.Name) and value.args[1].id == name
                        and isinstance(value.args[0], ast.Lambda)):
                    return False
                where = value.args[0].body
                for field in (where.elts if isinstance(where, ast.Tuple) else [where]):
                    if not isinstance(field, ast.Attribute):
                        return False
                    replaced.add(field.attr)
                continue
            if isinstance(up, ast.Return) or (isinstance(up, ast.Call) and len(up.args) >= 2 and up.args[1] is n
                                              and self.scopes.qualname(up.func, helper) == "equinox.tree_at"):
                continue
            if not (isinstance(up, ast.Attribute) and up.attr in ("weight", "bias")):
                return False
            held = parents.get(up)
            if isinstance(held, ast.Assign) and held.value is up and len(held.targets) == 1 and isinstance(
                    held.targets[0], ast.Name):  # weight = linear.weight, then only its shape is read
                alias = held.targets[0].id
                reads = [m for m in own if isinstance(m, ast.Name) and m.id == alias]
                if sum(not isinstance(m.ctx, ast.Load) for m in reads) != 1 or not all(
                        shape_only(m) for m in reads if isinstance(m.ctx, ast.Load)):
                    return False
            elif not shape_only(up):
                return False
        return {"weight", "bias"} <= replaced

    def record_fields_of(self, call: ast.Call, scope: FunctionInfo | None) -> tuple[str, ...] | None:
        """The fields, in order, of the dataclass or NamedTuple of this module that `call` builds (`State(...)`;
        carried_fields.record_fields), or None. `scope`: asked with it as the logged questions are (unused)."""
        cls = self.module_classes().get(call.func.id) if isinstance(call.func, ast.Name) else None
        fields = record_fields(cls, self.scopes.qualname) if cls is not None else None
        return tuple(fields) if fields is not None else None

    def module_classes(self) -> dict[str, ast.ClassDef]:
        return self.scopes.module_classes()

    def _receiver_as_built(self, receiver: ast.AST, scope: FunctionInfo | None
                           ) -> tuple[ast.AST, FunctionInfo | None] | None:
        """What a called object is, as the code builds it, and the scope its expression is read in: a name bound
        once in `scope` (`module = nn.RMSNorm()`) gives that value, `self.op` set once in the class gives the value
        set (in the method that sets it); any other expression is itself. None when the name is bound more than
        once (or never) in `scope`, or `self.op` is not set once."""
        if isinstance(receiver, ast.Name):
            value = self._bound_once_by_assignment(scope).get(receiver.id)
            return (value, scope) if value is not None else None
        if (isinstance(receiver, ast.Attribute) and isinstance(receiver.value, ast.Name)
                and receiver.value.id == "self" and scope is not None and "." in scope.qualname):
            return self._bound_on_self(scope.qualname.split(".", 1)[0], receiver.attr)
        return receiver, scope

    def _bound_once_by_assignment(self, scope: FunctionInfo | None) -> dict[str, ast.expr]:
        """The names a scope binds by exactly one plain `NAME = value` (of its `NAME = value` statements), with the
        value: made once per scope and version (asked of every call on a name, it walked the scope each time)."""
        known = self._bound_by_assignment.get(id(scope.node) if scope is not None else 0)
        if known is None:
            assigns = self.scopes.own_nodes(None) if scope is None else self.scopes.own_candidates(
                "assignments to one name", scope, _assigns_one_name)
            seen: dict[str, list[ast.expr]] = {}
            for n in assigns:
                if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name):
                    seen.setdefault(n.targets[0].id, []).append(n.value)
            known = {name: values[0] for name, values in seen.items() if len(values) == 1}
            self._bound_by_assignment[id(scope.node) if scope is not None else 0] = known
        return known

    def _constant_initializer(self, call: ast.Call, q: str | None, scope: FunctionInfo | None) -> bool:
        """`jax.nn.initializers.zeros(key, shape)` (also `ones`; flax re-exports them), or an initializer made by
        `constant(c)`, `zeros_init()`, `ones_init()` called with a key (`constant(0.1)(key, shape)`): it returns
        constants and draws nothing from the key (round 37's tn4ml and nadl)."""
        if q is not None and q.rsplit(".", 1)[-1] in ("zeros", "ones") and q.startswith(_INITIALIZER_MODULES):
            return True
        maker = call.func
        if isinstance(maker, ast.Name):
            bound = self.traced.bound_once(maker.id, scope)  # `init = nn.initializers.constant(1.0)`
            maker = bound if isinstance(bound, ast.Call) else maker
        if not isinstance(maker, ast.Call):
            return False
        made = self.scopes.qualname(maker.func, scope)
        return made is not None and made.startswith(_INITIALIZER_MODULES) and made.rsplit(".", 1)[-1] in (
            "constant", "zeros_init", "ones_init")

    def drawless_module_call(self, call: ast.Call, scope: FunctionInfo | None) -> bool:
        """`nn.LayerNorm().init(key, x)`, `module.init_with_output(key, x)` with `module = nn.RMSNorm()`, or
        `self.op.init(key, ...)` with `self.op = PagedAttentionOp(...)` set once in the class: a layer whose
        parameters are all constants (ones and zeros), or that has none (its code only makes cache variables;
        known from its source through the project index), draws nothing from the key it is given."""
        func = call.func
        if not isinstance(func, ast.Attribute) or func.attr not in ("init", "init_with_output", "apply"):
            return False
        bound = self._receiver_as_built(func.value, scope)
        if bound is None:
            return False
        receiver, where = bound
        if not isinstance(receiver, ast.Call):
            return False
        q = self.scopes.qualname(receiver.func, where)
        if q in DRAWLESS_LAYERS:
            return True
        if isinstance(receiver.func, ast.Name) and q is None and receiver.func.id in self.module_classes():
            return self._module_layer_draws_nothing(receiver.func.id)
        project = self.model.project
        if project is None:
            return False
        local = where.local_names if where is not None else set()
        q = q or project.qualified(receiver.func, local, self.module_classes(), where)
        return q is not None and not q.startswith("jax.") and project.drawless_layer(q)

    def dropout_switched_off(self, call: ast.Call, scope: FunctionInfo | None) -> bool:
        """`eqx.nn.Dropout(p)(x, key=key, inference=True)` (or `deterministic=True`), or a call of a dropout
        layer built with `inference=True` or `p=0` (bound once in the function or on `self`) that does not turn
        it back on: equinox's `Dropout.__call__` returns `x` unchanged in inference mode and draws nothing."""
        bound = self._receiver_as_built(call.func, scope)
        if bound is None:
            return False
        receiver, where = bound
        if not (isinstance(receiver, ast.Call) and self.scopes.qualname(receiver.func, where) in _DROPOUTS):
            return False
        switches = [k for k in call.keywords if k.arg in ("inference", "deterministic")]
        if switches or any(k.arg is None for k in call.keywords):
            return all(isinstance(k.value, ast.Constant) and k.value.value is True for k in switches) and bool(switches)
        built = {k.arg: k.value for k in receiver.keywords}
        built.update(zip(("p", "inference"), receiver.args, strict=False))
        inference, rate = built.get("inference", built.get("deterministic")), built.get("p")
        return (isinstance(inference, ast.Constant) and inference.value is True) or (
            isinstance(rate, ast.Constant) and type(rate.value) in (int, float) and rate.value == 0)

    def uses_equinox(self) -> bool:
        """Whether the module imports equinox (under any alias)."""
        if self._equinox is None:
            self._equinox = any(q == "equinox" or q.startswith("equinox.") for q in self.scopes.aliases.values())
        return self._equinox

    def equinox_key_keyword(self, call: ast.Call, scope: FunctionInfo | None) -> ast.expr | None:
        """The `key=` argument of a call that surely draws from it by equinox's convention (also when equinox's
        source is not installed where the project index can read it): a layer built from a key
        (`eqx.nn.MLP(2, 1, 8, 2, key=key)` draws its initial weights) or a dropout layer called with one in
        training mode (`self.drop(x, key=key)`). None for any other call."""
        if not self.uses_equinox():
            return None
        key = next((k.value for k in call.keywords if k.arg == "key"), None)
        if key is None or self.callee_of(call, scope) is not None:
            return None
        if _builds_equinox_layer(self, call, scope) or (
                self._dropout_on(call, scope) and not self.dropout_switched_off(call, scope)):
            return key
        return None

    def _dropout_on(self, call: ast.Call, scope: FunctionInfo | None) -> bool:
        """`self.drop(x, key=key)` of an equinox dropout layer (bound once in the function or on `self`) that
        `dropout_switched_off` did not find in inference mode: its `__call__` draws its mask from `key`."""
        if not any(k.arg == "key" for k in call.keywords):
            return False
        bound = self._receiver_as_built(call.func, scope)
        return bound is not None and isinstance(bound[0], ast.Call) and (
            self.scopes.qualname(bound[0].func, bound[1]) in _DROPOUTS)

    def haiku_apply_rng(self, call: ast.Call, scope: FunctionInfo | None) -> ast.expr | None:
        """The `rng` argument of `net.apply(params, rng, x)` (`self.net.apply(...)`, `jax.jit(net.apply)(...)`,
        `apply(params, state, rng, x)` of `hk.transform_with_state`) where `net` is bound once to
        `hk.transform(f)` and `f`, read in this module, never asks haiku for a key (see `_haiku_drawless`): haiku
        hands `rng` only to `hk.next_rng_key()` and its kin, so nothing is drawn from it. None for any other call,
        and where `f` or anything it calls cannot be read (a network taken from a registry or a fixture)."""
        func: ast.expr = call.func
        while isinstance(func, ast.Call) and len(func.args) == 1 and (self.scopes.qualname(func.func, scope) or "") in (
                "jax.jit", "jax.vmap", "equinox.filter_jit"):
            func = func.args[0]
        if not (isinstance(func, ast.Attribute) and func.attr == "apply"):
            return None
        receiver: ast.AST = func.value
        where = scope
        if isinstance(receiver, ast.Name):
            home = scope if scope is not None and self.scopes.is_local(receiver.id, scope) else None
            bound = [n.value for n in self.scopes.own_nodes(home) if isinstance(n, ast.Assign) and len(n.targets) == 1
                     and isinstance(n.targets[0], ast.Name) and n.targets[0].id == receiver.id]
            if len(bound) != 1:
                return None
            receiver, where = bound[0], home
        elif (isinstance(receiver, ast.Attribute) and isinstance(receiver.value, ast.Name)
              and receiver.value.id == "self" and scope is not None and "." in scope.qualname):
            on_self = self._bound_on_self(scope.qualname.split(".", 1)[0], receiver.attr)
            if on_self is None:
                return None
            receiver, where = on_self
        if not (isinstance(receiver, ast.Call) and len(receiver.args) == 1 and not receiver.keywords):
            return None
        position = HAIKU_TRANSFORMS.get(self.scopes.qualname(receiver.func, where) or "")
        if position is None:
            return None
        transformed = receiver.args[0]
        if isinstance(transformed, ast.Lambda):
            node: ast.AST | None = transformed
        elif isinstance(transformed, ast.Name):
            node = self._haiku_function(transformed.id, where)
        else:
            node = None
        if node is None or not self._haiku_drawless(node, 0):
            return None
        rng = next((k.value for k in call.keywords if k.arg == "rng"), None)
        if rng is None and len(call.args) > position and not any(isinstance(a, ast.Starred) for a in call.args):
            rng = call.args[position]
        return rng

    def _haiku_function(self, name: str, where: FunctionInfo | None) -> ast.AST | None:
        """The definition a name given to `hk.transform` stands for: a function defined in the same function, or
        a module-level function (or class) of this module; None for anything else."""
        if where is not None and self.scopes.is_local(name, where):
            defs = [n for n in self.scopes.own_nodes(where) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                    and n.name == name]
            bindings = [n for n in self.scopes.own_nodes(where) if isinstance(n, ast.Name) and n.id == name
                        and not isinstance(n.ctx, ast.Load)]
            return defs[0] if len(defs) == 1 and not bindings else None
        found = self.scopes.module_functions.get(name)
        if found is not None:
            return found.node
        return self.module_classes().get(name)

    def _haiku_named_values_drawless(self, node: ast.AST, inner: set[str], checked: set[str], depth: int) -> bool:
        """Whether every function a network's code names as a value (not calls; the calls are checked by
        `_haiku_drawless`) is such code too: `hk.Sequential([hk.Linear(4), drop])` runs `drop`, and so does a
        module-level `LAYERS = [hk.Linear(4), drop]` it reads. A function of this module is checked in turn; an
        imported one must be a haiku layer that draws nothing or a JAX/NumPy function; anything else is not known."""
        parents = self.scopes.parents
        globals_: dict[str, list[ast.expr]] = {}
        for stmt in self.scopes.tree.body:
            if isinstance(stmt, ast.Assign):
                for t in stmt.targets:
                    if isinstance(t, ast.Name):
                        globals_.setdefault(t.id, []).append(stmt.value)
            elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.value is not None:
                globals_.setdefault(stmt.target.id, []).append(stmt.value)
        seen_globals: set[str] = set()
        run_by_haiku = {id(m) for c in walk_nodes(node) if isinstance(c, ast.Call)  # hk.Sequential(layers): calls them
                        and self.scopes.qualname(c.func, None) in _HAIKU_CALLS_ARGUMENTS
                        for a in [*c.args, *(k.value for k in c.keywords)] for m in walk_nodes(a)}

        def named(n: ast.Name, read_from: ast.AST) -> bool:
            parent = parents.get(n)
            if (isinstance(parent, ast.Attribute) and parent.value is n) or (
                    isinstance(parent, ast.Call) and parent.func is n and read_from is node):
                return True  # `hk.Linear`, a module's attribute; `f(x)`: a call, checked as one
            if n.id in checked or (read_from is node and n.id in inner):
                return True
            if n.id in self.scopes.module_functions or n.id in self.module_classes():
                target = (self.scopes.module_functions[n.id].node if n.id in self.scopes.module_functions
                          else self.module_classes()[n.id])
                checked.add(n.id)
                return target is node or self._haiku_drawless(target, depth + 1)
            if n.id in self.scopes.aliases:
                q = self.scopes.qualname(n, None) or ""
                return q not in _HAIKU_RNG and (q in _HAIKU_PLAIN or q.startswith(("jax.", "numpy.", "math.")))
            if read_from is node and n.id in globals_ and n.id not in seen_globals:
                seen_globals.add(n.id)
                return all(named(m, value) for value in globals_[n.id] for m in walk_nodes(value)
                           if isinstance(m, ast.Name) and isinstance(m.ctx, ast.Load))
            # a local or a parameter: its calls are checked where it is called, unless haiku calls what it holds
            return id(n) not in run_by_haiku

        try:
            return all(named(n, node) for n in walk_nodes(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load))
        finally:  # a closure that calls itself is a reference cycle: it held the model until a collection
            named = None  # type: ignore[assignment]

    def _haiku_drawless(self, node: ast.AST, depth: int) -> bool:
        """A function (or class, or lambda) of this module run inside `hk.transform` that never asks haiku for a
        key: every call in it goes to JAX outside `jax.random`'s key makers, to a haiku layer that draws nothing
        when applied, to a builtin, to an array method, to a function defined inside it, or to a function or class
        of this module that is itself such code (to a depth of 4). A call of anything else (a parameter, a
        registry's entry, an unknown package) may call `hk.next_rng_key()`: not known."""
        if depth > 4:
            return False
        if isinstance(node, ast.ClassDef):  # a module class: its bases run too (their methods, `super()` calls)
            for base in node.bases:
                if self.scopes.qualname(base, None) == "haiku.Module":
                    continue
                cls = self.module_classes().get(base.id) if isinstance(base, ast.Name) else None
                if cls is None or cls is node or not self._haiku_drawless(cls, depth + 1):
                    return False
        inner = {n.name for n in walk_nodes(node) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                 and n is not node}
        built: dict[str, list[ast.expr]] = {}
        for n in walk_nodes(node):
            if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name):
                built.setdefault(n.targets[0].id, []).append(n.value)
        checked: set[str] = set()
        if not self._haiku_named_values_drawless(node, inner, checked, depth):
            return False
        for n in walk_nodes(node):
            if not isinstance(n, ast.Call):
                continue
            func = n.func
            while isinstance(func, ast.Call):  # hk.Linear(8)(x): the layer built, then called
                func = func.func
            q = self.scopes.qualname(func, None)
            if q is not None:
                if q in _HAIKU_RNG:
                    return False
                if q.startswith(("jax.numpy.", "jax.nn.", "jax.lax.", "jax.tree", "jax.tree_util.", "math.",
                                 "numpy.", "jax.random.")) or q in _HAIKU_PLAIN:
                    for arg in [*n.args, *(k.value for k in n.keywords)]:  # jax.lax.map(step, xs): step runs too
                        name = arg.id if isinstance(arg, ast.Name) else None
                        runs: ast.AST | None = (
                            self.scopes.module_functions[name].node if name in self.scopes.module_functions
                            else self.module_classes().get(name) if name is not None else None)
                        if runs is not None and name is not None and runs is not node and name not in checked:
                            checked.add(name)
                            if not self._haiku_drawless(runs, depth + 1):
                                return False
                    continue
                local = self.scopes.module_functions.get(q) if "." not in q else None
                if local is None and q.split(".")[-1] in self.module_classes() and "." not in q:
                    target: ast.AST | None = self.module_classes()[q]
                else:
                    target = local.node if local is not None else None
                if target is None or q in checked:
                    if target is None:
                        return False
                    continue
                checked.add(q)
                if target is not node and not self._haiku_drawless(target, depth + 1):
                    return False
                continue
            if isinstance(func, ast.Name):
                if func.id in inner or (func.id in _HAIKU_BUILTINS and func.id not in self.scopes.aliases):
                    continue
                values = built.get(func.id, [])
                if values and all(isinstance(v, ast.Call) for v in values):
                    continue  # net = hk.Linear(8); net(x): the construction is checked as a call of its own
                if func.id in self.scopes.module_functions or func.id in self.module_classes():
                    target = (self.scopes.module_functions[func.id].node if func.id in self.scopes.module_functions
                              else self.module_classes()[func.id])
                    if func.id not in checked:
                        checked.add(func.id)
                        if target is not node and not self._haiku_drawless(target, depth + 1):
                            return False
                    continue
                return False
            if isinstance(func, ast.Attribute):
                if func.attr in _ARRAY_METHODS or (
                        func.attr == "__init__" and isinstance(func.value, ast.Call)
                        and isinstance(func.value.func, ast.Name) and func.value.func.id == "super"):
                    continue  # x.reshape(...), super().__init__(name=...): the class's bases are checked below
                if (isinstance(func.value, ast.Name) and func.value.id == "self" and isinstance(node, ast.ClassDef)
                        and any(isinstance(m, ast.FunctionDef) and m.name == func.attr for m in node.body)):
                    continue  # a method of the class being checked: its body is walked with the class
                return False
            return False
        return True

    def _abstract_only(self, call: ast.Call, scope: FunctionInfo | None) -> bool:
        """`p = functools.partial(init, ..., key)` whose every use in the scope is abstract evaluation
        (`jax.eval_shape(p)`, `jax.jit(p, ...).eval_shape()`): no number is drawn."""
        stmt = self.scopes.parents.get(call)
        if not (isinstance(stmt, ast.Assign) and stmt.value is call and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], ast.Name)):
            return False
        name = stmt.targets[0].id
        uses = [n for n in self.scopes.own_nodes(scope) if isinstance(n, ast.Name) and n.id == name
                and isinstance(n.ctx, ast.Load)]
        for use in uses:
            parent = self.scopes.parents.get(use)
            if not isinstance(parent, ast.Call) or use not in parent.args:
                return False
            called = (self.scopes.qualname(parent.func, scope) or called_name(parent.func)).rsplit(".", 1)[-1]
            above = self.scopes.parents.get(parent)
            if called.endswith("eval_shape") or (
                    called in ("jit", "pjit") and parent.args[0] is use and isinstance(above, ast.Attribute)
                    and above.attr == "eval_shape" and isinstance(self.scopes.parents.get(above), ast.Call)):
                continue
            return False
        return bool(uses)

    def module_number(self, name: ast.Name, scope: FunctionInfo | None) -> object:
        """The value of a name `scope` does not bind when a module-level statement binds it once to a constant
        (`N_WARMUP = 5`); else None."""
        if scope is not None and self.scopes.is_local(name.id, scope):
            return None
        bound = self.scopes.module_constant(name.id)
        return bound.value if isinstance(bound, ast.Constant) else None

    def ahead_of_time(self, call: ast.Call, scope: FunctionInfo | None) -> bool:
        """`jax.jit(f).lower(params, key)` (`.trace(...)`, then `.compile()`), `step.lower(...)` of a function
        bound once to `jax.jit(f)` or decorated with a jit, `jax.make_jaxpr(f)(x, key)`: ahead-of-time lowering
        traces `f` on abstract values (the arguments' shapes and dtypes); no number is drawn, so the key is as
        fresh for the first real call as it was before."""
        func = call.func
        if isinstance(func, ast.Call):  # jax.make_jaxpr(f)(x, key)
            name = self.scopes.qualname(func.func, scope) or called_name(func.func)
            return name.rsplit(".", 1)[-1] == "make_jaxpr"
        if not (isinstance(func, ast.Attribute) and func.attr in ("lower", "trace")):
            return False
        above = self.scopes.parents.get(call)
        if isinstance(above, ast.Attribute) and above.attr == "compile" and (call.args or call.keywords):
            return True  # `step.lower(params, key).compile()`: JAX's ahead-of-time stages, whatever `step` is bound to
        wrapped: ast.AST = func.value
        if isinstance(wrapped, ast.Name):
            where = scope if scope is not None and self.scopes.is_local(wrapped.id, scope) else None
            bound = [n.value for n in self.scopes.own_nodes(where) if isinstance(n, ast.Assign)
                     and any(isinstance(t, ast.Name) and t.id == wrapped.id for t in n.targets)]
            if len(bound) == 1:
                wrapped = bound[0]
                if isinstance(wrapped, ast.BoolOp) and isinstance(wrapped.values[-1], ast.Call):
                    wrapped = wrapped.values[-1]  # `step = cache.get(k) or jax.jit(f)`: the cache holds what it made
            else:
                defined = [f.node for f in self.scopes.functions.values() if f.name == wrapped.id
                           and isinstance(f.node, (ast.FunctionDef, ast.AsyncFunctionDef))]
                return len(defined) == 1 and any(self._jit(d, None) for d in defined[0].decorator_list)
        return isinstance(wrapped, ast.Call) and self._jit(wrapped.func, scope)

    def _jit(self, node: ast.AST, scope: FunctionInfo | None) -> bool:
        """`jax.jit`, `pjit`, `eqx.filter_jit`, called or not, or `partial(jax.jit, ...)`."""
        target = node.func if isinstance(node, ast.Call) else node
        name = self.scopes.qualname(target, scope) or called_name(target)
        if name.rsplit(".", 1)[-1] == "partial" and isinstance(node, ast.Call) and node.args:
            return self._jit(node.args[0], scope)
        return name.rsplit(".", 1)[-1] in ("jit", "pjit", "filter_jit")

    def _module_layer_draws_nothing(self, name: str, depth: int = 0) -> bool:
        """A flax layer of this module whose `init` draws nothing (project_index.inert_layer_calls): its own
        code creates no random parameter and calls nothing outside JAX and the standard library, and its bases
        are `flax.linen.Module` or such layers of this module."""
        cls = self.module_classes().get(name)
        if cls is None or not cls.bases or depth > 5:
            return False
        imports = dict(self.scopes.aliases)
        top = {n.name for n in self.scopes.tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
        methods = [m for m in cls.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))]
        if inert_layer_calls(methods, {m.name for m in methods}, imports, top) != ():
            return False
        for base in cls.bases:
            q = self.scopes.qualname(base, None)
            if q not in LAYER_BASES and not (isinstance(base, ast.Name) and q is None
                                             and self._module_layer_draws_nothing(base.id, depth + 1)):
                return False
        return True

    def linen_init_key(self, call: ast.Call, scope: FunctionInfo | None) -> ast.expr | None:
        """The key handed to a flax linen module's `init` / `init_with_output` (`module.init(rng, x)`, or
        `rngs=rng`), or None when the call is no such init. Linen never draws from that key: `Scope.make_rng`
        derives every parameter's key as `fold_in(rng, h)`, `h` the first 32 bits of a SHA-1 of the scope path
        and a counter (flax/core/scope.py `_fold_in_static`), so the init is a derivation by hashed `fold_in`.
        (nnx is not such a case: `nnx.Rngs(key)` folds in the counters 0, 1, 2, ...)"""
        func = call.func
        if not isinstance(func, ast.Attribute) or func.attr not in ("init", "init_with_output"):
            return None
        key = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "rngs"), None)
        if key is None or isinstance(key, (ast.Dict, ast.Constant)) or not self._linen_module(func.value, scope):
            return None
        return key

    def _linen_module(self, receiver: ast.AST, scope: FunctionInfo | None) -> bool:
        """`receiver` is a flax linen module: a parameter annotated `nn.Module`, a module built right there
        (`nn.Dense(3)`, `Model()`) or bound once to one (a local name, `self.net` set once in the class), where
        the class is one of `flax.linen` or has `flax.linen.Module` among its bases (this module's, or through the
        project index)."""
        if isinstance(receiver, ast.Name) and scope is not None and receiver.id in scope.params:
            node = scope.node
            if isinstance(node, ast.Lambda):
                return False
            every = [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]
            arg = next((a for a in every if a.arg == receiver.id), None)
            annotation = arg.annotation if arg is not None else None
            if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
                try:
                    annotation = ast.parse(annotation.value, mode="eval").body
                except SyntaxError:
                    return False
            return annotation is not None and self.scopes.qualname(annotation, scope) in LAYER_BASES
        value: ast.AST | None = receiver
        where = scope
        if isinstance(receiver, ast.Name):
            bound = [n.value for n in self.scopes.own_nodes(scope) if isinstance(n, ast.Assign) and len(n.targets) == 1
                     and isinstance(n.targets[0], ast.Name) and n.targets[0].id == receiver.id]
            value = bound[0] if len(bound) == 1 else None
        elif (isinstance(receiver, ast.Attribute) and isinstance(receiver.value, ast.Name)
              and receiver.value.id == "self" and scope is not None and "." in scope.qualname):
            on_self = self._bound_on_self(scope.qualname.split(".", 1)[0], receiver.attr)
            value, where = on_self if on_self is not None else (None, scope)
        if not isinstance(value, ast.Call):
            return False
        q = self.scopes.qualname(value.func, where)
        if q is not None and q.startswith("flax.linen.") and q.rsplit(".", 1)[-1][:1].isupper():
            return True
        if isinstance(value.func, ast.Name) and q is None and value.func.id in self.module_classes():
            return self._module_linen_class(value.func.id)
        project = self.model.project
        if project is None:
            return False
        local = where.local_names if where is not None else set()
        q = q or project.qualified(value.func, local, self.module_classes(), where)
        return q is not None and self._indexed_linen_class(q)

    def _module_linen_class(self, name: str, depth: int = 0) -> bool:
        """A class of this module with `flax.linen.Module` among its bases, directly or through its classes."""
        cls = self.module_classes().get(name)
        if cls is None or depth > 5:
            return False
        for base in cls.bases:
            q = self.scopes.qualname(base, None)
            if q in LAYER_BASES or (q is None and isinstance(base, ast.Name) and self._module_linen_class(
                    base.id, depth + 1)):
                return True
        return False

    def _indexed_linen_class(self, qualified: str, depth: int = 0) -> bool:
        """A class the project index reads (its source, never imported) with `flax.linen.Module` among its bases."""
        project = self.model.project
        if project is None or depth > 5:
            return False
        cls = project.index.cls(project.index.beside(qualified, project.path) or qualified, project.path)
        return cls is not None and any(base in LAYER_BASES or self._indexed_linen_class(base, depth + 1)
                                       for base in cls.bases)

    def _built_from(self, receiver: ast.AST, scope: FunctionInfo | None) -> str | None:
        """The qualified name of the callable whose call built `receiver`: a local name bound once in the scope
        (`fns = schedule.Constant(10)`), or `self.X` set once in the class (`self.op = Op(...)`); else None."""
        project = self.model.project
        value: ast.expr | None = None
        where = scope
        if isinstance(receiver, ast.Name) and scope is not None and self.scopes.is_local(receiver.id, scope):
            bound = self._assigned_in(scope)[0].get(receiver.id, ())
            value = bound[0] if len(bound) == 1 else None
        elif isinstance(receiver, ast.Name) and scope is None and not self._declared_global(receiver.id):
            bound = self._assigned_in(None)[0].get(receiver.id, ())  # type: ignore[arg-type]
            value = bound[0] if len(bound) == 1 else None  # `net = Net(k)` in a script, then `net(x, key=k)`
        elif (isinstance(receiver, ast.Attribute) and isinstance(receiver.value, ast.Name)
              and receiver.value.id == "self" and scope is not None and "." in scope.qualname):
            found = self._bound_on_self(scope.qualname.split(".", 1)[0], receiver.attr)
            if found is not None:
                value, where = found
        if not isinstance(value, ast.Call) or project is None:
            return None
        local = where.local_names if where is not None else set()
        return self.scopes.qualname(value.func, where) or project.qualified(value.func, local, self.module_classes(), where)

    def _through_transform(self, func: ast.expr, scope: FunctionInfo | None) -> ast.expr:
        """`jax.jit(problem.evaluate)(key, x)` / `jax.vmap(problem.evaluate, in_axes=...)(keys, xs)`: the method
        of an object that the transformed function runs, with the call's arguments (each mapped element of a
        vmapped one) as its own; else `func` itself."""
        inner = self._unwrapped(func, scope, mapping=True)
        if inner is not func and isinstance(inner, ast.Attribute) and isinstance(inner.value, ast.Name) and (
                inner.value.id != "self"):
            return inner
        return func

    def _unwrapped(self, func: ast.expr, scope: FunctionInfo | None, mapping: bool) -> ast.expr:
        """The function a call of `func` runs with its own arguments, through the wrappers around it: JAX's and
        equinox's transformations that pass the arguments on (`_PASSING_ON`: `jax.jit(f)`, `jax.checkpoint(f)`;
        with `mapping`, also `jax.vmap(f)` / `eqx.filter_vmap(f)`, each mapped element as the argument), and
        chex's `self.variant(f)` (each variant calls `f` with the arguments it is given), nested
        (`jax.jit(jax.vmap(f))`); `func` itself when it is no such wrapper."""
        inner = func
        while isinstance(inner, ast.Call) and inner.args and not isinstance(inner.args[0], ast.Starred):
            wrapper = inner.func
            if (isinstance(wrapper, ast.Attribute) and wrapper.attr == "variant" and isinstance(wrapper.value, ast.Name)
                    and wrapper.value.id == "self" and not inner.keywords and len(inner.args) == 1):
                inner = inner.args[0]
                continue
            q = self.scopes.qualname(wrapper, scope) or ""
            if not (q.startswith(("jax.", "equinox.")) and q.rsplit(".", 1)[-1] in (
                    _PASSING_ON | _MAPPING if mapping else _PASSING_ON)):
                break
            inner = inner.args[0]
        return inner

    def _construction(self, func: ast.expr, scope: FunctionInfo | None) -> ast.Call | None:
        """`problem.evaluate` with `problem` a local name bound once, by a call (`problem = Sphere(num_dims=4)`):
        that call, whose arguments say what the object holds (the index asks it of the class's attributes)."""
        receiver = func.value if isinstance(func, ast.Attribute) else None
        if not isinstance(receiver, ast.Name) or scope is None or not self.scopes.is_local(receiver.id, scope):
            return None
        bound = [n for n in self.scopes.own_nodes(scope) if isinstance(n, (ast.Assign, ast.AnnAssign, ast.AugAssign))
                 and any(isinstance(t, ast.Name) and t.id == receiver.id for t in (
                     n.targets if isinstance(n, ast.Assign) else [n.target]))]
        if len(bound) != 1 or not isinstance(bound[0], ast.Assign) or len(bound[0].targets) != 1:
            return None
        value = bound[0].value
        return value if isinstance(value, ast.Call) else None

    def _self_typed(self, receiver: ast.AST, scope: FunctionInfo | None) -> str | None:
        """The class of a local name bound once as an element of a tuple a method returns (`rec, state =
        recorder.init_state(...)`) whose receiver was built from a class of the project and whose return
        annotation says that element is an object of its class (`-> tuple[Self, State]`): it may be a subclass's
        object, so the caller asks every implementation."""
        project = self.model.project
        if project is None or not isinstance(receiver, ast.Name) or scope is None or not self.scopes.is_local(
                receiver.id, scope):
            return None
        bindings = self._assigned_in(scope)[1].get(receiver.id, ())
        if len(bindings) != 1:
            return None
        target = self.scopes.parents.get(bindings[0])
        stmt = self.scopes.parents.get(target) if isinstance(target, ast.Tuple) else None
        if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and stmt.targets[0] is target
                and isinstance(stmt.value, ast.Call) and isinstance(stmt.value.func, ast.Attribute)):
            return None
        assert isinstance(target, ast.Tuple)
        position = next(i for i, e in enumerate(target.elts) if e is bindings[0])
        if any(isinstance(e, ast.Starred) for e in target.elts):
            return None
        built = self._built_from(stmt.value.func.value, scope)
        if built is None or project.index.cls(built, project.path) is None:
            return None
        return built if position in project.returns_self(f"{built}.{stmt.value.func.attr}") else None

    def _declared_global(self, name: str) -> bool:
        """Whether a function of the module declares `global name` (and may rebind the module's name)."""
        if self._globals is None:
            self._globals = {n for node in self.scopes.nodes(ast.Global) for n in node.names}  # type: ignore[attr-defined]
        return name in self._globals

    def _assigned_in(self, scope: FunctionInfo | None) -> tuple[dict[str, list[ast.expr | None]], dict[str, list[ast.Name]]]:
        """A scope's own bindings by name, found once per scope (`_built_from` and `_self_typed` ask for each call):
        the value of each `NAME = ...`, `NAME: T = ...`, `NAME += ...` statement naming it as a whole target (in
        the order of `own_nodes`, once per statement), and each Name node that stores or deletes it."""
        memo = self._assigned
        known = memo.get(id(scope))
        if known is not None and known[0] is scope:
            return known[1], known[2]
        values: dict[str, list[ast.expr | None]] = {}
        stores: dict[str, list[ast.Name]] = {}
        for n in self.scopes.own_nodes(scope):
            cls = type(n)
            if cls is ast.Name:
                if type(n.ctx) is not ast.Load:  # type: ignore[attr-defined]
                    stores.setdefault(n.id, []).append(n)  # type: ignore[attr-defined, arg-type]
            elif cls is ast.Assign or cls is ast.AnnAssign or cls is ast.AugAssign:
                targets = n.targets if cls is ast.Assign else [n.target]  # type: ignore[attr-defined]
                for name in dict.fromkeys(t.id for t in targets if isinstance(t, ast.Name)):
                    values.setdefault(name, []).append(n.value)  # type: ignore[attr-defined]
        memo[id(scope)] = (scope, values, stores)
        return values, stores

    def _bound_on_self(self, cls: str, attr: str) -> tuple[ast.expr, FunctionInfo] | None:
        """The one value a class of this module stores as `self.attr` (in any of its methods), and the method;
        None when it stores none, several, or stores it otherwise (`self.a, self.b = ...`, `self.a += 1`).
        Every class's stores are found once."""
        if self._on_self is None:
            stores: dict[tuple[str, str], list[tuple[ast.expr, FunctionInfo] | None]] = {}
            for info in self.scopes.functions.values():
                if info.parent is not None or "." not in info.qualname or isinstance(info.node, ast.Lambda):
                    continue
                owner = info.qualname.split(".", 1)[0]
                for node in self.scopes.own_nodes(info):
                    if not isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                        continue
                    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                    for t in targets:
                        for n in walk_nodes(t):
                            if (isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)
                                    and n.value.id == "self"):
                                plain = isinstance(node, ast.Assign) and len(node.targets) == 1 and t is n
                                stores.setdefault((owner, n.attr), []).append(
                                    (node.value, info) if plain else None)  # type: ignore[arg-type]
            self._on_self = {k: v[0] if len(v) == 1 else None for k, v in stores.items()}
        return self._on_self.get((cls, attr))

    def callee_of(self, call: ast.Call, scope: FunctionInfo | None) -> FunctionInfo | None:
        """The function of this module a call runs: `helper(...)`, `self.method(...)` of the same class, or the
        `__call__` of an object built from a class of this module (`a = Attn(...); a(x, key=k)`, `self.attn(...)`
        with `self.attn = Attn(...)` set once in the class)."""
        func = call.func
        called = self._called_object_class(func, scope)
        if called is not None:
            return self.method(f"{called}.__call__")
        if isinstance(func, ast.Call):  # jax.jit(kernel)(key, s), self.variant(kernel)(key, s): a factory's product
            inner = self._passed_through(func, scope)
            return (self.factory_product(inner.id, scope) if isinstance(inner, ast.Name) and scope is not None
                    and inner.id in scope.local_names and self.scopes.aliases.get(inner.id) is None else None)
        if isinstance(func, ast.Name):
            if scope is not None and func.id in scope.local_names and self.scopes.aliases.get(func.id) is None:
                return self.factory_product(func.id, scope)
            if self.scopes.aliases.get(func.id) is not None or (scope is not None and self.scopes.is_local(func.id, scope)):
                return None
            found = self.scopes.module_functions.get(func.id)
            if found is None and func.id in self.module_classes():
                return self.method(f"{func.id}.__init__")  # a class of this module built: its constructor runs
            if found is not None and self._rewrapped(found):
                return None  # the name holds a wrapper whose arguments are not the function's
            return found
        if (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in ("self", "cls")
                and scope is not None and "." in scope.qualname):
            owner = scope.qualname.rsplit(".", 1)[0]
            found = self.method(f"{owner}.{func.attr}")
            if found is None and "." not in owner:
                found = self._function_on_self(owner, func.attr)
            return found
        if (attr := super_attribute(func)) is not None and scope is not None and scope.qualname.count(".") == 1:
            return self._base_method(scope.qualname.split(".")[0], attr)  # super().__init__(key, n)
        return None

    def _base_method(self, cls_name: str, method: str, depth: int = 0) -> FunctionInfo | None:
        """The method `super().<method>` runs in a method of `cls_name`: that of its first base of this module that
        has it (bases of other modules: unknown, None)."""
        cls = self.module_classes().get(cls_name)
        if cls is None or depth > 8:
            return None
        for base in cls.bases:
            if not isinstance(base, ast.Name) or base.id not in self.module_classes():
                return None  # (a base we cannot see may define it first)
            found = self.method(f"{base.id}.{method}") or self._base_method(base.id, method, depth + 1)
            if found is not None:
                return found
        return None

    def _rewrapped(self, fn: FunctionInfo) -> bool:
        """Whether a decorator of this module replaces `fn` by a wrapper that does not hand its own arguments on
        unchanged: `@stochastic(seed=0)` whose `wrapper(*args)` calls `fn(key, *args)` makes `f(q)` pass `q` to
        `fn`'s second parameter, not its first. A wrapper that only forwards (`fn(*args, **kwargs)`) keeps the
        mapping; a decorator of another module or package is not followed (as before)."""
        if isinstance(fn.node, ast.Lambda):
            return False
        for deco in fn.node.decorator_list:
            target = deco.func if isinstance(deco, ast.Call) else deco
            if not isinstance(target, ast.Name) or self.scopes.aliases.get(target.id) is not None or (
                    self.scopes.module_functions.get(target.id) is None):
                continue
            decorator = self.scopes.module_functions[target.id]
            if not isinstance(decorator.node, ast.Lambda) and hands_back(decorator.node) == (
                    "factory" if isinstance(deco, ast.Call) else "direct"):
                continue  # a registry (`@register`, `@init_fn_for(Config)`): `fn` itself is what the name holds
            wrapper = self.model.traced.decorator_wrapper(deco, fn.parent)
            if wrapper is None or not _forwards_arguments(wrapper):
                return True
        return False

    def factory_product(self, name: str, scope: FunctionInfo) -> FunctionInfo | None:
        """The function a local name holds when the scope binds it once to a call of a module function that
        builds and returns a function of its own (blackjax's `kernel = build_kernel(...)`, whose `def kernel(rng_key,
        state)` every `return` hands back), or one element of the tuple of such functions it returns (`init, step =
        make(...)` with `return init, step`): calling the name runs that inner function."""
        bound = self._factory_binding(name, scope)
        if bound is None:
            return None
        factory_call, position, width = bound
        if not isinstance(factory_call.func, ast.Name) or self.scopes.is_local(factory_call.func.id, scope):
            return None
        factory = self.scopes.module_functions.get(factory_call.func.id)
        if factory is None or isinstance(factory.node, ast.Lambda):
            return None
        returns = [n.value for n in self.scopes.own_nodes(factory) if isinstance(n, ast.Return)]
        if not returns:
            return None
        if position is None:
            picked = returns
        elif all(isinstance(r, ast.Tuple) and len(r.elts) == width for r in returns):
            picked = [r.elts[position] for r in returns if isinstance(r, ast.Tuple)]
        else:
            return None
        if not all(isinstance(r, ast.Name) for r in picked):
            return None
        returned = {r.id for r in picked if isinstance(r, ast.Name)}
        if len(returned) != 1:
            return None
        inner_name = returned.pop()
        inner = [n for n in factory.node.body if isinstance(n, ast.FunctionDef) and n.name == inner_name]
        defined = [n for n in self.scopes.own_nodes(factory) if isinstance(n, ast.Name) and n.id == inner_name
                   and not isinstance(n.ctx, ast.Load)]
        if len(inner) != 1 or defined:
            return None
        return self.scopes.functions.get(inner[0])

    def _factory_binding(self, name: str, scope: FunctionInfo) -> tuple[ast.Call, int | None, int] | None:
        """The call a local name is bound to once in the scope: `name = make(...)` (position None), or `a, name =
        make(...)` (its position in a target tuple of plain names, and the tuple's width)."""
        if name in scope.params:
            return None
        stores = self._assigned_in(scope)[1].get(name, [])  # (found once per scope: asked of many calls)
        if len(stores) != 1:
            return None
        own = self.scopes.own_nodes(scope)
        for n in own:
            if not (isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.value, ast.Call)):
                continue
            target = n.targets[0]
            if target is stores[0]:
                return n.value, None, 1
            if isinstance(target, (ast.Tuple, ast.List)) and any(e is stores[0] for e in target.elts) and all(
                    isinstance(e, ast.Name) for e in target.elts):
                return n.value, next(i for i, e in enumerate(target.elts) if e is stores[0]), len(target.elts)
        return None

    def project_factory_product(self, func: ast.expr, scope: FunctionInfo | None) -> str | None:
        """The qualified name of the function of another module a called local name holds (see
        `factory_product`): bound once to a call of a factory the project index summarised, or to one element of
        the tuple it returns (blackjax's `momentum_generator, kinetic_energy_fn, ... = metrics.gaussian_euclidean(
        imm)`); also through a wrapper that passes the arguments on (`self.variant(integrate)(key, ...)`)."""
        project = self.model.project
        func = self._passed_through(func, scope)
        if (project is None or scope is None or not isinstance(func, ast.Name) or func.id not in scope.local_names
                or self.scopes.aliases.get(func.id) is not None):
            return None
        bound = self._factory_binding(func.id, scope)
        if bound is None:
            return None
        factory_call, position, width = bound
        local = scope.local_names
        if isinstance(factory_call.func, ast.Name) and self.scopes.is_local(factory_call.func.id, scope):
            return None
        qualified = (self.scopes.qualname(factory_call.func, scope)
                     or project.qualified(factory_call.func, local, self.module_classes(), scope))
        if qualified is None or qualified.startswith("jax.") or qualified.startswith(f"{project.module}."):
            return None  # this module's factories: `factory_product`
        return project.factory_product(qualified, position, width)

    def _passed_through(self, func: ast.expr, scope: FunctionInfo | None) -> ast.expr:
        """`jax.jit(f)`, `self.variant(f)` (see `_unwrapped`, vmap not included: a factory's product is called with
        the call's own arguments): the name `f`; otherwise `func`."""
        inner = self._unwrapped(func, scope, mapping=False)
        return inner if isinstance(inner, ast.Name) else func

    def mapped_partial_callee(self, call: ast.Call, scope: FunctionInfo | None) -> tuple[FunctionInfo, int] | None:
        """The function of this module a call runs through `functools.partial` and the transformations that pass
        arguments on or map them (see `_mapped_partial`), with the number of leading positional parameters the
        partial filled: the call's own arguments go to the parameters after those, each mapped element to its
        parameter, so what the function draws from a parameter is what the call draws from that argument. None
        when the call runs anything else (also a bare `f(...)`: `callee_of`)."""
        mapped = self._mapped_partial(call, scope)
        if mapped is None:
            return None
        inner, filled = mapped
        if not isinstance(inner, ast.Name) or self.scopes.aliases.get(inner.id) is not None or (
                scope is not None and self.scopes.is_local(inner.id, scope)):
            return None
        found = self.scopes.module_functions.get(inner.id)
        if found is None or isinstance(found.node, ast.Lambda):
            return None
        return found, len(filled)

    def _mapped_partial(self, call: ast.Call, scope: FunctionInfo | None) -> tuple[ast.expr, list[ast.expr]] | None:
        """`eqx.filter_vmap(partial(single_loss, model, policy=p))(keys, xs)`, `fn(key, x)` with `fn = partial(f,
        w)` bound once, `jax.vmap(f, in_axes=(None, 0))(w, keys)`: the function run (`f`, a name or a dotted
        name) and how many leading positional parameters the partial filled; None for any other call."""
        def bound_once(name: ast.Name) -> ast.expr | None:
            if scope is None or name.id not in scope.local_names or self.scopes.aliases.get(name.id) is not None:
                return name
            bound = self._factory_binding(name.id, scope)  # fn = partial(f, w), bound once
            return bound[0] if bound is not None and bound[1] is None else None

        return through_partial(call, lambda e: self.scopes.qualname(e, scope), bound_once)

    def _mapped_project_uses(self, call: ast.Call, scope: FunctionInfo | None) -> list[tuple[ast.AST, str]] | None:
        """`jax.vmap(partial(losses.single_loss, w))(keys, xs)` with the function in another module: what the index
        says it consumes of the arguments, each at its parameter after those the partial filled; None when the
        call runs no such function or the index cannot see it (see `project_uses`)."""
        project = self.model.project
        mapped = self._mapped_partial(call, scope) if project is not None else None
        if project is None or mapped is None or self.mapped_partial_callee(call, scope) is not None:
            return None
        inner, filled = mapped
        local = scope.local_names if scope is not None else set()
        qualified = self.scopes.qualname(inner, scope) or project.qualified(inner, local, self.module_classes(), scope)
        if qualified is None or qualified.startswith("jax."):
            return None
        # the call the function receives: the partial's arguments, then the call's own
        answers = project.argument_consumption(qualified, ast.Call(func=inner, args=[*filled, *call.args],
                                                                   keywords=call.keywords))
        if answers is None:
            return None
        return [(arg, strength) for arg, strength in answers[len(filled):] if strength is not None]

    def _called_object_class(self, func: ast.AST, scope: FunctionInfo | None) -> str | None:
        """The class of this module an object that is called was built from (see `callee_of`); None otherwise."""
        if not (isinstance(func, ast.Name) or (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
                                               and func.value.id == "self")):
            return None
        project = self.model.project
        built = self._built_from(func, scope) if project is not None else None
        if built is None or not built.startswith(f"{project.module}."):  # type: ignore[union-attr]
            return None
        name = built[len(project.module) + 1:]  # type: ignore[union-attr]
        return name if name in self.module_classes() else None

    def _function_on_self(self, cls: str, attr: str) -> FunctionInfo | None:
        """`self._step = jax.jit(step)` (or `= step`), set once in the class, with `step` a function of this
        module: calling `self._step(...)` runs `step` (a transformation like `jit` passes the arguments on)."""
        bound = self._bound_on_self(cls, attr)
        if bound is None:
            return None
        value, where = bound
        if isinstance(value, ast.Call) and value.args and (
                self.scopes.qualname(value.func, where) or "").rsplit(".", 1)[-1] in _PASSING_ON:
            value = value.args[0]
        if (isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name) and value.value.id == "self"
                and "self" in where.params and not _rebinds(self, where, "self")):
            # `self._next = jax.jit(self._next_token)`: a bound method of the same class, `self` already bound
            return self.method(f"{cls}.{value.attr}")
        if not isinstance(value, ast.Name) or self.scopes.is_local(value.id, where):
            return None
        return self.scopes.module_functions.get(value.id)

    def loop_calls(self) -> tuple[list[ast.Call], list[ast.Call]]:
        """The calls that may run a loop body, in the order of `nodes(ast.Call)`: those of a `lax` loop
        (`_LAX_LOOPS`), and those with every call shaped `carry = body(carry, ...)` in a Python loop (see
        `_LoopCalls`); every other call runs none (carry_reuses, seed_keys_in_repeated_bodies)."""
        if self._loop_calls is None:
            parts = self.scopes.per_statement("loop calls", ast.Call, partial(_LoopCalls.of, self), imports=True)
            self._loop_calls = ([c for part in parts for c in part.lax],  # type: ignore[attr-defined]
                                [c for part in parts for c in part.candidates])  # type: ignore[attr-defined]
        return self._loop_calls

    def method(self, qualname: str) -> FunctionInfo | None:
        """A method of a class of this module, by `Class.method`."""
        if self._methods is None:
            self._methods = {f.qualname: f for f in self.scopes.functions.values()
                             if f.parent is None and "." in f.qualname and not isinstance(f.node, ast.Lambda)}
        return self._methods.get(qualname)

    def parameter_consumption(self, fn: FunctionInfo) -> dict[str, str]:
        """Which parameters of a function of this module it consumes as keys: "always" (on every path), "maybe"
        (in a branch, a loop, a nested function, or by storing it); parameters it never consumes are absent."""
        cached = self._consumption.get(id(fn)) if self._consumption is not None else None
        if cached is not None:
            return cached
        if self._consumption is None:
            self._consumption = {}
        out: dict[str, str] = {}
        self._consumption[id(fn)] = out  # recursion sees what is known so far
        if isinstance(fn.node, ast.Lambda):
            return out
        params = set(fn.params) - _not_key_params(self, fn)
        body = fn.node.body
        for node in self.scopes.own_nodes(fn):
            uses: list[ast.Name] = []
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                inner = self.scopes.functions.get(node)
                uses = [n for n in (self.scopes.own_nodes(inner) if inner is not None else [])
                        if isinstance(n, ast.Name) and n.id in params and isinstance(n.ctx, ast.Load)]
                surely = self._closure_draws(fn, inner, {n.id for n in uses}) if inner is not None and uses else set()
                for name in uses:
                    if name.id in surely:
                        out[name.id] = "always"  # def loss_fn(p): ... apply(..., rngs={"dropout": key}); grad(loss_fn)(w)
                    else:
                        out.setdefault(name.id, "maybe")  # a closure may consume it
                continue
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Name) and node.value.id in params and any(
                    isinstance(t, (ast.Attribute, ast.Subscript)) for t in node.targets):
                if not self._stored_unread(node.targets, fn):
                    out.setdefault(node.value.id, "maybe")  # stored (self.rng = key): consumed later
                continue
            if not isinstance(node, ast.Call) or self.is_predicate(node):
                continue
            for arg, strength in self.argument_uses(node, fn):
                if isinstance(arg, ast.Name) and arg.id in params:
                    if strength == "always" and not _runs_always(self, node, fn.node, body):
                        strength = "maybe"
                    pieces = self._split_pieces(node, params)
                    if pieces is not None:  # what the split gives is followed: the split alone draws nothing
                        found = self._pieces_consumption(fn, pieces, strength, 0)
                        if found is None:
                            continue
                        strength = found
                    if strength == "always" or out.get(arg.id) is None:
                        out[arg.id] = strength
        return out

    def _closure_draws(self, fn: FunctionInfo, inner: FunctionInfo, names: set[str]) -> set[str]:
        """The parameters of `fn` that a function defined in its body consumes on every path, when `fn` calls that
        function (by name, or through a transformation that calls it once: `jax.grad(loss_fn)(params)`,
        `jax.value_and_grad(loss_fn, has_aux=True)(params)`, `jax.jit(f)(x)`) on every path too: the training
        step whose `loss_fn` closes over the step's dropout key and hands it to `model.apply(..., rngs=...)`
        draws from that key at every call (checked on jax 0.10.2 with flax 0.12.8: the same key at two steps
        gives the same dropout mask)."""
        node = inner.node
        if not isinstance(node, ast.FunctionDef) or self.scopes.parents.get(node) is not fn.node or isinstance(
                fn.node, ast.Lambda):
            return set()
        names = {n for n in names if n not in inner.local_names}
        if not names or any(isinstance(n, ast.Name) and n.id == node.name and not isinstance(n.ctx, ast.Load)
                            for n in self.scopes.own_nodes(fn)):
            return set()
        called = False
        for call in self.scopes.own_nodes(fn):
            if not isinstance(call, ast.Call):
                continue
            target: ast.expr = call.func
            if isinstance(target, ast.Call) and target.args and (
                    self.scopes.qualname(target.func, fn) in _CALLING_ONCE_TRANSFORMS):
                target = target.args[0]
            if isinstance(target, ast.Name) and target.id == node.name and _runs_always_past_defs(
                    self, call, fn.node, fn.node.body):
                called = True
                break
        if not called:
            return set()
        found: set[str] = set()
        for call in self.scopes.own_nodes(inner):
            if not isinstance(call, ast.Call) or self.is_predicate(call):
                continue
            if not _runs_always(self, call, node, node.body):
                continue
            for arg, strength in self.argument_uses(call, inner):
                if isinstance(arg, ast.Name) and arg.id in names and strength == "always":
                    found.add(arg.id)
        return found

    def _split_pieces(self, call: ast.Call, params: set[str]) -> set[str] | None:
        """The names a split of a parameter is bound to (`key, subkey = split(key)`, `keys = split(key, n)`),
        other than the parameters; None when the call is no split or its result goes elsewhere (returned,
        handed on, stored), where the split counts as before (project_index._Function._split_pieces)."""
        if self.random_key_arg(call, None)[1] != "split":
            return None
        stmt = self.scopes.parents.get(call)
        if not (isinstance(stmt, ast.Assign) and stmt.value is call):
            return None
        names: set[str] = set()
        for target in stmt.targets:
            for element in target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target]:
                element = element.value if isinstance(element, ast.Starred) else element
                if not isinstance(element, ast.Name):
                    return None
                names.add(element.id)
        return names - params - {"_"}

    def _pieces_consumption(self, fn: FunctionInfo, pieces: set[str], cap: str | None, depth: int) -> str | None:
        """How surely the function draws from the keys a split gave, at most as surely as the split (`cap`):
        drawn, handed to a function that consumes them, split again and drawn, returned or stored (they leave,
        as sure as the split). Pieces deleted, ignored or only shown draw nothing, nor does the split."""
        if cap is None:
            return None
        best: str | None = None

        def note(strength: str | None) -> None:
            nonlocal best
            if strength is not None:
                strength = "always" if strength == "always" and cap == "always" else "maybe"
                if best is None or strength == "always":
                    best = strength

        body = fn.node.body if isinstance(fn.node, (ast.FunctionDef, ast.AsyncFunctionDef)) else []
        for node in self.scopes.own_nodes(fn):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                inner = self.scopes.functions.get(node)
                if any(isinstance(n, ast.Name) and n.id in pieces and isinstance(n.ctx, ast.Load)
                       for n in (self.scopes.own_nodes(inner) if inner is not None else [])):
                    note(cap)  # a function defined here uses them as keys: as sure as the split, as before
                continue
            if not (isinstance(node, ast.Name) and node.id in pieces and isinstance(node.ctx, ast.Load)):
                continue
            used: ast.AST = node
            parent = self.scopes.parents.get(used)
            while isinstance(parent, (ast.Subscript, ast.Starred)) and getattr(parent, "value", None) is used:
                used, parent = parent, self.scopes.parents.get(parent)  # keys[0]: an element, used as the key
            call = self.scopes.parents.get(parent) if isinstance(parent, ast.keyword) else parent
            if isinstance(call, ast.Call) and call.func is not used:
                if self.is_predicate(call):
                    continue
                strength = next((st for arg, st in self.argument_uses(call, fn) if arg is used), None)
                unseen = (self.callee_of(call, fn) is None and self.mapped_partial_callee(call, fn) is None
                          and self.project_uses(call, fn) is None
                          and not (self.scopes.qualname(call.func, fn) or "").startswith("jax.random."))
                if unseen and not (_method_of_an_object(call) and self.scopes.qualname(call.func, fn) is None):
                    note(cap)  # a local function, vmap(f), zip(keys, xs): the pieces stay in code that uses
                    continue  # them as keys, and the split counts as surely as it runs, as before
                if strength is None:
                    continue
                if self.mapped_partial_callee(call, fn) is not None or self._mapped_project_uses(call, fn) is not None:
                    note(cap)  # vmap(f)(keys) with f drawing from them: as sure as the split, as when f was unseen
                    continue
                if strength == "always" and not _runs_always(self, call, fn.node, body):
                    strength = "maybe"
                more = self._split_pieces(call, pieces) if depth < 4 else None
                if more is not None:
                    strength = self._pieces_consumption(fn, more, strength, depth + 1)
                note(strength)
            elif not isinstance(parent, (ast.Attribute, ast.FormattedValue, ast.JoinedStr, ast.Compare, ast.If, ast.IfExp, ast.Assert, ast.BoolOp, ast.UnaryOp, ast.While)):
                note(cap)  # returned, stored, copied, iterated over: it leaves, as sure as the split
        return best

    def _stored_unread(self, targets: list[ast.expr], fn: FunctionInfo) -> bool:
        """`self.rng = key` where no method of the class reads `self.rng`: kept, never drawn from."""
        if "." not in fn.qualname or fn.parent is not None:
            return False
        attrs = [t.attr for t in targets if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name)
                 and t.value.id == "self"]
        if len(attrs) != len(targets):
            return False
        cls = self.module_classes().get(fn.qualname.split(".", 1)[0])
        if cls is None or cls.bases:
            return False  # a subclass elsewhere may read it
        family, grew = {cls.name}, True  # the class and its subclasses in this module (they share `self`)
        while grew:
            more = {c.name for c in self.module_classes().values() if any(
                isinstance(b, ast.Name) and b.id in family for b in c.bases)} - family
            family |= more
            grew = bool(more)
        read = {n.attr for name in family for n in walk_nodes(self.module_classes()[name])
                if isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Load)
                and isinstance(n.value, ast.Name) and n.value.id == "self"}
        return not set(attrs) & read

    def project_uses(self, call: ast.Call, scope: FunctionInfo | None) -> list[tuple[ast.AST, str]] | None:
        """The arguments a call of a function of another module may consume, as the project index summarised
        it (project_index.py): [] when it draws from none of them; None when the index cannot see the callee (the
        call is then treated as before: a function we cannot see)."""
        project = self.model.project
        if project is None:
            return None
        mapped = self._mapped_project_uses(call, scope)
        if mapped is not None:
            return mapped  # vmap(partial(f, model))(keys, xs) with f of another module
        func = self._through_transform(call.func, scope)
        local = scope.local_names if scope is not None else set()
        product = self.project_factory_product(func, scope)
        if product is not None:  # step = other.make_step(...); step(key, x): the function the factory made
            made = project.argument_consumption(product, call)
            return None if made is None else [(arg, strength) for arg, strength in made if strength is not None]
        qualified = self.scopes.qualname(func, scope) or project.qualified(func, local, self.module_classes(), scope)
        if qualified is None and (isinstance(func, ast.Name) or (
                isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self")):
            built = self._built_from(func, scope)  # attn = Attention(...); attn(x, key=key): its __call__ runs
            if built is not None and project.index.cls(built, project.path) is not None:
                qualified = f"{built}.__call__"
        if (qualified is None and isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
                and func.value.id == "self" and scope is not None and "." in scope.qualname):
            qualified = f"{project.module}.{scope.qualname.split('.', 1)[0]}.{func.attr}"  # inherited method
        construction: ast.Call | None = None
        if qualified is None and isinstance(func, ast.Attribute):
            built = self._built_from(func.value, scope)  # trunc_fns = Schedule(10); trunc_fns.init(key)
            if built is not None and project.index.cls(built, project.path) is not None:
                qualified = f"{built}.{func.attr}"
                construction = self._construction(func, scope)
            family = self._self_typed(func.value, scope) if qualified is None else None
            if family is not None:  # rec, state = recorder.init_state(...) with `-> tuple[Self, State]`
                found = project.implementations_consumption(family, func.attr, call)
                return None if found is None else [(arg, strength) for arg, strength in found if strength is not None]
            held = project.factory_field(built, func.attr) if qualified is None and built is not None else None
            if held is not None:  # agent = make_agent(...); agent.init(key, ...): the function the record holds
                made = project.argument_consumption(held, call)
                return None if made is None else [(arg, strength) for arg, strength in made if strength is not None]
        if qualified is None or qualified.startswith("jax."):
            return None
        answers = project.argument_consumption(qualified, call, construction,
                                               partial(self._surely_not_none, scope=scope))
        if answers is None:
            return None
        return [(arg, strength) for arg, strength in answers if strength is not None]

    def fresh_each_read(self, node: ast.AST, scope: FunctionInfo | None) -> bool:
        """`rng.rng` where reading `rng` of the object splits a fresh key each time (a key generator: a
        property that splits a key kept on the object, stores one half back and returns the other, recognised by
        what it does, in this module or through the project index). A receiver of unknown class counts when a
        class the index has read has such a property of that name."""
        if not isinstance(node, ast.Attribute):
            return False
        attr = node.attr
        own = self._module_generators()
        project = self.model.project
        receiver = node.value
        bound = None
        if isinstance(receiver, ast.Name):
            where = scope if scope is not None and self.scopes.is_local(receiver.id, scope) else None
            values = [n.value for n in self.scopes.own_nodes(where) if isinstance(n, ast.Assign)
                      and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name) and n.targets[0].id == receiver.id]
            bound = values[0] if len(values) == 1 and isinstance(values[0], ast.Call) else None
        if bound is not None:
            func = bound.func
            if isinstance(func, ast.Name) and func.id in own:
                return attr in own[func.id]
            if project is not None:
                local = scope.local_names if scope is not None else set()
                qualified = self.scopes.qualname(func, scope) or project.qualified(func, local, (), scope)
                if qualified is not None and project.index.cls(qualified) is not None:
                    return project.key_generator(qualified, attr)
                if self._unseen_literal_object(bound, qualified, receiver, attr, scope):
                    return True
        if any(attr in attrs for attrs in own.values()):
            return True
        return project is not None and attr in project.generator_attributes()

    def _unseen_literal_object(self, bound: ast.Call, qualified: str | None, receiver: ast.expr, attr: str,
                               scope: FunctionInfo | None) -> bool:
        """`rng = GenerateRNG()` (or `GenerateRNG(seed=0)`) of a class no module the index can read defines:
        every key the object hands out it made itself, from literals, and whether a read of `rng.attr` is a
        stored key or a property that splits a fresh one each time is in code nobody can see, so two reads are
        not known to be one key. Not when the scope assigns `rng.attr` (then it is that value), nor when any
        argument is more than a literal (a key passed in may be the one handed back)."""
        project = self.model.project
        if (project is None or qualified is None or not isinstance(receiver, ast.Name)
                or qualified.split(".")[0] in NOT_INDEXED):
            return False
        if any(not isinstance(a, ast.Constant) for a in [*bound.args, *(k.value for k in bound.keywords)]):
            return False
        if project.function(qualified) is not None:
            return False  # a function or class the index reads: what it builds is known there, or not at all
        for node in self.scopes.own_nodes(scope):
            targets = (node.targets if isinstance(node, ast.Assign)
                       else [node.target] if isinstance(node, (ast.AnnAssign, ast.AugAssign)) else [])
            if any(isinstance(t, ast.Attribute) and t.attr == attr and isinstance(t.value, ast.Name)
                   and t.value.id == receiver.id for t in targets):
                return False
        return True

    def _module_generators(self) -> dict[str, frozenset[str]]:
        if self._generators is None:
            imports = self.model.project.imports() if self.model.project is not None else dict(self.scopes.aliases)
            self._generators = {}
            for name, cls in self.module_classes().items():
                found = class_key_generators(
                    [m for m in cls.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))], imports)
                if found:
                    self._generators[name] = found
        return self._generators

    def argument_uses(self, call: ast.Call, scope: FunctionInfo | None) -> list[tuple[ast.AST, str]]:
        """The arguments a call may consume as keys, each "always" or "maybe" (as far as the call goes)."""
        key, how = self.random_key_arg(call, scope)
        if key is not None:
            return [(key, "always")] if how != "derive" else []
        q = self.scopes.qualname(call.func, scope)
        if (q is not None and q.startswith("jax.random.")) or (
                q or (call.func.id if isinstance(call.func, ast.Name) else None)) in NOT_A_CONSUMER or _logs(q, call):
            return []
        if q is not None and q.startswith("jax.numpy."):
            return []  # jnp.where(c, k1, k2), jnp.stack(keys): keys moved or selected, nothing drawn
        if self.reads_one_word(call, q, scope):
            return []  # env.reset(seed=np.array(subkey)[0]): one word of the key as an integer, nothing drawn
        if _checks_structure(q):
            return []  # chex.assert_shape(key, (2,)): a check, nothing drawn
        if q == "functools.partial" and self.holds_key_partial(call, scope):
            return []  # sample = partial(jax.random.normal, key): its calls draw (KeyFlow.partial_key)
        partial_held = self.partial_key(call, scope) if type(call.func) is ast.Name else None
        if partial_held is not None:
            return [(partial_held[0], "always")] if partial_held[1] != "derive" else []
        if q == "functools.partial" and self._abstract_only(call, scope):
            return []  # p = partial(init, model, key); jax.eval_shape(p): shapes only, nothing drawn
        if (_abstract_evaluation(call, q) or self.record_class(call, scope) or _clones(call, q)
                or self.ahead_of_time(call, scope) or self.drawless_module_call(call, scope)
                or self.dropout_switched_off(call, scope) or self._constant_initializer(call, q, scope)):
            return []
        if isinstance(call.func, ast.Attribute) and call.func.attr in _IDENTITY_CHECKS and q is None:
            return []  # self.assertIs(rngs.params.key, key0): an identity check draws nothing
        if isinstance(call.func, ast.Attribute) and call.func.attr in _STORING_METHODS and q is None:
            return []  # keys.append(key): stored for later, not drawn from
        if q == "dataclasses.replace" or (isinstance(call.func, ast.Attribute) and call.func.attr in (
                "replace", "_replace") and q is None and call.keywords and not call.args):
            return []  # dataclasses.replace(state, key=k), state._replace(rng=k): the key is stored
        if self._samples_point_mass(call, scope):
            return []  # numpyro.sample("x", dist.Delta(v), rng_key=key), rv(Delta(v))(key): nothing is drawn
        if q in _KEY_STREAMS:  # nnx.Rngs(key), nnx.Rngs(params=k1, dropout=k2), hk.PRNGSequence(key)
            streamed: list[tuple[ast.AST, str]] = [(a, "always") for a in call.args[:1]]
            return streamed + [(k.value, "always") for k in call.keywords]
        rng = self.haiku_apply_rng(call, scope)
        if rng is not None:  # net.apply(params, rng, x) of a network that never asks haiku for a key
            return [(a, "maybe") for a in [*call.args, *(k.value for k in call.keywords)] if a is not rng]
        drawn = self.framework_draws(call, scope)  # linen/haiku `apply` that surely draws (framework_apply.py)
        if drawn is not None:
            return drawn
        callee = self.callee_of(call, scope)
        filled = 0
        if callee is None:
            through = self.mapped_partial_callee(call, scope)
            if through is not None:  # vmap(partial(f, model))(keys, xs): f's parameters after the filled ones
                callee, filled = through
        if callee is None and _saves(call):
            return []  # a function of another module whose name says it saves its arguments (what it hands
            # on, e.g. to a caller's `before_save` hook, the index cannot see: the name decides, as before)
        if callee is None:
            known = self.project_uses(call, scope)
            if known is not None:
                return known  # a function of another module (or an installed package) the index can see
        if callee is None:  # a function we cannot see: maybe (a constructor's `key=`: surely; the other
            # arguments beside it, `dtype=`, `features=`, only maybe)
            sure = _constructs(call) or self._dropout_on(call, scope)
            unseen: list[tuple[ast.AST, str]] = [(a, "maybe") for a in call.args]
            return unseen + [(k.value, "always" if sure and k.arg == "key" else "maybe") for k in call.keywords]
        uses = self.parameter_consumption(callee)
        if uses and self.model.project is not None and callee.parent is None and not isinstance(callee.node, ast.Lambda):
            uses = self._with_index(callee, uses)
        positional = _positional(callee)[filled:]
        passed = {positional[i]: a for i, a in enumerate(call.args) if i < len(positional)
                  and not any(isinstance(b, ast.Starred) for b in call.args[:i + 1])}
        passed.update({k.arg: k.value for k in call.keywords if k.arg is not None})
        guards = self.none_guards(callee)
        uses = {name: strength for name, strength in uses.items() if not any(
            guard in passed and (self._surely_not_none(passed[guard], scope) or self._filled_on_this_path(
                passed[guard], call, scope)) for guard in guards.get(name, ()))}
        flags = self.flag_guards(callee) if uses else {}
        uses = {name: strength for name, strength in uses.items() if not any(
            _flag_set_against(callee, passed, call, flag, needed) for flag, needed in flags.get(name, ()))}
        found: list[tuple[ast.AST, str]] = [
            (a, uses[positional[i]]) for i, a in enumerate(call.args)
            if i < len(positional) and positional[i] in uses and not isinstance(a, ast.Starred)]
        found += [(k.value, uses[k.arg]) for k in call.keywords if k.arg is not None and k.arg in uses]
        return found

    def _with_index(self, callee: FunctionInfo, uses: dict[str, str]) -> dict[str, str]:
        """A function of this module as the project index also summarised it: where the index knows that a
        parameter is never consumed (its callees typed through annotations, `isinstance` or every implementation
        of a method, which this module alone cannot see), the parameter is dropped. Both answers over-approximate
        what is drawn, so the smaller one holds."""
        project = self.model.project
        assert project is not None
        summary = project.index.function(f"{project.module}.{callee.qualname}")
        if summary is None or summary.opaque:
            return uses
        return {name: strength for name, strength in uses.items()
                if summary.param(name) is None or project.index.consumption(summary, name) is not None}

    def none_guards(self, fn: FunctionInfo) -> dict[str, frozenset[str]]:
        """For each parameter of a function: the other parameters `P` such that every read of it sits in the body
        of an `if P is None:` (`if prepared is None: prepared = make(key)`): a caller that passes a `P` that is
        surely not None reads the parameter nowhere."""
        if self._guards is None:
            self._guards = {}
        cached = self._guards.get(id(fn))
        if cached is not None:
            return cached
        out: dict[str, frozenset[str]] = {}
        self._guards[id(fn)] = out  # (a call back into it, through functions that call each other: none yet)
        if not isinstance(fn.node, ast.Lambda):
            params = set(fn.params)
            parents = self.scopes.parents
            stored = {n.id for n in self.walked(fn.node) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
            for node in self.walked(fn.node):
                if not (isinstance(node, ast.Name) and node.id in params and isinstance(node.ctx, ast.Load)):
                    continue
                guards: set[str] = set()
                child: ast.AST = node
                cur = parents.get(node)
                while cur is not None and cur is not fn.node:
                    if isinstance(cur, ast.If) and any(child is st for st in cur.body):
                        tested = none_test(cur.test)
                        if tested is not None and tested[1] and tested[0] in params and tested[0] != node.id:
                            guards.add(tested[0])
                    child, cur = cur, parents.get(cur)
                guards |= self._guards_handed_on(node, fn, params)
                if node.id in stored:
                    guards.clear()  # rebound: what it holds later is not only the parameter
                prior = out.get(node.id)
                out[node.id] = frozenset(guards) if prior is None else prior & guards
        guarded_stores = {p for p in params if all(self._under_none_test(n, p, fn) for n in self.walked(fn.node)
                                                   if isinstance(n, ast.Name) and n.id == p
                                                   and not isinstance(n.ctx, ast.Load))} if out else set()
        found = {name: g & guarded_stores for name, g in out.items() if g & guarded_stores}
        self._guards[id(fn)] = found
        return found

    def _guards_handed_on(self, load: ast.Name, fn: FunctionInfo, params: set[str]) -> set[str]:
        """The parameters of `fn` a call hands on unchanged in the place of the callee's own guards of the
        argument `load` (`Transform(dim, net=net, key=key)` where Transform reads its key only while its `net`
        is None): `load` is then read only while they are None too. A function of this module only."""
        call = self.scopes.parents.get(load)
        if isinstance(call, ast.keyword):
            call = self.scopes.parents.get(call)
        if not isinstance(call, ast.Call) or any(isinstance(a, ast.Starred) for a in call.args):
            return set()
        callee = self.callee_of(call, fn)
        if callee is None or callee is fn or isinstance(callee.node, ast.Lambda):
            return set()
        positional = _positional(callee)
        passed = {positional[i]: a for i, a in enumerate(call.args) if i < len(positional)}
        passed.update({k.arg: k.value for k in call.keywords if k.arg is not None})
        name = next((n for n, a in passed.items() if a is load), None)
        if name is None:
            return set()
        return {value.id for guard in self.none_guards(callee).get(name, ())
                if isinstance(value := passed.get(guard), ast.Name) and value.id in params and value.id != load.id}

    def flag_guards(self, fn: FunctionInfo) -> dict[str, frozenset[tuple[str, bool]]]:
        """For each parameter of a function: the (flag, truth) pairs such that every read of it sits on a path
        where the flag, another parameter the function never rebinds, has that truth (`if not inference:
        h = dropout(h, key)`, or after `if deterministic: return x`), also through a call that hands the key and
        the flag on to a function of this module that guards it so (`dropout(h, key, deterministic=inference)`).
        A caller that passes the flag with the other truth (`inference=True`), or leaves it at such a default,
        reads the key nowhere."""
        if self._flag_guards is None:
            self._flag_guards = {}
        cached = self._flag_guards.get(id(fn))
        if cached is not None:
            return cached
        out: dict[str, frozenset[tuple[str, bool]]] = {}
        self._flag_guards[id(fn)] = out  # recursion sees no guard
        if isinstance(fn.node, ast.Lambda):
            return out
        params = set(fn.params)
        rebound = {n.id for n in self.walked(fn.node) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)} | {
            name for n in self.walked(fn.node) if isinstance(n, (ast.Global, ast.Nonlocal)) for name in n.names}
        flags = params - rebound
        reads: dict[str, set[tuple[str, bool]] | None] = {}
        for node in self.walked(fn.node):
            if not (isinstance(node, ast.Name) and node.id in params and isinstance(node.ctx, ast.Load)):
                continue
            if node.id in rebound:
                reads[node.id] = None
                continue
            literals, home = _path_literals(self, node)
            held = {(atom[0], holds) for atom, holds in literals if atom[1] == "truth" and atom[0] in flags} if (
                home is fn.node) else set()
            call = self.scopes.parents.get(node)
            call = self.scopes.parents.get(call) if isinstance(call, ast.keyword) else call
            if isinstance(call, ast.Call) and call.func is not node and home is fn.node:
                passed_on = self._flag_passed_on(call, node, fn, flags)
                if passed_on is None:
                    continue  # handed to a callee whose flag this call sets against the key: not read there
                held |= passed_on
            known = reads.get(node.id, held)
            reads[node.id] = None if known is None else known & held
        for name, held_everywhere in reads.items():
            if held_everywhere:
                out[name] = frozenset(held_everywhere)
        return out

    def _flag_passed_on(self, call: ast.Call, arg: ast.Name, fn: FunctionInfo,
                        flags: set[str]) -> set[tuple[str, bool]] | None:
        """The guards a call of a function of this module adds to a key it is handed: its own flag guards of that
        parameter, where the flag is passed one of `fn`'s flags (as the same truth); None when the call sets a
        flag against the key (the callee never reads it)."""
        callee = self.callee_of(call, fn)
        if callee is None or callee is fn or isinstance(callee.node, ast.Lambda):
            return set()
        positional = _positional(callee)
        passed = {positional[i]: a for i, a in enumerate(call.args) if i < len(positional)
                  and not any(isinstance(b, ast.Starred) for b in call.args[:i + 1])}
        passed.update({k.arg: k.value for k in call.keywords if k.arg is not None})
        param = next((name for name, value in passed.items() if value is arg), None)
        if param is None:
            return set()
        found: set[tuple[str, bool]] = set()
        for flag, needed in self.flag_guards(callee).get(param, ()):
            if _flag_set_against(callee, passed, call, flag, needed):
                return None
            value = passed.get(flag)
            if isinstance(value, ast.Name) and value.id in flags:
                found.add((value.id, needed))
        return found

    def _under_none_test(self, node: ast.AST, name: str, fn: FunctionInfo) -> bool:
        """Whether a node sits in the body of an `if NAME is None:` of the function (a parameter's default filled
        in there: before it, the parameter still holds what the caller passed)."""
        parents = self.scopes.parents
        child, cur = node, parents.get(node)
        while cur is not None and cur is not fn.node:
            if isinstance(cur, ast.If) and any(child is st for st in cur.body) and none_test(cur.test) == (name, True):
                return True
            child, cur = cur, parents.get(cur)
        return False

    def _surely_not_none(self, value: ast.AST, scope: FunctionInfo | None, depth: int = 0) -> bool:
        """An argument that cannot be None: a display, a non-None constant, or a name every binding of which in
        the calling function is one, or the result of a function of this module every path of which returns
        one."""
        if isinstance(value, (ast.Tuple, ast.List, ast.Dict, ast.Set, ast.JoinedStr, ast.Lambda, ast.ListComp, ast.DictComp, ast.SetComp)):
            return True
        if isinstance(value, ast.Constant):
            return value.value is not None
        if depth > 3:
            return False
        if isinstance(value, ast.Call):
            if (self.scopes.qualname(value.func, scope) or "").startswith(("jax.numpy.", "jax.random.")):
                return True  # an array (or a tuple of them), never None
            if never_none(value):
                return True  # an object constructed (`UNet(...)`)
            callee = self.callee_of(value, scope)
            if callee is None or isinstance(callee.node, ast.Lambda) or not callee.node.body or not isinstance(
                    callee.node.body[-1], ast.Return) or isinstance(callee.node, ast.AsyncFunctionDef) or any(
                    isinstance(n, (ast.Yield, ast.YieldFrom)) for n in self.walked(callee.node)):
                return False
            returns = [n for n in self.scopes.own_nodes(callee) if isinstance(n, ast.Return)]
            return bool(returns) and all(r.value is not None and self._surely_not_none(r.value, callee, depth + 1)
                                         for r in returns)
        if isinstance(value, ast.Name) and scope is None:
            bound = self.traced.bound_once(value.id, None)  # a module-level name bound once
            return bound is not None and self._surely_not_none(bound, None, depth + 1)
        if isinstance(value, ast.Name) and scope is not None and self.scopes.is_local(value.id, scope):
            if value.id in scope.params:
                return False
            bindings = [n for n in self.scopes.own_nodes(scope) if isinstance(n, ast.Name) and n.id == value.id
                        and not isinstance(n.ctx, ast.Load)]
            values = [n.value for n in self.scopes.own_nodes(scope) if isinstance(n, ast.Assign)
                      and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name) and n.targets[0].id == value.id]
            return bool(values) and len(values) == len(bindings) and all(
                self._surely_not_none(v, scope, depth + 1) for v in values)
        return False

    def _filled_on_this_path(self, value: ast.AST, call: ast.Call, scope: FunctionInfo | None) -> bool:
        """A parameter that may arrive as None but is filled in before the call on the path the call is on:
        `if refs is None and not boot: refs = make(key)` earlier in the body, the call under `if not boot:` (the
        same test, on names nothing rebinds, so it holds at both places), every other binding of the name only
        `refs = jnp.asarray(refs)` under `if refs is not None:`. Either it was not None, or the first `if` ran
        and gave it a value that is surely not None (see `_surely_not_none`)."""
        if not (isinstance(value, ast.Name) and scope is not None and value.id in scope.params
                and isinstance(scope.node, (ast.FunctionDef, ast.AsyncFunctionDef))):
            return False
        name, body, parents = value.id, scope.node.body, self.scopes.parents
        tests: set[str] = set()  # the tests of the `if`s whose body holds the call
        top: ast.AST = call
        while parents.get(top) is not scope.node:
            up = parents.get(top)
            if up is None or isinstance(up, (ast.For, ast.While, ast.AsyncFor, ast.Lambda, ast.FunctionDef, ast.AsyncFunctionDef)):
                return False
            if isinstance(up, ast.If) and any(top is st for st in up.body):
                tests.add(ast.dump(up.test))
            top = up
        at = next((i for i, st in enumerate(body) if st is top), None)
        if at is None:
            return False
        stored = {n.id for n in self.walked(scope.node) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}

        def is_none(test: ast.expr, negated: bool) -> bool:
            return (isinstance(test, ast.Compare) and isinstance(test.left, ast.Name) and test.left.id == name
                    and len(test.ops) == 1 and isinstance(test.ops[0], ast.IsNot if negated else ast.Is)
                    and isinstance(test.comparators[0], ast.Constant) and test.comparators[0].value is None)

        def stable(test: ast.expr) -> bool:  # names no statement rebinds, no call: the same value at both places
            return all(isinstance(n, (ast.Name, ast.UnaryOp, ast.BoolOp, ast.Compare, ast.Constant, ast.Load, ast.Not, ast.And, ast.Or, ast.Is, ast.IsNot, ast.Eq, ast.NotEq))
                       for n in walk_nodes(test)) and not any(
                isinstance(n, ast.Name) and n.id in stored for n in walk_nodes(test))

        filled = False
        bindings = [n for n in self.walked(scope.node) if isinstance(n, ast.Name) and n.id == name
                    and not isinstance(n.ctx, ast.Load)]
        for binding in bindings:
            stmt = parents.get(binding)
            holder = parents.get(stmt) if stmt is not None else None
            if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and stmt.targets[0] is binding
                    and isinstance(holder, ast.If) and not holder.orelse and holder.body == [stmt]
                    and any(holder is st for st in body[:at])):
                return False
            test = holder.test
            if is_none(test, negated=True) and isinstance(stmt.value, ast.Call) and (self.scopes.qualname(
                    stmt.value.func, scope) or "") in ("jax.numpy.asarray", "jax.numpy.array", "numpy.asarray",
                                                        "numpy.array"):
                continue  # `refs = jnp.asarray(refs)` when it is not None: still not None
            conditions = test.values if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) else [test]
            rest = [c for c in conditions if not is_none(c, negated=False)]
            if len(rest) == len(conditions) or not all(stable(c) and ast.dump(c) in tests for c in rest):
                return False
            if not self._surely_not_none(stmt.value, scope):
                return False
            filled = True
        return filled

    def _always_consumed_params(self) -> dict[str, set[int]]:
        """For each module-level function: the positions of parameters it passes to a jax.random sampler in a
        statement that always runs (before any branch that could return early)."""
        out: dict[str, set[int]] = {}
        passes = self._passes
        if passes is None:
            for fn in self.scopes.functions.values():
                if fn.parent is None and not isinstance(fn.node, ast.Lambda):
                    positions = self._key_facts(fn).always
                    if positions:
                        out.setdefault(fn.name, set()).update(positions)
            return out
        decorated = passes.decorated = []  # (for _decorator_key_reuses)
        for fn, record in passes.units:  # (the same functions, in the same order)
            if fn.parent is None and not isinstance(fn.node, ast.Lambda):
                facts = record.facts
                positions = (facts if facts is not None else self._key_facts(fn, record)).always
                if positions:
                    out.setdefault(fn.name, set()).update(positions)
                if fn.node.decorator_list:
                    decorated.append((fn, record))
        return out

    def _relayed_params(self, always: dict[str, set[int]]) -> dict[str, frozenset[int]]:
        """For each module-level function: the positions of parameters it hands on, as a plain name, to a function
        of the module that consumes that argument always, directly or through others (`sample(key, n)` returning
        `_draw(key, n) * 2`, `_draw` drawing from its `key`): the scope filter lets a function that calls one through,
        as one that calls a function of `always` (the walk then asks what each call consumes). Without it a key
        parameter handed twice to `sample` was never walked. Each function's hand-offs follow from its own nodes."""
        if not always:
            return {}
        edges: dict[str, list[tuple[int, str, int]]] = {}
        for name, fn in self.scopes.module_functions.items():
            if not isinstance(fn.node, ast.Lambda):
                found = self.scopes.syntax_fact("hands parameters to", fn.node, _hands_parameters, self, fn)
                if found:
                    edges[name] = found  # type: ignore[assignment]
        consumed = {(name, i) for name, positions in always.items() for i in positions}
        changed = True
        while changed:
            changed = False
            for name, handed in edges.items():
                for i, callee, j in handed:
                    if (callee, j) in consumed and (name, i) not in consumed:
                        consumed.add((name, i))
                        changed = True
        relay: dict[str, set[int]] = {}
        for name, i in consumed:
            if i not in always.get(name, ()):
                relay.setdefault(name, set()).add(i)
        return {name: frozenset(positions) for name, positions in relay.items()}

    def relay(self) -> dict[str, frozenset[int]]:
        """This version's `_relayed_params` (while the key reuses are found)."""
        return self._relay

    def _may_consume(self, facts: _ScopeKeyFacts, always: dict[str, set[int]], scope: FunctionInfo | None) -> bool:
        return facts.draws or any(always[name] for name in always.keys() & facts.called) or any(
            self._relay.get(name) for name in facts.called) or any(
            self.kinds.kind_at(name) is Kind.KEY for name in facts.handed) or (
            self.model.project is not None and bool(facts.handed) and self._project_answer(scope)) or any(
            self.callee_of(n, scope) is not None and any(st == "always" for _, st in self.argument_uses(n, scope))
            for n in facts.self_calls) or (  # self._sample(logits, self.rng) with a method that draws from `rng`
            scope is not None and any(self.factory_product(name, scope) is not None for name in facts.called
                                      if name in scope.local_names)) or (  # kernel = build_kernel(...); kernel(key, s)
            scope is not None and self._wrapped_product_called(scope)) or any(
            self.framework_draws(n, scope) for n in self._apply_calls(scope))  # net.apply(params, rng, x)

    def _apply_calls(self, scope: FunctionInfo | None) -> list[ast.Call]:
        """The calls `X.apply(...)` of a scope's own body, in order (for a function: kept per function node across
        versions, as the scope filter asks this of every function on every edit)."""
        if scope is None:
            return [n for n in self.scopes.own_calls(None) if _calls_apply(n)]  # (the calls of own_nodes, in order)
        return self.scopes.own_candidates("apply calls", scope, _calls_apply, calls=True)  # type: ignore[return-value]

    def _project_answer(self, scope: FunctionInfo | None) -> bool:
        """`_project_may_consume(scope)`, taken from the last version of the document where it holds (KeyWalks,
        reuse.py: about 540 functions asked on every edit of a 5,000-line module in the language server)."""
        walks = self._walks
        if walks is None or scope is None:
            return self._project_may_consume(scope)
        return walks.project_answer(self, scope, self.kinds.flow_records(scope),
                                    partial(self._project_may_consume, scope))

    def _project_may_consume(self, scope: FunctionInfo | None) -> bool:
        """The scope filter's question to the project index: whether a call of the scope hands an argument to a
        function of another module that consumes it on every path (`project_key_positions`). Asked of every call
        given arguments, it was a fifth of the CLI's time on real code (optax, chex, equinox) while it let no scope
        through there, so it is asked where its answer can matter: a scope is walked for its keys (`_ScopeWalk._key_labels`), and
        without one the walk finds nothing. The keys an answer can give a scope are the arguments, at the
        positions consumed, that may be a key (`_may_be_key`, a name or a chain); so those calls are asked
        first. When none of them is consumed, the answer counts only if the scope has a key from elsewhere (a
        name of kind KEY, or what a call of a function of this module consumes, `_may_have_own_key`; a draw or a
        consuming function of the module let the scope through before this question): then every call is
        asked, as before. Otherwise the walk would have had no key, so the scope is left out, as its walk would
        have found nothing: the findings are the same."""
        calls = self._calls_given_arguments(scope)
        for call in calls:
            if any(self.may_be_key(a) and _chain_label(a) is not None for a in call.args):
                positions = self.project_key_positions(call, scope)
                if any(i in positions and self.may_be_key(a) and _chain_label(a) is not None
                       for i, a in enumerate(call.args)):
                    return True
        return self._may_have_own_key(scope) and any(self.project_key_positions(n, scope) for n in calls)

    def _may_have_own_key(self, scope: FunctionInfo | None) -> bool:
        """Whether a walk of the scope may find a key without the project index (over-approximating what
        `_ScopeWalk._key_labels` finds apart from `project_key_positions`, for a scope that draws nothing and
        calls no consuming function of the module by name): a name of kind KEY, or a call of a function of
        this module through an attribute, a call or a local name (`self._sample(logits, self.rng)`); a
        linen/haiku `apply` that draws lets the scope through by itself (`_may_consume`)."""
        if self._key_names is None:  # the names of kind KEY, once per module (most modules have none)
            self._key_names = {i for i, kind in self.kinds.name_kinds.items() if kind is Kind.KEY}
        keys = self._key_names
        if keys and any(type(n) is ast.Name and id(n) in keys for n in self.scopes.own_nodes(scope)):
            return True
        calls = ([n for n in self.scopes.own_calls(None) if _called_through(n)] if scope is None
                 else self.scopes.own_candidates("calls through attributes or names", scope, _called_through, calls=True))
        for call in calls:
            func = call.func  # type: ignore[attr-defined]
            if (type(func) is not ast.Name or (scope is not None and func.id in scope.local_names)) and (
                    self.callee_of(call, scope) is not None):  # type: ignore[arg-type]
                return True
        return False

    def may_be_key(self, arg: ast.AST) -> bool:
        """Whether an argument handed where a callee consumes a key can hold one: not a literal (`"float32"`,
        `3`), and not a name whose value is known to be a Python value, a function or a module here."""
        if isinstance(arg, (ast.Constant, ast.JoinedStr)):
            return False
        return not (isinstance(arg, ast.Name) and self.kinds.kind_at(arg) in _NOT_KEY_KINDS)

    def _wrapped_product_called(self, scope: FunctionInfo) -> bool:
        """`jax.jit(kernel)(key, s)` or `self.variant(kernel)(key, s)` of a factory's product of this module."""
        return any(self.callee_of(n, scope) is not None  # type: ignore[arg-type]
                   for n in self.scopes.own_candidates("wrapped calls", scope, _wrapped_call, calls=True))

    def _calls_given_arguments(self, scope: FunctionInfo | None) -> list[ast.Call]:
        """The calls in a scope's own code given positional arguments, in the order of `own_nodes` (the only ones
        `project_key_positions` can find a key among): kept per function across versions."""
        if scope is None:
            return [n for n in self.scopes.own_calls(None) if _called_with_arguments(n)]
        return self.scopes.own_candidates("calls given arguments", scope, _called_with_arguments, calls=True)  # type: ignore[return-value]

    def project_key_positions(self, call: ast.Call, scope: FunctionInfo | None) -> frozenset[int]:
        """The positions of the arguments a call of another module's function consumes on every path (the
        project index's summary): they are keys (`draw_noise(key, shape)` draws from `key`)."""
        memo = self._positions
        known = memo.get(id(call))
        if known is not None and known[0] is call:
            return known[1]
        found: frozenset[int] = frozenset()
        if self.model.project is not None and call.args and self.callee_of(call, scope) is None:
            uses = self.project_uses(call, scope) or []
            found = frozenset(i for i, a in enumerate(call.args) for arg, strength in uses
                              if arg is a and strength == "always")
        memo[id(call)] = (call, found)
        return found

    def _key_facts(self, fn: FunctionInfo, record: _Passes | None = None) -> _ScopeKeyFacts:
        """What a function's own calls say about keys (see _ScopeKeyFacts): from its own nodes and the imports
        alone, so kept per function node across versions while the imports are the same (analysis/reuse.py; and
        in the function's record of the module passes, `record`, which ModulePasses keeps on the same terms)."""
        if record is not None:
            if record.facts is None:
                record.facts = self.scopes.imports_fact("key facts", fn.node, _ScopeKeyFacts.of, self, fn)
            return record.facts
        return self.scopes.imports_fact("key facts", fn.node, _ScopeKeyFacts.of, self, fn)


def _hands_parameters(model: KeyFlow, fn: FunctionInfo) -> list[tuple[int, str, int]]:
    """(position of a parameter of `fn`, a module-level function name, position) for each call `g(..., p, ...)` in
    fn's own code that hands the parameter `p` on, as a plain name, to `g` (KeyFlow._relayed_params)."""
    positional = [p.arg for p in [*fn.node.args.posonlyargs, *fn.node.args.args]]  # type: ignore[union-attr]
    if not positional:
        return []
    out: list[tuple[int, str, int]] = []
    for call in model.scopes.own_calls(fn):
        if type(call.func) is ast.Name and call.func.id not in fn.local_names:
            for j, arg in enumerate(call.args):
                if type(arg) is ast.Starred:
                    break
                if type(arg) is ast.Name and arg.id in positional:
                    out.append((positional.index(arg.id), call.func.id, j))
    return out


def _assigns_one_name(node: ast.AST) -> bool:
    """`NAME = value` (KeyFlow._receiver_as_built)."""
    return isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)


@dataclass(frozen=True)
class _ScopeKeyFacts:
    """What one scope's own calls say about keys, before any kind is known."""

    draws: bool  # it calls a jax.random function
    called: frozenset[str]  # the names it calls as `NAME(...)`
    handed: tuple[ast.Name, ...]  # names it passes to calls: keys handed on, when their kind is KEY
    always: frozenset[int]  # a module-level function: positions of the parameters it passes to a jax.random
    # sampler in a statement that always runs (before any branch that could return early)
    self_calls: tuple[ast.Call, ...] = ()  # calls of `self.NAME(...)` given arguments (a method may draw)

    @staticmethod
    def of(model: KeyFlow, fn: FunctionInfo | None) -> _ScopeKeyFacts:
        calls = model.scopes.own_calls(fn)
        draws = False
        called: set[str] = set()
        handed: list[ast.Name] = []
        self_calls: list[ast.Call] = []
        always: set[int] = set()
        top_level = fn is not None and fn.parent is None and not isinstance(fn.node, ast.Lambda)
        positional = [p.arg for p in [*fn.node.args.posonlyargs, *fn.node.args.args]] if top_level else []  # type: ignore[union-attr]
        exits: _Exits | None = _Exits(fn.node.body) if top_level and positional else None  # type: ignore[union-attr, arg-type]
        for call in calls:
            q = model.scopes.qualname(call.func, fn)
            if (q is not None and (q.startswith("jax.random.") or q in _KEY_STREAMS)) or (model.uses_equinox() and any(
                    k.arg == "key" for k in call.keywords)) or (q == "functools.partial" and call.args and (
                    model.scopes.qualname(call.args[0], fn) or "").startswith("jax.random.")):
                draws = True  # (eqx.nn.Linear(..., key=k), self.dropout(x, key=k): KeyFlow.equinox_key_keyword;
                # nnx.Rngs(key): a key stream consumes its key)
            if type(call.func) is ast.Name:
                called.add(call.func.id)
            elif (type(call.func) is ast.Attribute and type(call.func.value) is ast.Name  # type: ignore[attr-defined]
                  and call.func.value.id == "self" and (call.args or call.keywords)):  # type: ignore[attr-defined]
                self_calls.append(call)
            handed.extend(a for a in call.args if type(a) is ast.Name)  # type: ignore[misc]
            handed.extend(k.value for k in call.keywords if type(k.value) is ast.Name)  # type: ignore[misc]
            if exits is not None:
                position = _always_consumed_position(model, call, fn, positional, exits)  # type: ignore[arg-type]
                if position is not None:
                    always.add(position)
        return _ScopeKeyFacts(draws, frozenset(called), tuple(handed), frozenset(always), tuple(self_calls))


class _Exits:
    """Where a function body's statements may return from it (a `return` anywhere inside one; a `raise` never
    returns to the caller, so what follows a guard that raises runs whenever the call returns), found once per
    function: asked for every call of the body, a walk of the statements before each call was quadratic."""

    def __init__(self, body: list[ast.stmt]) -> None:
        self.body = body
        self.position: dict[int, int] | None = None  # id(statement) -> its index; found on the first question
        self.scanned = 0  # the statements before this index are known not to exit (unless `exits` is set)
        self.exits = False  # body[scanned] may exit

    def before(self, top: ast.AST) -> bool:
        """Whether a statement before `top` (a statement of the body; anything else: the whole body) may exit.
        The body is scanned once, as far as the questions reach."""
        body = self.body
        if self.position is None:
            self.position = {id(stmt): i for i, stmt in enumerate(body)}
        end = self.position.get(id(top), len(body))
        while not self.exits and self.scanned < end:
            if any(isinstance(n, ast.Return) for n in walk_nodes(body[self.scanned])):  # a raise never returns
                self.exits = True
            else:
                self.scanned += 1
        return self.exits and self.scanned < end


def _flag_set_against(callee: FunctionInfo, passed: dict[str, ast.expr], call: ast.Call, flag: str,
                      needed: bool) -> bool:
    """A call that gives a flag parameter of the callee a constant of the other truth than the key's reads need
    (`inference=True` where the key is read only when `inference` is false), or leaves it at such a default."""
    value: ast.expr | None = passed.get(flag)
    if value is None:
        if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
            return False  # f(*args, **options): the flag may be among them
        value = _default_of(callee, flag)
    return isinstance(value, ast.Constant) and value.value is not None and bool(value.value) != needed


def _default_of(fn: FunctionInfo, name: str) -> ast.expr | None:
    """The default value of a parameter of a function (None when it has none)."""
    node = fn.node
    if isinstance(node, ast.Lambda):
        return None
    args = node.args
    positional = [*args.posonlyargs, *args.args]
    for arg, default in zip(positional[len(positional) - len(args.defaults):], args.defaults, strict=True):
        if arg.arg == name:
            return default
    for arg, kw_default in zip(args.kwonlyargs, args.kw_defaults, strict=True):
        if arg.arg == name:
            return kw_default
    return None


def _always_consumed_position(model: KeyFlow, call: ast.Call, fn: FunctionInfo, positional: list[str],
                              exits: _Exits) -> int | None:
    """The position of the parameter of module-level `fn` that this call of its body passes to a jax.random
    sampler in a statement that always runs (no branch or loop around it, no return before it)."""
    key, how = model.random_key_arg(call, fn)
    if how == "derive" or not isinstance(key, ast.Name) or key.id not in positional:
        return None
    top: ast.AST = call  # the function-level statement that holds the call
    while model.scopes.parents.get(top) is not fn.node:
        top = model.scopes.parents[top]
    if isinstance(top, (ast.If, ast.For, ast.While, ast.Try, ast.With, ast.Match)):
        return None  # inside a branch or loop: not always
    if exits.before(top):
        return None  # an early return may skip it
    return positional.index(key.id)


_NOT_KEY_KINDS = frozenset({Kind.PYTHON, Kind.FUNCTION, Kind.MODULE})
# annotations that name a value that is never a key (a dtype, a number, a string, a flag, a function)
_NOT_KEY_TYPES = {"int", "float", "str", "bool", "bytes", "complex", "Callable", "type", "dtype", "DType",
                  "DTypeLike", "DtypeLike"}


def _not_key_params(model: KeyFlow, fn: FunctionInfo) -> set[str]:
    """The parameters of a function that cannot hold a key: annotated with a type that is never one (`dtype:
    jnp.dtype`, `n: int`, `act: Callable`, also inside `X | None`/`Optional[X]`), or defaulting to a literal
    other than None or to an attribute of jax.numpy or numpy (`dtype=jnp.float32`). What a function does with
    them (`Bottleneck(key=key, dtype=dtype)`) consumes no key."""
    node = fn.node
    if isinstance(node, ast.Lambda):
        return set()
    a = node.args
    positional = [*a.posonlyargs, *a.args]
    defaults: dict[str, ast.expr] = dict(zip([p.arg for p in positional][::-1], a.defaults[::-1], strict=False))
    defaults.update({p.arg: d for p, d in zip(a.kwonlyargs, a.kw_defaults, strict=True) if d is not None})
    out: set[str] = set()
    for p in [*positional, *a.kwonlyargs]:
        default = defaults.get(p.arg)
        literal = isinstance(default, ast.Constant) and default.value is not None
        array_module = isinstance(default, ast.Attribute) and (model.scopes.qualname(default, None) or "").startswith(
            ("jax.numpy.", "numpy."))
        if _never_key_annotation(p.annotation) or literal or array_module:
            out.add(p.arg)
    return out


def _never_key_annotation(annotation: ast.AST | None) -> bool:
    """`int`, `jnp.dtype`, `str | None`, `Optional[Callable[..., X]]`: every type it allows (None aside) is never
    a key."""
    if annotation is None:
        return False
    if isinstance(annotation, ast.BinOp) and isinstance(annotation.op, ast.BitOr):
        sides = [annotation.left, annotation.right]
        return all(_never_key_annotation(s) or (isinstance(s, ast.Constant) and s.value is None) for s in sides) and not all(
            isinstance(s, ast.Constant) for s in sides)
    if isinstance(annotation, ast.Subscript):
        head = annotation.value
        name = head.attr if isinstance(head, ast.Attribute) else head.id if isinstance(head, ast.Name) else None
        if name == "Optional":
            return _never_key_annotation(annotation.slice)
        if name == "Union" and isinstance(annotation.slice, ast.Tuple):
            return all(_never_key_annotation(e) or (isinstance(e, ast.Constant) and e.value is None)
                       for e in annotation.slice.elts)
        return name in ("Callable", "type")
    name = annotation.attr if isinstance(annotation, ast.Attribute) else annotation.id if isinstance(
        annotation, ast.Name) else None
    return name in _NOT_KEY_TYPES


def _split_count(call: ast.Call) -> int | None:
    """How many keys `jax.random.split(key, n)` makes: 2 by default, an int literal, else None (not known)."""
    num = call.args[1] if len(call.args) > 1 else next((k.value for k in call.keywords if k.arg == "num"), None)
    return 2 if num is None else literal_int(num)


def _checks_structure(qualname: str | None) -> bool:
    """chex's assertions (`chex.assert_shape(key, (2,))`, `chex.assert_trees_all_close(a, b)`): they read
    shapes, types and values and draw nothing."""
    return qualname is not None and qualname.startswith("chex.assert")


def _clones(call: ast.Call, qualname: str | None) -> bool:
    """`jax.random.clone(key)` and wrappers named `clone`: JAX's way of saying a key is reused on purpose (the
    key reuse checker lets the clone be consumed again), so neither the clone nor what it feeds is a reuse."""
    name = qualname or called_name(call.func)
    return name.rsplit(".", 1)[-1] == "clone" and len(call.args) == 1 and not call.keywords


def _abstract_evaluation(call: ast.Call, qualname: str | None) -> bool:
    """`jax.eval_shape(f.init, key, x)` (and libraries' `fast_eval_shape`): shapes and dtypes are computed,
    no number is drawn."""
    name = qualname or called_name(call.func)
    return name.rsplit(".", 1)[-1].endswith("eval_shape")


def _method_of_an_object(call: ast.Call) -> bool:
    """`obj.place_on_grid(key=k)`: a method of an object (not `self`; the caller checks it names no module's
    function through an import, `jax.tree_util.tree_unflatten(s, keys)`)."""
    func = call.func
    return isinstance(func, ast.Attribute) and not (isinstance(func.value, ast.Name) and func.value.id in ("self", "cls"))


def _truth_assertion(func: ast.AST) -> bool:
    return called_name(func) in ("assertTrue", "assertFalse", "assert_", "failUnless", "failIf")


def _builds_equinox_layer(model: KeyFlow, call: ast.Call, scope: FunctionInfo | None) -> bool:
    """`eqx.nn.MLP(2, 1, 8, 2, key=key)`: a layer of equinox built from a key, which it always draws its initial
    weights from (split or not); a class of this module or of the project is looked into instead."""
    if not _constructs(call) or model.callee_of(call, scope) is not None:
        return False
    q = model.scopes.qualname(call.func, scope) or ""
    return q.startswith("equinox.") and q not in DRAWLESS_LAYERS


def _forwards_arguments(wrapper: FunctionInfo) -> bool:
    """A wrapper `def wrapper(*args, **kwargs)` (no other parameter) whose calls with starred arguments hand on
    exactly `*args` (and `**kwargs`): the wrapped function gets the caller's arguments unchanged."""
    node = wrapper.node
    if isinstance(node, ast.Lambda) or node.args.args or node.args.posonlyargs or node.args.kwonlyargs or (
            node.args.vararg is None):
        return False
    star, double = node.args.vararg.arg, node.args.kwarg.arg if node.args.kwarg is not None else None
    for call in walk_nodes(node):
        if isinstance(call, ast.Call) and any(isinstance(a, ast.Starred) for a in call.args) and not (
                len(call.args) == 1 and isinstance(call.args[0].value, ast.Name)  # type: ignore[attr-defined]
                and call.args[0].value.id == star  # type: ignore[attr-defined]
                and all(k.arg is None and isinstance(k.value, ast.Name) and k.value.id == double
                        for k in call.keywords)):
            return False
    return True


def _constructs(call: ast.Call) -> bool:
    """`Linear(3, 4, key=k)`, `eqx.nn.MLP(..., key=k)`: a class built from a key (equinox's convention). Not
    `self.KVCache_0(key=k, value=v)`: what an instance holds in an attribute is an object (a linen submodule made
    in `setup`, an nnx or equinox field), and calling it runs its `__call__` (an attention cache's `key=` is the
    key projection, an array); like any call we cannot see, it may draw from the argument, no more."""
    func = call.func
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self":
        return False
    return called_name(func)[:1].isupper() and any(kw.arg == "key" for kw in call.keywords)


def _rebinds(model: KeyFlow, fn: FunctionInfo, name: str) -> bool:
    """Whether `fn`'s own code binds `name` (other than as its parameter)."""
    return any(isinstance(n, ast.Name) and n.id == name and not isinstance(n.ctx, ast.Load)
               for n in model.scopes.own_nodes(fn))


def _positional(fn: FunctionInfo) -> list[str]:
    node = fn.node
    names = [p.arg for p in [*node.args.posonlyargs, *node.args.args]]
    return names[1:] if names[:1] in (["self"], ["cls"]) and "." in fn.qualname else names


# Transformations whose result, called, runs the function it wraps once (a closure's draws happen at that call).
_CALLING_ONCE_TRANSFORMS = {"jax.grad", "jax.value_and_grad", "jax.jit", "jax.checkpoint", "jax.remat",
                            "equinox.filter_grad", "equinox.filter_value_and_grad", "equinox.filter_jit",
                            "flax.nnx.grad", "flax.nnx.value_and_grad", "flax.nnx.jit"}


def _runs_always(model: KeyFlow, node: ast.AST, root: ast.AST, body: list[ast.stmt]) -> bool:
    """Whether a node of a function runs on every path that returns: in a top-level statement that is no branch
    or loop, with no return before it (a guard that raises never returns to the caller, so what follows it runs
    whenever the call returns)."""
    top = node
    while model.scopes.parents.get(top) is not root:
        parent = model.scopes.parents.get(top)
        if parent is None:
            return False
        if isinstance(parent, (ast.IfExp, ast.BoolOp)):
            return False
        top = parent
    if isinstance(top, (ast.If, ast.For, ast.While, ast.Try, ast.With, ast.Match, ast.AsyncFor, ast.AsyncWith)):
        return False
    if top not in body:
        return False
    earlier = body[: body.index(top)]
    return not any(isinstance(n, ast.Return) for stmt in earlier for n in walk_nodes(stmt))


def _runs_always_past_defs(model: KeyFlow, node: ast.AST, root: ast.AST, body: list[ast.stmt]) -> bool:
    """`_runs_always`, where a `return` inside a function defined earlier in the body (the `loss_fn` a training
    step defines before it calls `jax.grad(loss_fn)`) returns from that function only, not from this one."""
    top = node
    while model.scopes.parents.get(top) is not root:
        parent = model.scopes.parents.get(top)
        if parent is None or isinstance(parent, (ast.IfExp, ast.BoolOp)):
            return False
        top = parent
    if isinstance(top, (ast.If, ast.For, ast.While, ast.Try, ast.With, ast.Match, ast.AsyncFor, ast.AsyncWith)):
        return False
    if top not in body:
        return False
    return not any(_returns_outside_defs(stmt) for stmt in body[: body.index(top)])


def _returns_outside_defs(stmt: ast.AST) -> bool:
    if isinstance(stmt, ast.Return):
        return True
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
        return False
    return any(_returns_outside_defs(child) for child in ast.iter_child_nodes(stmt))


def _chain_label(node: ast.AST) -> str | None:
    """`self.rng`, `state.key`, `rngs["dropout"]`, `keys[0]`, `self.keys[1]`: a stored key's path; else None."""
    parts: list[str] = []
    cur = node
    while True:
        if isinstance(cur, ast.Attribute):
            parts.append(f".{cur.attr}")
            cur = cur.value
        elif isinstance(cur, ast.Subscript) and isinstance(cur.slice, ast.Constant) and (
                type(cur.slice.value) is int or isinstance(cur.slice.value, str)):
            parts.append(f"[{cur.slice.value!r}]")
            cur = cur.value
        else:
            break
    if not isinstance(cur, ast.Name):
        return None
    return cur.id + "".join(reversed(parts))


def _is_under(label: str, base: str) -> bool:
    return label == base or label.startswith((f"{base}.", f"{base}["))


class _ScopeWalk(ForwardFlow[State]):
    """Walks one scope's statements in execution order, tracking which keys have been consumed."""

    def __init__(self, model: KeyFlow, fn: FunctionInfo | None, body: list[ast.stmt],
                 always_consumed: dict[str, set[int]],
                 log: list[Asked] | None = None,
                 entry: State | None = None) -> None:
        """`log`: each call's `argument_uses` answer is appended to it, in the order asked (analysis/reuse.py).
        `entry`: what is consumed when the scope begins (a method after `__init__`, see `after_init_reuses`);
        `exit` is then what is consumed when it ends (None when no path falls off its end, or nothing was walked)."""
        self.model, self.fn = model, fn
        self.log = log
        self.always_consumed = always_consumed
        self.found: list[KeyReuse] = []
        self.reported: set[tuple[object, ...]] = set()
        self._checks: list[tuple[ast.AST, list[list[ast.expr]]]] | None = None
        self._equalities: list[tuple[ast.AST, list[list[ast.expr]]]] | None = None
        self._assigns: tuple[list[ast.AST], list[int], dict[str, list[int]]] | None = None
        self._loaded: set[str] | None = None  # the names this scope reads (see _unused_results)
        self._uses: dict[str, list[KeyUse]] = {}  # every use of each key met so far (see _note_use)
        self.exit: State | None = None
        self.keys = self._key_labels()
        if self.keys:
            self.hot = self._hot_nodes()
            if self.hot:
                self.exit = self.run_block(body, dict(entry) if entry else {})

    def _key_labels(self) -> set[str]:
        labels: set[str] = set()
        model = self.model
        for node in model.scopes.own_nodes(self.fn):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and model.kinds.kind_at(node) is Kind.KEY:
                labels.add(node.id)
            elif isinstance(node, ast.Call) and (seed := self._seed_label(node)) is not None:
                labels.add(seed)  # jax.random.PRNGKey(1): the key of seed 1, whichever call makes it
            elif isinstance(node, ast.Call):
                key, _ = model.random_key_arg(node, self.fn)
                if key is None and type(node.func) is ast.Name and (held := model.partial_key(node, self.fn)):
                    key = held[0]  # sample(shape) with sample = partial(jax.random.normal, key)
                label = _chain_label(key) if key is not None else None
                if label is not None:
                    labels.add(label)
                elif model.scopes.qualname(node.func, self.fn) in _KEY_STREAMS:  # nnx.Rngs(key): consumed
                    # only what is known to be a key: `nnx.Rngs(cfg.seed)` takes an int seed as often
                    # ... or a name, key or int seed alike, whose stream initialises a layer that surely draws
                    # (`nnx.Linear(8, 8, rngs=nnx.Rngs(key))`: two such layers start from the same numbers)
                    seeds_layer = self._seeds_drawing_layer(node)
                    labels.update(lbl for a in [*node.args[:1], *(k.value for k in node.keywords)]
                                  if isinstance(a, ast.Name) and (seeds_layer or model.kinds.kind_at(a) is Kind.KEY)
                                  and (lbl := _chain_label(a)))
                elif isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name) and (
                        stored := self._stored_key_draw(node)) is not None:  # sampler.draw(4): the stored key
                    labels.add(_chain_label(stored[0]) or f"{node.func.value.id}.{stored[1]}")
                elif drawn := self._apply_draws(node):  # net.apply(params, rng, x): framework_apply.py
                    labels.update(lbl for a, strength in drawn if strength == "always" and (lbl := _chain_label(a)))
                elif isinstance(node.func, ast.Name) and (
                        node.func.id in self.always_consumed or node.func.id in model.relay()):
                    # e.g. dropout(key, x): draws from `key`; sample(key, n): hands it to a function that does
                    always = self.always_consumed.get(node.func.id, set()) | model.relay().get(node.func.id, frozenset())
                    for i, arg in enumerate(node.args):
                        arg_label = _chain_label(arg) if i in always and self._may_be_key(arg) else None
                        if arg_label is not None:
                            labels.add(arg_label)
                elif (isinstance(node.func, ast.Attribute) or (
                        isinstance(node.func, ast.Name) and self.fn is not None and node.func.id in self.fn.local_names
                        and model.factory_product(node.func.id, self.fn) is not None)
                        or isinstance(node.func, ast.Call)) and model.callee_of(
                        node, self.fn) is not None:
                    for handed, strength in model.argument_uses(node, self.fn):  # self._sample(logits, self.rng)
                        handed_label = (_chain_label(handed) if strength == "always" and self._may_be_key(handed)
                                        else None)
                        if handed_label is not None:
                            labels.add(handed_label)
                elif (handed_key := model.equinox_key_keyword(node, self.fn)) is not None:
                    # eqx.nn.Linear(4, 4, key=k), self.dropout(x, key=k): equinox's layers draw from `key`
                    if self._may_be_key(handed_key) and (kw_label := _chain_label(handed_key)):
                        labels.add(kw_label)
                elif model.model.project is not None:
                    positions = model.project_key_positions(node, self.fn)  # another module's function
                    for i, arg in enumerate(node.args):
                        arg_label = _chain_label(arg) if i in positions and self._may_be_key(arg) else None
                        if arg_label is not None:
                            labels.add(arg_label)
        return labels

    def _seed_label(self, call: ast.Call) -> str | None:
        """KeyFlow.seed_label, logged when the seed is a name of an enclosing scope or of the module: `PRNGKey(SEED)`
        reads the module-level statement binding SEED (and every `global SEED`), so a logged walk records it with
        its question (KeyWalks asks it again: analysis/reuse.py)."""
        seed = self.model.seed_label(call, self.fn)
        if (self.log is not None and call.args and isinstance(call.args[0], ast.Name) and self.fn is not None
                and call.args[0].id not in self.fn.local_names):
            self.log.append((call, seed, KeyFlow.seed_label))
        return seed

    def _record_fields(self, call: ast.Call) -> tuple[str, ...] | None:
        """KeyFlow.record_fields_of, logged: it reads the record class's statement (its fields and their order), so
        a logged walk records it with its question (KeyWalks asks it again: analysis/reuse.py)."""
        fields = self.model.record_fields_of(call, self.fn)
        if self.log is not None:
            self.log.append((call, fields, KeyFlow.record_fields_of))
        return fields

    def _apply_draws(self, call: ast.Call) -> list[tuple[ast.AST, str]] | None:
        """KeyFlow.framework_draws (framework_apply.apply_draws), logged: its answer reads other statements (the linen module's class, the
        function haiku transforms, a module-level `model = Net()`), so a logged walk records it with its question
        (KeyWalks asks it again: analysis/reuse.py)."""
        drawn = self.model.framework_draws(call, self.fn)
        if self.log is not None and isinstance(call.func, ast.Attribute) and call.func.attr == "apply":
            self.log.append((call, drawn, KeyFlow.framework_draws))
        return drawn

    def _seeds_drawing_layer(self, rngs: ast.Call) -> bool:
        """`rngs` is the `rngs=` argument of an nnx layer whose constructor draws its parameters from it."""
        parent = self.model.scopes.parents.get(rngs)
        if not isinstance(parent, ast.keyword) or parent.arg != "rngs":
            return False
        layer = self.model.scopes.parents.get(parent)
        return isinstance(layer, ast.Call) and self.model.scopes.qualname(layer.func, self.fn) in _NNX_DRAWING_LAYERS

    def _may_be_key(self, arg: ast.AST) -> bool:
        return self.model.may_be_key(arg)  # (the scope filter asks it too: KeyFlow._project_may_consume)

    def _hot_nodes(self) -> set[int]:
        """Ids of the calls that consume a key and of everything above them: expressions outside this set
        cannot consume a key, so the walk skips them."""
        hot: set[int] = set()
        root = self.fn.node if self.fn is not None else self.model.scopes.tree
        for node in self.model.scopes.own_nodes(self.fn):
            if isinstance(node, ast.Call) and self._consumed(node):
                cur: ast.AST | None = node
                while cur is not None and cur is not root and id(cur) not in hot:
                    hot.add(id(cur))
                    cur = self.model.scopes.parents.get(cur)
        return hot

    def _label(self, node: ast.AST) -> str | None:
        if isinstance(node, ast.Call):
            seed = self.model.seed_label(node, self.fn)
            return seed if seed is not None and seed in self.keys else None
        label = _chain_label(node)
        if label is None:
            # `keys[i]`: one element of a key array while neither `keys` nor `i` is rebound (`_forget`)
            if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Name):
                base = _chain_label(node.value)
                if base is not None and base in self.keys:
                    return f"{base}[{_INDEX}{node.slice.id}]"
            return None
        if label in self.keys:
            if "." in label:
                fresh = self.model.fresh_each_read(node, self.fn)  # reads the classes: other statements
                if self.log is not None:
                    self.log.append((node, fresh, KeyFlow.fresh_each_read))
                if fresh:
                    return None  # `rng.rng` of a key generator: a fresh key on every read
            return label
        # an element of a split key array: `keys[0]` where `keys` is a key array
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and type(node.slice.value) is int:
            base = _chain_label(node.value)
            if base is not None and base in self.keys:
                return label
        return None

    def _may_label(self, node: ast.AST) -> bool:
        """Whether `_label` may give an argument (or what it unpacks) a label, from its syntax and `keys` alone: a
        call when a seed's key is among the keys, a chain that is a key, or an element of one; or a container
        literal holding one (an answer may name an element: linen's `rngs={"dropout": key}`)."""
        if isinstance(node, ast.Starred):
            node = node.value
        if isinstance(node, ast.Dict):  # `rngs={"dropout": key}`: an answer may name a value (framework_apply.py)
            return any(self._may_label(v) for v in node.values)
        if isinstance(node, (ast.Tuple, ast.List)):
            return any(self._may_label(e) for e in node.elts)
        if isinstance(node, ast.Call):
            return any(label.startswith("seed ") for label in self.keys)
        if _chain_label(node) in self.keys:
            return True
        return isinstance(node, ast.Subscript) and _chain_label(node.value) in self.keys

    def _consumed(self, call: ast.Call) -> list[tuple[ast.AST, str, str, bool]]:
        """Keys this call uses: (node, label, how, definite)."""
        held = self.model.partial_key(call, self.fn) if type(call.func) is ast.Name else None
        if held is not None:  # sample(shape) with sample = partial(jax.random.normal, key): a draw from `key`,
            label = self._label(held[0])  # at this call (its name stands for the key: each call is its own use)
            return [(call.func, label, held[1], True)] if label else []
        if type(call.func) is ast.Attribute:
            stored = self._stored_key_draw(call)
            if stored is not None:  # sampler.draw(4) of an object that keeps the constructor's key and draws from it
                label = self._label(stored[0]) or f"{call.func.value.id}.{stored[1]}"  # type: ignore[attr-defined]
                return [(call.func, label, "draw", True)]
        if self.log is None and not any(self._may_label(a) for a in call.args) and not any(
                self._may_label(k.value) for k in call.keywords):
            return []  # no argument can be one of the scope's keys, so nothing the call does with them is asked
            # (the arguments the answers below name are the call's own); a logged walk asks every call, as its
            # memory asks them again to know that the walk is the same (analysis/reuse.py)
        model = self.model
        key, how = model.random_key_arg(call, self.fn)
        if key is not None:
            label = self._label(key)
            return [(key, label, how, True)] if label else []
        q = model.scopes.qualname(call.func, self.fn)
        if q is not None and q.startswith("jax.random."):
            return []  # a non-consuming jax.random function (key_data, ...)
        func_name = call.func.id if isinstance(call.func, ast.Name) else None
        if (q or func_name) in NOT_A_CONSUMER or _logs(q, call) or model.is_predicate(call) or _checks_structure(q):
            return []
        if self._expected_to_raise(call):
            return []  # with pytest.raises(ValueError): sample(-1, key): no result comes back, nothing is kept
        # Any other function may draw from a key or split it. For a function of this module the model knows
        # which parameters it consumes on every path (definite), on some (a `training` flag: maybe), or never.
        # A function we cannot see may or may not draw from the key: a maybe, which counts next to a sure use
        # (`init(key)` then `normal(key)`) but not next to another maybe (tests hand one key to two
        # implementations to compare them). A function of this module is looked into.
        found: list[tuple[ast.AST, str, str, bool]] = []
        uses = model.argument_uses(call, self.fn)
        if self.log is not None:
            self.log.append((call, uses))
        for arg, strength in uses:
            label = self._label(arg.value if isinstance(arg, ast.Starred) else arg)
            if label is not None and label.startswith("seed ") and strength != "always":
                continue  # `init(PRNGKey(0))`: seeding a call that may draw nothing is how a test stays
                # reproducible; only surely consuming uses of a seed's key are compared
            if label is not None:
                found.append((arg, label, "split", strength == "always"))
        return found

    def _expected_to_raise(self, call: ast.Call) -> bool:
        """A call in the body of `with pytest.raises(...)` (or `self.assertRaises(...)`): the test expects it
        to raise, so it returns nothing and whatever it drew is thrown away."""
        return expected_to_raise(call, self.model.scopes.parents)

    # ---- statements --------------------------------------------------------------------------------------

    # ---- the transfer functions (flow.py) ----------------------------------------------------------------

    def copy(self, state: State) -> State:
        return dict(state)

    def constant_value(self, node: ast.expr) -> object:
        """A number written as such, or a module-level name bound once to one (`for _ in range(N_WARMUP)`)."""
        if not isinstance(node, ast.Name):
            return super().constant_value(node)
        value = self.model.module_number(node, self.fn)
        if self.log is not None:
            self.log.append((node, value, KeyFlow.module_number))  # reads a module-level statement
        return value

    def join(self, a: State | None, b: State | None) -> State | None:
        return _merge(a, b)

    def converged(self, entry: State, after_first_pass: State | None) -> bool:
        return after_first_pass == entry  # the first iteration consumed nothing: a second one would see the same

    def test(self, stmt: ast.If, state: State) -> None:
        self.expression(stmt.test, stmt, state)

    def loop_head(self, stmt: ast.For | ast.AsyncFor | ast.While, state: State) -> object:
        self.expression(stmt.iter if isinstance(stmt, (ast.For, ast.AsyncFor)) else stmt.test, stmt, state)
        return None

    def loop_entry(self, stmt: ast.For | ast.AsyncFor | ast.While, state: State, head: object) -> None:
        self._forget_seeds_made_in(stmt, state)
        if isinstance(stmt, (ast.For, ast.AsyncFor)):
            self.rebind(stmt.target, state)
        else:
            self.expression(stmt.test, stmt, state)

    def with_item(self, stmt: ast.With | ast.AsyncWith, item: ast.withitem, state: State) -> None:
        self.expression(item.context_expr, stmt, state)
        if item.optional_vars is not None:
            self.rebind(item.optional_vars, state)

    def subject(self, stmt: ast.Match, state: State) -> None:
        self.expression(stmt.subject, stmt, state)

    def simple(self, stmt: ast.stmt, state: State) -> State | None:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            self._forget(stmt.name, state)
            return state
        if isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            if stmt.value is not None:
                self.expression(stmt.value, stmt, state)
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            kept = self._carried_keys(stmt, state)
            for target in targets:
                self.rebind(target, state)
            state.update(kept)
            if (isinstance(stmt, ast.Assign) and len(targets) == 1 and isinstance(targets[0], ast.Name)
                    and isinstance(stmt.value, (ast.Name, ast.Attribute, ast.Subscript))):
                origin = self._label(stmt.value)  # rng = self.key: one key under two names
                if origin is not None and origin.split(".", 1)[0].split("[", 1)[0] != targets[0].id:
                    state[_ALIAS + targets[0].id] = KeyUse(stmt.value, origin, _ALIAS_CALL, stmt, "alias", True)
            elif (isinstance(stmt, ast.Assign) and len(targets) == 1 and isinstance(targets[0], ast.Name)
                    and isinstance(stmt.value, ast.Call)):
                twin = self._same_derivation(stmt, targets[0].id)  # k2 = fold_in(base, step) as k1 was: one key
                if twin is not None:
                    state[_ALIAS + targets[0].id] = KeyUse(stmt.value, twin, _ALIAS_CALL, stmt, "alias", True)
            return state
        for child in ast.iter_child_nodes(stmt):
            self.expression(child, stmt, state)
        if isinstance(stmt, ast.Return):
            self._handed_back(stmt, state)
        if isinstance(stmt, (ast.Return, ast.Raise, ast.Continue, ast.Break)):
            return None
        if isinstance(stmt, ast.Delete):
            for target in stmt.targets:
                self.rebind(target, state)
        return state

    def _same_derivation(self, stmt: ast.Assign, target: str) -> str | None:
        """`noise_key = fold_in(base, step)` after `drop_key = fold_in(base, step)` in the same scope: the same
        key and data give the same key, so the two names are one key. Only when no name the call reads is bound
        anywhere in the scope (parameters and outer names keep their values) and the other name is bound once."""
        call = stmt.value
        assert isinstance(call, ast.Call)
        if self.model.random_key_arg(call, self.fn)[1] != "derive":
            return None
        own = self.model.scopes.own_nodes(self.fn)
        stores: Counter[str] = Counter(n.id for n in own if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load))
        read = {n.id for n in ast.walk(call) if isinstance(n, ast.Name)}
        if any(stores[name] for name in read) or any(isinstance(n, (ast.Global, ast.Nonlocal)) for n in own):
            return None
        text = ast.dump(call)
        for other in own:
            if (isinstance(other, ast.Assign) and other is not stmt and other.lineno < stmt.lineno
                    and len(other.targets) == 1 and isinstance(other.targets[0], ast.Name)
                    and other.targets[0].id != target and stores[other.targets[0].id] == 1
                    and isinstance(other.value, ast.Call) and ast.dump(other.value) == text):
                return other.targets[0].id
        return None

    def _carried_keys(self, stmt: ast.Assign | ast.AnnAssign | ast.AugAssign, state: State) -> State:
        """The uses of keys kept in fields of a record that its rebinding carries over unchanged
        (`state = TrainState(params, state.rng, ...)`, `state = state.replace(params=p)`: carried_fields.py): they
        stay, as the same key is still in `state.rng`."""
        if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
                and any(_is_under(k.lstrip(_LAST), stmt.targets[0].id) for k in state)):
            return {}
        name = stmt.targets[0].id
        carried = carried_fields(stmt.value, name, self._record_fields,
                                 lambda func: self.model.scopes.qualname(func, self.fn))
        if carried is None:
            return {}
        kept: State = {}
        for label, use in state.items():
            bare = label.lstrip(_LAST)
            if bare != name and _is_under(bare, name) and carried(bare[len(name) + 1:].split(".", 1)[0].split("[", 1)[0]):
                kept[label] = use
        return kept

    def _handed_back(self, stmt: ast.Return, state: State) -> None:
        """`return x, key` (a key parameter handed back) or `return x, state.replace(key=k)` after the key was
        surely drawn from or split on this path: the returned key is the caller's next key, and its next draw
        repeats this one's numbers (evox's SNES `ask` draws its noise from `key` and returns it as the state's key).
        A key made here and returned beside the values drawn from it is a result, not the next key. Loop bodies hand keys back
        through their carry (`carry_reuses`); a key derived with `fold_in` or drawn only for shapes is not consumed."""
        fn = self.fn
        if stmt.value is None or fn is None or isinstance(fn.node, ast.Lambda) or any(
                site.provenance is Provenance.LAX_BODY for site in fn.traces):
            return
        returned = stmt.value.elts if isinstance(stmt.value, ast.Tuple) else [stmt.value]
        handed: list[tuple[int, ast.AST]] = []
        for position, value in enumerate(returned):
            if isinstance(value, (ast.Name, ast.Attribute)):
                root: ast.expr = value
                while isinstance(root, ast.Attribute):
                    root = root.value
                if isinstance(root, ast.Name) and root.id in fn.params:
                    handed.append((position, value))  # the key the caller handed in, handed back (`return x, key`)
            elif isinstance(value, ast.Call) and (
                    (isinstance(value.func, ast.Attribute) and value.func.attr in ("replace", "_replace"))
                    or self.model.scopes.qualname(value.func, fn) == "dataclasses.replace"):
                handed += [(position, k.value) for k in value.keywords
                           if k.arg is not None and isinstance(k.value, ast.Name)]
                record = (value.args[0] if len(value.args) == 1 else None) if self.model.scopes.qualname(
                    value.func, fn) == "dataclasses.replace" else value.func.value  # type: ignore[attr-defined]
                if isinstance(record, ast.Name) and record.id in fn.params and all(
                        k.arg is not None for k in value.keywords) and self._record_carried_by_callers(
                            fn, record.id, position if isinstance(stmt.value, ast.Tuple) else None):
                    # `dataclasses.replace(state, params=p)`: the fields not given are the caller's, unchanged
                    given = {f"{record.id}.{k.arg}" for k in value.keywords}
                    handed += [(position, use.node) for label, use in state.items()
                               if label.startswith(record.id + ".") and label.count(".") == 1 and label not in given
                               and use.node is not None]
        for position, node in handed:
            label = self._label(node)
            first = state.get(label) if label is not None else None
            if (first is None or not first.definite or first.how not in ("draw", "split")
                    or self._unused_results(first.statement, first.call) or self._shapes_only(first.call)
                    or self._thrown_away(first.call, first.statement)):
                continue
            if isinstance(stmt.value, ast.Tuple) and self._discarded_by_callers(fn, position, len(returned)):
                continue  # `loss, aux, _ = eval_step(...)` wherever it is called: the key goes nowhere
            self.add(KeyReuse(node, label, first, "returned"))  # type: ignore[arg-type]

    def _record_carried_by_callers(self, fn: FunctionInfo, param: str, position: int | None) -> bool:
        """Some call of `fn` in this module (by its name) passes a name as `param` and binds the returned record
        (the whole value, or the element at `position` of the returned tuple) to that same name: `state, m =
        train_step(state, batch)`. A caller that hands in a new record each time (`train_step(state._replace(
        rng=k), ...)`) draws from the key it gave."""
        positional = [p.arg for p in [*fn.node.args.posonlyargs, *fn.node.args.args]]  # type: ignore[union-attr]
        if param not in positional:
            return False
        index = positional.index(param)
        parents = self.model.scopes.parents
        for call in self.model.scopes.nodes(ast.Call):
            if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == fn.name):
                continue
            passed = call.args[index] if index < len(call.args) else next(
                (k.value for k in call.keywords if k.arg == param), None)
            assign = parents.get(call)
            if not (isinstance(passed, ast.Name) and isinstance(assign, ast.Assign) and len(assign.targets) == 1):
                continue
            target: ast.expr | None = assign.targets[0]
            if position is not None:
                target = target.elts[position] if isinstance(target, ast.Tuple) and position < len(target.elts) else None
            if isinstance(target, ast.Name) and target.id == passed.id:
                return True
        return False

    def _discarded_by_callers(self, fn: FunctionInfo, position: int, size: int) -> bool:
        """Every call of `fn` in this module (by its name, or `self.name(...)` for a method) throws the element
        at `position` of its returned tuple away (`a, b, _ = fn(...)`, `fn(...)[0]`, a bare `fn(...)`); False
        when no call is seen (a function others call)."""
        calls = [c for c in self.model.scopes.nodes(ast.Call) if isinstance(c, ast.Call) and (
            (isinstance(c.func, ast.Name) and c.func.id == fn.name) or (
                isinstance(c.func, ast.Attribute) and c.func.attr == fn.name and isinstance(c.func.value, ast.Name)
                and c.func.value.id in ("self", "cls")))]
        parents = self.model.scopes.parents
        holder = parents.get(fn.node)
        block = next((getattr(holder, f) for f in ("body", "orelse", "finalbody")
                      if fn.node in getattr(holder, f, ())), None) if holder is not None else None
        if block is not None and not isinstance(holder, (ast.Module, ast.ClassDef)):
            # a def inside a branch (`if flow: def eval_step...` / `elif ...: def eval_step...`): its calls are in
            # the statements after it in that branch
            ids = {id(st) for st in block}
            def in_block(node: ast.AST) -> bool:
                cur: ast.AST | None = node
                while cur is not None and id(cur) not in ids:
                    cur = parents.get(cur)
                return cur is not None
            calls = [c for c in calls if in_block(c)]
        if not calls:
            return False
        for call in calls:
            parent = parents.get(call)
            if isinstance(parent, ast.Expr):
                continue
            if (isinstance(parent, ast.Subscript) and parent.value is call and isinstance(parent.slice, ast.Constant)
                    and parent.slice.value != position and parent.slice.value != position - size):
                continue
            if (isinstance(parent, ast.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Tuple)
                    and len(parent.targets[0].elts) == size):
                target = parent.targets[0].elts[position]
                if isinstance(target, ast.Name) and target.id.startswith("_"):
                    continue
            return False
        return True

    def _forget_seeds_made_in(self, loop: ast.AST, state: State) -> None:
        """A key made from a literal seed inside a loop body (`for task in tasks: preds = uniform(PRNGKey(123))`)
        is made again on the next iteration: each iteration is seeded the same on purpose, so what the last one
        consumed from it is forgotten (a seed key consumed before the loop and again in it stays a reuse)."""
        parents = self.model.scopes.parents
        for label in [k for k in state if k.startswith(("seed ", _LAST + "seed ", _EARLIER + "seed "))]:
            cur: ast.AST | None = state[label].node
            while cur is not None and cur is not loop:
                cur = parents.get(cur)
            if cur is loop:
                del state[label]

    @staticmethod
    def _forget(base: str, state: State) -> None:
        index = f"[{_INDEX}{base}]"  # `keys[i]` names another element once `i` is rebound
        for label in [k for k in state if _is_under(k, base) or (k.startswith(_LAST) and _is_under(k.lstrip(_LAST), base)) or (
                k.startswith(_ALIAS) and (k[1:] == base or _is_under(state[k].label, base))) or index in k]:
            del state[label]  # a new value: the key and everything stored in it are fresh, copies of it are not

    @staticmethod
    def _same_key(label: str, state: State) -> list[str]:
        """The other names of one key: `self.key` for `rng` after `rng = self.key`, and `rng` for `self.key`."""
        base = label.split("[", 1)[0].split(".", 1)[0]
        out = []
        alias = state.get(_ALIAS + base)
        if alias is not None:
            out.append(alias.label + label[len(base):])
        out += [k[1:] for k, use in state.items() if k.startswith(_ALIAS) and use.label == label]
        return out

    def rebind(self, target: ast.AST, state: State) -> None:
        for node in walk_nodes(target):
            if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
                self._forget(node.id, state)
            elif isinstance(node, (ast.Subscript, ast.Attribute)) and isinstance(node.ctx, (ast.Store, ast.Del)):
                label = _chain_label(node)
                if label is not None:
                    self._forget(label, state)
                if isinstance(node, ast.Subscript):
                    base = _chain_label(node.value)  # `keys[j] = k`: any `keys[i]` may be that element
                    for stale in [k for k in state if base is not None and f"{base}[{_INDEX}" in k]:
                        del state[stale]
                self.expression(node.value, None, state)

    # ---- expressions -------------------------------------------------------------------------------------

    def expression(self, expr: ast.AST, stmt: ast.stmt | None, state: State) -> None:
        if id(expr) not in self.hot:
            return
        for call, in_comprehension in _calls_in_order(expr):
            if _never_runs(self.model, call) or self._dead_random_result(call, stmt) or self._draws_discarded(call, stmt):
                continue
            consumed = self._consumed(call)
            copies = [(node, other, how, definite) for node, label, how, definite in consumed
                      for other in self._same_key(label, state)] if len(state) > 0 else []
            told = len(self.found)
            for node, label, how, definite in [*consumed, *copies]:
                if len(self.found) > told and any(r.node is node for r in self.found[told:]):
                    continue  # the key is reported under one of its names already
                base = label.split("[", 1)[0].split(".", 1)[0]
                if in_comprehension is not None:
                    if base in self._comprehension_names(in_comprehension) or any(
                            f"[{_INDEX}{name}]" in label for name in self._comprehension_names(in_comprehension)):
                        continue  # bound per iteration: another key each time, not the outer one
                    bound = self._comprehension_names(in_comprehension)
                    if how != "derive" and definite and not self._selects_each(call, bound):
                        self.add(KeyReuse(node, label, None, "comprehension"))
                    continue
                first = state.get(label)
                if first is not None and _exclusive(self.model, first.node, node):
                    continue  # the two branches of `a if c else b`: only one runs
                if first is not None and first.node is node and _loops_run_once(self.model, node):
                    continue  # `for i in range(N_STREAMS)` with the constant N_STREAMS = 1: no second iteration
                if first is None or (definite and not first.definite and first.how != "derive"
                                     and not self._hashed_and_folded(first, node, call, how)):
                    if stmt is not None:
                        state[label] = KeyUse(node, label, call, stmt, how, definite)
                    if first is None:
                        continue
                last = state.get(_LAST + label)
                if self._hazard(first, node, call, stmt, how, definite):
                    self.add(KeyReuse(node, label, first, "loop" if first.node is node else "again",
                                      sure=first.definite and definite))
                elif deliberate := self._deliberate(first, node, call, stmt):
                    # the first use and this one are a deliberate pair (compared, replayed), but a sure use between
                    # them (`x = uniform(key)` between two compared `sample(key)`) may meet this one: the latest,
                    # or the one before it when that one's values are still alive (a replay in between makes no
                    # numbers of its own). A use between them compared with the first too is one more reproduction of the
                    # first (three models built from one key, each asserted equal to the first): what it shares with
                    # this one is what both share with the first, compared on purpose, as long as nothing computes
                    # with both (`batch = (x, y)` of two draws each "compared" with the model they train stays found)
                    earlier = state.get(_EARLIER + label)
                    for between, must_live in ((last, deliberate != "compared"), (earlier, True)):
                        if (between is not None and between.node is not first.node and between.node is not node
                                and getattr(between.node, "lineno", 0) < getattr(node, "lineno", 0)
                                and not _exclusive(self.model, between.node, node)
                                and (not must_live or self._still_live(between, stmt))
                                and not (deliberate == "compared" and self._compared(first, between.statement, between.call)
                                         and self._kept_apart(between.statement, stmt, between.call, call))
                                and self._hazard(between, node, call, stmt, how, definite)):
                            self.add(KeyReuse(node, label, between, "again", sure=between.definite and definite))
                            break
                if definite and how != "derive" and stmt is not None and first is not None:
                    if last is not None:
                        state[_EARLIER + label] = last
                    state[_LAST + label] = KeyUse(node, label, call, stmt, how, definite)
                self._note_use(KeyUse(node, label, call, stmt, how, definite))
            self._escape(call, consumed, state)

    def _hazard(self, first: KeyUse, node: ast.AST, call: ast.Call, stmt: ast.stmt | None, how: str,
                definite: bool) -> bool:
        """Whether a use of a key after `first` repeats its numbers where it matters (see `expression`)."""
        return (_conflict(first, how, definite) and not _fold_past_split(self.model, first, call, how)
                and not self._hashed_and_folded(first, node, call, how)
                and not _distinct_split_elements(self.model, first, call)
                and not _replays(first, call, stmt) and not self._compared(first, stmt, call)
                and not self._paired(first, call)
                and not self._unused_results(first.statement, first.call) and not self._unused_results(stmt, call)
                and not _replaced_by_load(self.model, first)
                and not _one_hot_apart(self.model, first.call, call)
                and not self._shapes_only(first.call) and not self._shapes_only(call)
                and not self._sample_inputs_pair(first.call, call)
                and not self._inverts(first, call)
                and not self._separate_cases(first.node, node)
                and not self._only_refused(first.call)
                and not self._never_meet(first, node, call, stmt)
                and not self._thrown_away(first.call, first.statement) and not self._thrown_away(call, stmt)
                and not self._reproduces_an_earlier_use(first, stmt, call)
                and not self._draws_what_it_was_built_with(first, call))

    def _note_use(self, use: KeyUse) -> None:
        """Every use of a key met so far (once each, in walk order; see `_reproduces_an_earlier_use`)."""
        if use.statement is None:
            return
        uses = self._uses.setdefault(use.label, [])
        if not any(u.node is use.node for u in uses):
            uses.append(use)

    def _reproduces_an_earlier_use(self, first: KeyUse, stmt: ast.stmt | None, call: ast.Call) -> bool:
        """The results of this use are asserted equal to those of another earlier use of the key, not the first
        (`passed_as_pytree = jax.jit(run)(chain, key)` then `assert passed_as_pytree == endpoint.xs`, with
        `endpoint = run(chain, key=key)` the second of three runs): this use reproduces that use's numbers on
        purpose, so whatever it shares with the first use is what that use shares with it, judged at that use.
        Only a use that was no finding itself counts: a reproduction of a reuse (haliax's `jax_perm` equal to
        `hax_perm`, both keyed by the key that drew the permuted data) repeats that reuse, at its own line."""
        if stmt is None:
            return False
        reported = {id(r.node) for r in self.found}
        earlier = [u for u in self._uses.get(first.label, ()) if u.node is not first.node and u.call is not call
                   and getattr(u.node, "lineno", 0) <= getattr(call, "lineno", 0) and id(u.node) not in reported]
        return any(self._compared(u, stmt, call) for u in earlier[-8:])

    def _dead_random_result(self, call: ast.Call, stmt: ast.stmt | None) -> bool:
        """`keys = jax.random.split(key, n)` (or a `fold_in`) bound to names nothing in the function reads, not even
        a function nested in it: `jax.random` is pure, so keys nobody reads give no number to anything, and the
        split is no use of the key (jax-pcmci's batch test splits a key it already drew from and never reads the
        keys); a read that only hands a key to a function that never draws from it counts as none
        (`_drawless_argument`). A module-level name may be read by an importer, so only function scopes count.
        Draws bound to names stay uses whether read or not (`x = normal(key)` twice: each later draw is a finding at
        its own line); a `jax.random` call whose value a statement of its own throws away is none."""
        if (self.fn is not None and not isinstance(self.fn.node, ast.Lambda) and isinstance(stmt, ast.Expr)
                and stmt.value is call):
            # `jax.random.permutation(key, walkers)` as a statement of its own (round 36's jammer): the numbers
            # are thrown away at once, so they reach nothing a later use of the key could correlate with
            return self.model.random_key_arg(call, self.fn)[0] is not None
        if (self.fn is None or isinstance(self.fn.node, ast.Lambda) or not isinstance(stmt, ast.Assign)
                or stmt.value is not call):
            return False
        key, how = self.model.random_key_arg(call, self.fn)
        if key is None or how not in ("split", "derive"):
            return False
        stored: set[str] = set()
        for target in stmt.targets:
            for n in walk_nodes(target):
                if isinstance(n, ast.Name):
                    stored.add(n.id)
                elif not isinstance(n, (ast.Tuple, ast.List, ast.expr_context)):
                    return False  # `self.keys = split(key)`, `keys[0] = ...`, `*rest`: kept where others may read
        if not stored or stored & self.fn.outer_names:
            return False  # `nonlocal` / `global` names outlive the call
        # a read after the statement (outside its own value) settles it at once: the keys are used
        start, inside = (stmt.lineno, stmt.col_offset), None
        reads: list[ast.Name] = []
        for n in self.model.walked(self.fn.node):
            if isinstance(n, ast.Name) and n.id in stored and not isinstance(n.ctx, ast.Store) and (
                    not self._drawless_argument(n)):
                if (n.lineno, n.col_offset) >= start:
                    inside = {id(x) for x in walk_nodes(stmt.value)} if inside is None else inside
                    if id(n) not in inside:
                        return False
                reads.append(n)
        return not reads or self._only_read_before(stmt, reads)

    def _only_read_before(self, stmt: ast.stmt, reads: list[ast.Name]) -> bool:
        """Every read of the names `stmt` binds comes before it in the function's own straight-line code: `stmt`
        is in no loop of the function and no read sits in a nested function or lambda (which may run later), so
        in Python's order of execution no read can see the values `stmt` binds (nflojax's builder splits `key`
        once more at its end for a callee that deletes its piece; the earlier reads of `key` saw older keys)."""
        assert self.fn is not None
        parents = self.model.scopes.parents
        cur: ast.AST | None = parents.get(stmt)
        while cur is not None and cur is not self.fn.node:
            if isinstance(cur, (ast.For, ast.AsyncFor, ast.While, ast.FunctionDef, ast.AsyncFunctionDef,
                                ast.Lambda, ast.ClassDef)):
                return False
            cur = parents.get(cur)
        if cur is None:
            return False
        inside = {id(n) for n in walk_nodes(stmt.value)} if isinstance(stmt, ast.Assign) else set()
        for read in reads:
            if id(read) in inside:
                continue  # `key, sub = split(key)` reads the key it had before it binds the new ones
            if (read.lineno, read.col_offset) >= (stmt.lineno, stmt.col_offset):
                return False
            up: ast.AST | None = parents.get(read)
            while up is not None and up is not self.fn.node:
                if isinstance(up, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
                    return False
                up = parents.get(up)
        return True

    def _draws_discarded(self, call: ast.Call, stmt: ast.stmt | None) -> bool:
        """`mlp, _ = init_mlp(key, ...)` with `init_mlp` of this module or another (the project index) returning
        a tuple whose only elements computed from the parameters given names here are the ones this statement
        binds to `_`-names (project_index.returned_carriers): the module comes back, the parameters drawn from
        `key` are thrown away, so no number drawn from `key` reaches anything and the call is no use of it."""
        if (self.fn is None or not isinstance(stmt, ast.Assign) or stmt.value is not call or len(stmt.targets) != 1
                or not isinstance(stmt.targets[0], ast.Tuple) or (not call.args and not call.keywords)):
            return False
        target = stmt.targets[0]
        if any(not isinstance(e, ast.Name) for e in target.elts):
            return False
        if not any(isinstance(e, ast.Name) and e.id.startswith("_") for e in target.elts):
            return False
        read = {n.id for n in self.model.walked(self.fn.node) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Store)}
        dropped = {i for i, e in enumerate(target.elts) if isinstance(e, ast.Name) and e.id.startswith("_")
                   and e.id not in read and e.id not in self.fn.outer_names}  # `_` names nothing reads
        if not dropped or any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
            return False
        found = self._returned_carriers(call)
        if found is None:
            return False
        positional, carriers = found
        carried = dict(carriers)
        if len(call.args) > len(positional):
            return False
        given = [*zip(positional, call.args, strict=False), *((k.arg, k.value) for k in call.keywords)]
        keys = [name for name, value in given if self._may_label(value)]
        for name in keys:
            positions = carried.get(name) if name is not None else None
            if positions is None or any(i >= len(target.elts) for i in positions) or not set(positions) <= dropped:
                return False
        return bool(keys)

    def _returned_carriers(self, call: ast.Call) -> tuple[tuple[str, ...], tuple[tuple[str, tuple[int, ...]], ...]] | None:
        """The positional parameters of the function a call runs and its returned_carriers, for a plain function
        of this module or of another one the project index reads; None for anything else (a method, a class)."""
        callee = self.model.callee_of(call, self.fn)
        if callee is not None:
            node = callee.node
            if isinstance(node, ast.Lambda) or "." in callee.qualname or node.decorator_list:
                return None
            every = [a.arg for a in [*node.args.posonlyargs, *node.args.args]]
            carriers = returned_carriers(node, [*every, *(a.arg for a in node.args.kwonlyargs)])
            return None if carriers is None else (tuple(every), carriers)
        project = self.model.model.project
        if project is None or not isinstance(call.func, (ast.Name, ast.Attribute)):
            return None
        local = self.fn.local_names if self.fn is not None else set()
        q = self.model.scopes.qualname(call.func, self.fn) or project.qualified(
            call.func, local, self.model.module_classes(), self.fn)
        if q is None or q.startswith("jax."):
            return None
        summary = project.index.function(q, project.path)
        if summary is None or not project.index.sees_through(summary) or not summary.returned_carriers or "." in summary.qualname:
            return None
        return summary.positional, summary.returned_carriers

    def _drawless_argument(self, name: ast.Name) -> bool:
        """A key read only as an argument of a call of another module's function that the project index says
        never draws from it (jax-flows' `init_fun = flows.Normal()`, whose `init_fun(rng, dim)` never reads
        `rng`): handing it there gives no number to anything, so the keys are as unread as names nobody reads."""
        call = self.model.scopes.parents.get(name)
        if not isinstance(call, ast.Call) or self.model.scopes.enclosing_function(call) is not self.fn or not (
                any(a is name for a in call.args) or any(k.value is name for k in call.keywords)):
            return False
        if isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name) and call.func.value.id in (
                "self", "cls"):
            return False  # a method a subclass may override to draw (jaxtari's `bomb_move_vertically` hooks)
        uses = self.model.project_uses(call, self.fn)
        return uses is not None and all(arg is not name for arg, _ in uses) and self._only_ignored(call, name)

    def _only_ignored(self, call: ast.Call, name: ast.Name) -> bool:
        """The parameter of the called function (another module's, as the project index summarised it) that
        `name` is handed to is only ignored or deleted: not stored, returned or handed on, so the key reaches
        nothing through the call (a key stored into a record the caller carries on, `IntegratorState(x, key,
        step)`, is no draw there but is drawn from later: diffuse-jax's Euler-Maruyama step)."""
        model = self.model
        project = model.model.project
        if project is None or self.fn is None:
            return False
        local = self.fn.local_names
        q = model.project_factory_product(call.func, self.fn) or model.scopes.qualname(call.func, self.fn) or (
            project.qualified(call.func, local, model.module_classes(), self.fn))
        summary = project.index.function(q, project.path) if q is not None else None
        if summary is None or summary.opaque:
            return False
        index = next((i for i, a in enumerate(call.args) if a is name), None)
        param = (summary.positional[index] if index is not None and index < len(summary.positional) else None) if (
            index is not None) else next((k.arg for k in call.keywords if k.value is name), None)
        found = summary.param(param) if param is not None else None
        return found is not None and found.uses <= {"ignore"}

    def _hashed_and_folded(self, first: KeyUse, node: ast.AST, call: ast.Call, how: str) -> bool:
        """One use is `fold_in(key, data)` and the other a flax linen module's `init(key, ...)`, which only
        derives `fold_in(key, h)` with `h` a 32-bit SHA-1 of each scope path (`KeyFlow.linen_init_key`): two
        derivations with distinct data, no number drawn twice. A linen init next to a draw, a split or another
        linen init (the same paths hash the same: two models' `Dense_0` get one key) stays a reuse."""
        if {first.how, how} != {"split", "derive"}:
            return False
        init = call if how == "split" else first.call
        folded = first.call if how == "split" else call
        if self.model.random_key_arg(folded, self.fn)[1] != "derive":
            return False
        key = self.model.linen_init_key(init, self.fn)
        return key is not None and key is (node if how == "split" else first.node)

    def _deliberate(self, first: KeyUse, node: ast.AST, call: ast.Call, stmt: ast.stmt | None) -> str:
        """Why the first use and this one are a deliberate pair: "compared" with each other, or this one is a
        "replay" of the first (the same call again, or the same names set again once the first's values are
        dead); "" when neither. A sure use between them may still meet this one (gpjax's `x = uniform(key)` kept
        alive into a replayed `sample_approx(..., key)`)."""
        if self._compared(first, stmt, call):
            return "compared"
        if _replays(first, call, stmt) or self._never_meet(first, node, call, stmt):
            return "replay"
        return ""

    def _still_live(self, use: KeyUse, stmt: ast.stmt | None) -> bool:
        """Whether a value computed from `use` may still be read when `stmt` runs: a replay meets only the
        draws of a use between it and the first whose values are alive (optax's `targets = bernoulli(key)` of an
        earlier subtest is dead before the next subtest's `predictions = normal(key)`)."""
        return stmt is not None and (use.statement is None
                                     or not values_dead_before(self.model.scopes, use.statement, stmt))

    def _unused_results(self, stmt: ast.stmt | None, call: ast.Call) -> bool:
        """Results bound only to names that say they are unused (`_unused_results`), unless one is a private name
        this scope reads: `_res = mean_params(p, key)` then `a, b = _res` reads the draw (diffmah), so it counts."""
        if not _unused_results(stmt, call):
            return False
        if self._loaded is None:
            self._loaded = {n.id for n in self.model.scopes.own_nodes(self.fn)
                            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
        private = {name for name in _stored(stmt) if name.startswith("_") and name.strip("_")}  # type: ignore[arg-type]
        return not (private & self._loaded)  # `dummy_out` says so in words, and is read for its shape

    def _draws_what_it_was_built_with(self, first: KeyUse, call: ast.Call) -> bool:
        """`sampler = FixedSampler(key)` then `sampler.draw(4)`: the construction only stored the key the method
        draws from, so the first draw is not a second use of it."""
        func = call.func
        if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)):
            return False
        built = self.model._receiver_as_built(func.value, self.fn)
        return built is not None and built[0] is first.call and self._stored_key_draw(call) is not None

    def _stored_key_draw(self, call: ast.Call) -> tuple[ast.expr, str] | None:
        """KeyFlow.stored_key_draw, logged: it reads the class's statement. (Asked of every `obj.m(...)`: only
        an object this scope builds by calling a name can hold a constructor's key, so only those are asked.)"""
        func = call.func
        if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)):
            return None
        built = self.model._receiver_as_built(func.value, self.fn)
        if built is None or not (isinstance(built[0], ast.Call) and isinstance(built[0].func, ast.Name)):
            return None
        answer = self.model.stored_key_draw(call, self.fn)
        if self.log is not None:
            self.log.append((call, answer, KeyFlow.stored_key_draw))
        return answer

    def _reinitialised(self, arg: ast.AST) -> bool:
        """KeyFlow.reinitialised_argument, logged: it reads the helper's statement."""
        answer = self.model.reinitialised_argument(arg, self.fn)
        if self.log is not None:
            self.log.append((arg, answer, KeyFlow.reinitialised_argument))
        return answer

    def _reinitialised_later(self, layer: ast.Call) -> ast.AST | None:
        """Where a layer built by `layer` is handed to a function next: as an argument right there
        (`_init_linear(eqx.nn.Linear(...), k)`), or, bound to `self.linear` (or a name), as the argument of the next
        statement of the block that mentions it, `self.linear = _init_linear(self.linear, k)`."""
        parents = self.model.scopes.parents
        up = parents.get(layer)
        if isinstance(up, ast.Call) and layer in up.args:
            return layer
        if not (isinstance(up, ast.Assign) and up.value is layer and len(up.targets) == 1):
            return None
        target = ast.dump(up.targets[0])
        holder = parents.get(up)
        block = next((getattr(holder, f) for f in ("body", "orelse", "finalbody")
                      if up in getattr(holder, f, ())), None) if holder is not None else None
        for later in (block or [])[block.index(up) + 1:] if block else []:
            mentions = [n for n in walk_nodes(later) if isinstance(n, (ast.Name, ast.Attribute)) and ast.dump(
                n).replace("Store()", "Load()") == target.replace("Store()", "Load()")]
            if not mentions:
                continue
            if not (isinstance(later, ast.Assign) and len(later.targets) == 1
                    and ast.dump(later.targets[0]) == target and isinstance(later.value, ast.Call)):
                return None
            loads = [a for a in later.value.args if ast.dump(a) == target.replace("Store()", "Load()")]
            return loads[0] if len(loads) == 1 and len(mentions) == 2 else None
        return None

    def _thrown_away(self, call: ast.Call, stmt: ast.stmt | None) -> bool:
        """A draw inside a statement the test expects to raise (`with pytest.raises(...)`), whose result is bound
        to nothing (`f(normal(key, (7, 7)))`): the statement raises, and nothing it drew is kept."""
        return isinstance(stmt, ast.Expr) and self._expected_to_raise(call)

    def _escape(self, call: ast.Call, consumed: list[tuple[ast.AST, str, str, bool]], state: State) -> None:
        """An object handed to a call, or whose method is called, may get new keys stored in it: what was
        consumed from its attributes is no longer known."""
        used = {label for _, label, _, _ in consumed}
        bases = [a for a in [*call.args, *(kw.value for kw in call.keywords)] if isinstance(a, ast.Name)]
        if isinstance(call.func, ast.Attribute):
            root: ast.AST = call.func.value
            while isinstance(root, (ast.Attribute, ast.Subscript)):
                root = root.value
            if isinstance(root, ast.Name):
                bases.append(root)
        for base in bases:
            for label in [k for k in state if k not in used and _is_under(k, base.id) and k != base.id
                          and ("." in k or "['" in k)]:
                del state[label]
                state.pop(_LAST + label, None)
                state.pop(_EARLIER + label, None)

    def _never_meet(self, first: KeyUse, node: ast.AST, call: ast.Call, stmt: ast.stmt | None) -> bool:
        """A replay rather than a correlation: the second use sets the same names again (`state = init(key)`
        after the test asserted on the last state), returns a draw while the first was discarded on that path,
        or a loop redraws per setting (`draws = normal(key, (n,))` for each `n`); and every value computed from
        the first use is dead before the second runs, so no computation sees both draws. A second use that
        binds new names (`y = normal(key)` after `x = normal(key)`) wants other numbers, and a loop whose draw
        never changes repeats one iteration."""
        if stmt is None or first.statement is None or self.fn is None:
            return False
        if first.statement is stmt and isinstance(stmt, ast.For) and isinstance(stmt.iter, (ast.Tuple, ast.List)) and (
                first.call in stmt.iter.elts and call in stmt.iter.elts):
            # `for got in (f(key), g(key)):` binds each result to `got` in turn, but the body may carry one into the
            # next iteration (`total = total + got`): apart only when it checks each and keeps nothing
            return self._loop_checks_each(stmt, first.call, call)
        if _checks_only(self.model, first.statement, self.fn) and _checks_only(self.model, stmt, self.fn):
            return True  # two checks, each reproducing what it compares: nothing outlives the first one
        if (isinstance(node, ast.Call) and isinstance(first.node, ast.Call) and first.node is not node
                and self._only_checked(first.statement)
                and values_dead_before(self.model.scopes, first.statement, stmt)):
            # a key made again from the seed the code wrote for the first draw (`uniform(PRNGKey(0), ...)` twice),
            # whose values reach only assertions and die there: no computation sees both. (The same key *variable*
            # drawn from again under a new name still wants other numbers: prng-key-reuse__redraw_under_new_name.)
            return True
        if (isinstance(node, ast.Call) and isinstance(first.node, ast.Call) and first.node is not node
                and self._checked_apart(first.statement, stmt)):
            return True  # each run from the seed written at it is checked on its own (tinydiffeq's validation test)
        same = first.node is node
        if same and self._shuffles_each(call, stmt):
            return True  # for arr in arrays: permutation(key, arr): one permutation of every array (joint shuffle)
        if same:
            if not self._varies_per_iteration(call, node, stmt):
                return False
            if self._check_run(call, stmt):
                return True  # for kernel in kernels: check(kernel, key): each setting's draws die in its check
        elif not isinstance(stmt, ast.Return) and (not _kept(first.statement)
                                                    or _kept(first.statement) != _kept(stmt)):
            return False
        return values_dead_before(self.model.scopes, first.statement, stmt, same_statement=same)

    def _kept_apart(self, a: ast.stmt | None, b: ast.stmt | None, call_a: ast.Call | None = None,
                    call_b: ast.Call | None = None) -> bool:
        """The names two statements bind, and every name computed from them in this scope (assignments in line
        order), never meet in one statement: no computation of this scope sees both results. One `for` over a
        display of the two calls (`for got in (sample(key), sample(key, lower=0.0)):`) keeps them apart when its
        body only checks what each iteration computes (`_loop_checks_each`)."""
        if a is b and a is not None and call_a is not None and call_b is not None:
            return self._loop_checks_each(a, call_a, call_b)
        if a is None or b is None or self.fn is None or a is b:
            return False
        flows = [set(_stored(a)), set(_stored(b))]
        if not flows[0] or not flows[1] or any(not name.isidentifier() for f in flows for name in f):
            return False
        own = [n for n in self.model.scopes.own_nodes(self.fn) if isinstance(n, ast.stmt)]
        own.sort(key=lambda n: (n.lineno, n.col_offset))
        for st in own:
            reads = _direct_reads(st)
            if reads & flows[0] and reads & flows[1]:
                return False
            for names in flows:
                if reads & names and isinstance(st, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For)):
                    names |= {n for n in _stored(st) if n.isidentifier()}
        own_ids = {id(n) for n in self.model.scopes.own_nodes(self.fn)}
        return not any(isinstance(n, ast.Name) and n.id in flows[0] | flows[1] and id(n) not in own_ids
                       for n in self.model.walked(self.fn.node))  # a function defined here may read both

    def _loop_checks_each(self, loop: ast.stmt, a: ast.Call, b: ast.Call) -> bool:
        """`for got in (f(key), g(key)):` whose body only asserts on what it computes from `got` (each iteration
        sees one of the two results, and nothing keeps it past the iteration): l2co's test that each spelling of
        the sampler replays the draws it always made (round 39)."""
        if not (self.fn is not None and isinstance(loop, ast.For) and isinstance(loop.iter, (ast.Tuple, ast.List)) and a is not b
                and a in loop.iter.elts and b in loop.iter.elts):
            return False
        names = {n for n in _stored(loop) if n.isidentifier()}
        if not names:
            return False
        body = [n for st in loop.body for n in walk_nodes(st) if isinstance(n, ast.stmt)]
        derived: set[str] = set()
        for st in sorted(body, key=lambda n: (n.lineno, n.col_offset)):
            reads = _direct_reads(st)
            if not reads & names:
                continue
            carries = (isinstance(st, ast.Assign) and _assigned_names(st) is not None) or (
                isinstance(st, ast.For) and all(isinstance(n, (ast.Name, ast.Tuple, ast.List, ast.expr_context))
                                                for n in walk_nodes(st.target)))
            if carries:  # into plain names, read again below
                made = {n for n in _stored(st) if n.isidentifier()}
                if made & reads:
                    return False  # `total = total + got`: an accumulator carries one iteration's result into the next
                names |= made
                derived |= made
            elif not (isinstance(st, ast.Assert) or _checks_only(self.model, st, self.fn)):
                return False  # kept, returned, appended or combined: the two results may meet
        inside = {id(n) for st in loop.body for n in walk_nodes(st)}
        return not any(isinstance(n, ast.Name) and n.id in derived and id(n) not in inside
                       for n in self.model.walked(self.fn.node))  # (read after the loop: the last result lives on)

    def _check_run(self, call: ast.Call, stmt: ast.stmt) -> bool:
        """`check(kernel, t, key)` as a statement of its own, `check` a function of this module that is a check: it
        asserts, returns no value, and keeps nothing it computes (no store into an attribute, an item, a global or
        a container, no `yield`). Whatever it draws from the key is compared inside it and dies with the call, so
        one key handed to it for each setting of a sweep repeats numbers no computation sees twice (smolgp's
        covariance check over kernels). A callee that returns or keeps its draws, or the same setting run again,
        stays a reuse."""
        if not (isinstance(stmt, ast.Expr) and stmt.value is call):
            return False
        callee = self.model.callee_of(call, self.fn)
        if callee is None or isinstance(callee.node, (ast.Lambda, ast.AsyncFunctionDef)):
            return False
        asserts = False
        for n in self.model.walked(callee.node):
            if isinstance(n, (ast.Yield, ast.YieldFrom, ast.Global, ast.Nonlocal)):
                return False
            if isinstance(n, ast.Return) and n.value is not None:
                return False
            if isinstance(n, (ast.Attribute, ast.Subscript)) and isinstance(n.ctx, (ast.Store, ast.Del)):
                return False
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in _STORING_METHODS:
                return False
            if isinstance(n, ast.Assert) or (isinstance(n, ast.Call) and is_assertion(n.func)):
                asserts = True
        return asserts

    def _only_checked(self, first: ast.stmt) -> bool:
        return self._checked_names(first) is not None

    def _checked_names(self, first: ast.stmt) -> set[str] | None:
        """`x = uniform(key, ...)` whose values (and every name computed from them, `y = f(x)`) are read only by
        assertions (`assert`, `self.assertTrue(...)`, `np.testing.assert_allclose(...)`) or tests of an `if`/`while`:
        they never reach state, a return or another call's side effects (a test that checks one op on its data
        and then draws the same data under another name for the next op). The names, or None."""
        assert self.fn is not None
        if not (isinstance(first, (ast.Assign, ast.AnnAssign)) and first.value is not None):
            return None
        targets = first.targets if isinstance(first, ast.Assign) else [first.target]
        if not all(isinstance(n, (ast.Name, ast.Tuple, ast.List, ast.Starred)) for t in targets for n in walk_nodes(t)
                   if not isinstance(n, ast.expr_context)):
            return None  # stored into an attribute or a container: it outlives the function's names
        tainted = {n.id for t in targets for n in walk_nodes(t) if isinstance(n, ast.Name)}
        statements = [n for n in self.model.scopes.own_nodes(self.fn) if isinstance(n, ast.stmt) and n is not first]
        changed = True
        while changed:
            changed = False
            for st in statements:
                reads = _direct_reads(st)
                if not reads & tainted:
                    continue
                if isinstance(st, ast.Assert) or _checks_only(self.model, st, self.fn):
                    continue
                if isinstance(st, (ast.If, ast.While)):
                    continue  # only its test is read here (the body's statements are visited on their own)
                if isinstance(st, (ast.Assign, ast.AugAssign, ast.AnnAssign)) and st.value is not None:
                    names = _assigned_names(st)
                    if names is None:
                        return None
                    if not names <= tainted:
                        tainted |= names
                        changed = True
                    continue
                return None  # returned, yielded, handed to a call for its effects, stored: it may meet the second
        return tainted

    def _checked_apart(self, first: ast.stmt, second: ast.stmt) -> bool:
        """Two runs, each from a key the code makes from a literal seed right at the call (`key=jax.random.key(0)`
        twice), whose values (and everything computed from them) reach only assertions and tests of this scope (no
        function defined in it reads them), and never the same one: no computation sees both, so what they share repeats no number anything combines. (Meeting in
        one check, `assert a.ok and b.ok` or `a == b`, is judged by the other clauses.)"""
        if first is second or self.fn is None:
            return False
        a, b = self._checked_names(first), self._checked_names(second)
        if a is None or b is None or a & b:
            return False
        own = {id(n) for n in self.model.scopes.own_nodes(self.fn)}
        if any(isinstance(n, ast.Name) and n.id in a | b and id(n) not in own for n in self.model.walked(self.fn.node)):
            return False  # read by a function defined here (axlearn's `tokens_to_scores` closes over the logits)
        return not any(isinstance(st, ast.stmt) and (reads := _direct_reads(st)) & a and reads & b
                       for st in self.model.scopes.own_nodes(self.fn))

    def _shuffles_each(self, call: ast.Call, stmt: ast.stmt) -> bool:
        """`for arr in arrays: out.append(permutation(key, arr))`: the loop applies one permutation (or choice)
        to each array, which shuffles them together, as the comprehension form does (see `_selects_each`)."""
        loop = self.model.scopes.parents.get(stmt)
        if not isinstance(loop, (ast.For, ast.AsyncFor)) or stmt not in loop.body:
            return False
        varying = {n.id for n in walk_nodes(loop.target) if isinstance(n, ast.Name)}
        for inner in loop.body:
            varying |= {n.id for n in walk_nodes(inner) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        return self._selects_each(call, varying)

    def _selects_each(self, call: ast.Call, varying: set[str]) -> bool:
        """`[permutation(key, a) for a in arrays]`: one permutation (or choice) applied to each array of a
        list, which shuffles them together (rows keep their labels), when only the array changes per element."""
        qualname = self.model.scopes.qualname(call.func, self.fn)
        if qualname not in _SELECTING:
            return False
        population = _population(call, qualname)
        if population is None:
            return False
        others = [a for a in [*call.args, *(k.value for k in call.keywords)] if a is not population]
        reads = {n.id for other in others for n in walk_nodes(other) if isinstance(n, ast.Name)}
        return bool({n.id for n in walk_nodes(population) if isinstance(n, ast.Name)} & varying) and not reads & varying

    def _paired(self, first: KeyUse, call: ast.Call) -> bool:
        """The same random transformation applied to a second array that was not computed from the first
        result (see `_paired_selection`)."""
        array = _paired_selection(self.model, first.call, call, self.fn)
        if array is None:
            return False
        if any(n is first.call for n in walk_nodes(array)):
            return False  # dropout(key, dropout(key, x)): applied to its own result
        derived = set(_stored(first.statement)) if first.statement is not None else set()
        own = sorted((n for n in self.model.scopes.own_nodes(self.fn) if isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign))
                      and first.call.lineno < n.lineno < call.lineno), key=lambda n: n.lineno)
        for assign in own:  # what is computed from the first result between the two calls
            if assign.value is not None and {n.id for n in walk_nodes(assign.value) if isinstance(n, ast.Name)} & derived:
                derived |= _stored(assign)
        return not {n.id for n in walk_nodes(array) if isinstance(n, ast.Name)} & derived

    def _varies_per_iteration(self, call: ast.Call, key: ast.AST, stmt: ast.stmt) -> bool:
        """Whether each iteration of the loop around a call is another setting: the call reads, besides the key,
        a name the loop binds (its target or a name assigned in its body), or the body reads the loop's target
        (`for base in (RBF, Matern32): ... base(...)`). `for _ in range(n)` repeats one iteration."""
        loop = self.model.scopes.parents.get(stmt)
        while isinstance(loop, (ast.With, ast.AsyncWith)):
            loop = self.model.scopes.parents.get(loop)
        if not isinstance(loop, (ast.For, ast.AsyncFor, ast.While)):
            return False
        bound = {n.id for n in walk_nodes(loop.target) if isinstance(n, ast.Name)} if isinstance(
            loop, (ast.For, ast.AsyncFor)) else set()
        for inner in loop.body:
            for n in walk_nodes(inner):
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                    bound.add(n.id)
        key_names = {n.id for n in walk_nodes(key) if isinstance(n, ast.Name)}
        reads = {n.id for n in walk_nodes(call) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
        if (reads - key_names) & bound:
            return True
        if not isinstance(loop, (ast.For, ast.AsyncFor)):
            return False
        targets = {n.id for n in walk_nodes(loop.target) if isinstance(n, ast.Name)}
        return any(isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id in targets
                   for inner in loop.body for n in walk_nodes(inner))

    def _comprehension_names(self, comprehension: ast.AST) -> set[str]:
        """Names bound by this comprehension and the comprehensions around it."""
        names: set[str] = set()
        cur: ast.AST | None = comprehension
        while cur is not None and not isinstance(cur, ast.stmt):
            if isinstance(cur, _COMPREHENSIONS):
                names |= _bound_by(cur)
            cur = self.model.scopes.parents.get(cur)
        return names

    def _sides_of_one_assertion(self, a: ast.Call, b: ast.Call) -> bool:
        """`a` and `b` on the two sides of one check: the arguments of an assertion call (`assert_allclose(f(key),
        g(key))`), or, in an `assert` statement, of a comparison (`assert float(f(key)[0]) == float(g(key)[0])`) or
        of a comparing call (`assert jnp.array_equal(f(key), f(key))`)."""
        parents = self.model.scopes.parents
        chain_a: list[ast.AST] = [a]
        while not isinstance(chain_a[-1], ast.stmt) and chain_a[-1] in parents:
            chain_a.append(parents[chain_a[-1]])
        in_assert = isinstance(chain_a[-1], ast.Assert)
        cur: ast.AST = b
        while not isinstance(cur, ast.stmt) and cur in parents:
            parent = parents[cur]
            if parent in chain_a:
                side_a = chain_a[chain_a.index(parent) - 1]
                if isinstance(parent, ast.Call) and (
                        is_assertion(parent.func) or _tree_assertion(self.model, parent, self.fn)
                        or (in_assert and _COMPARING.search(called_name(parent.func).rsplit(".", 1)[-1]))):
                    return side_a is not cur and side_a in parent.args and cur in parent.args
                if in_assert and isinstance(parent, ast.Compare) and len(parent.ops) == 1:
                    return {id(side_a), id(cur)} == {id(parent.left), id(parent.comparators[0])}
                return False
            cur = parent
        return False

    def _compared(self, first: KeyUse, stmt: ast.stmt | None, second: ast.Call) -> bool:
        """The two uses' results end up side by side in an assertion (`assert_allclose(actual, expected)`): a
        test reproducing a draw on purpose, not two draws meant to differ."""
        if stmt is None or first.statement is None:
            return False
        if self._mixed_with_first(first, second, stmt):
            return False  # noisy = clean + normal(key): the draws meet before any check; the check hides nothing
        if stmt is first.statement:  # assert_allclose(f(key), g(key)): the two calls on the two sides
            return self._sides_of_one_assertion(first.call, second)
        checks = self._assertion_pairs()
        if first.label.startswith("seed "):
            checks = checks + self._equality_pairs()
        if not checks:
            return False  # nothing in the scope compares two values
        flows = [_stored(first.statement), _stored(stmt)]
        checked_here = not flows[1] and (isinstance(stmt, ast.Assert) or _checks_only(self.model, stmt, self.fn))
        if checked_here:  # assertTrue(array_equal(key_1, fold_in(root_key, 0))): the second draw is checked as made
            flows[1] = {_SECOND}
        if not all(flows):
            return False
        differences: set[str] = set()  # names computed from `first - second` (actual minus the reproduced draw)
        same_call = ast.dump(first.call) == ast.dump(second)  # the same draw written twice: the same value twice
        # Names computed from either result carry it: the assignments after the first use, in order, each reading
        # the names carrying a result (or a difference) at that point. Only an assignment that reads such a name
        # can change anything, so only those are visited (through the scope's index of who reads what): the work
        # follows the names the two results reach, not the whole rest of the scope for every reuse.
        assigns, lines, readers = self._assignments()
        waiting: list[int] = []
        queued: set[int] = set()

        def wake(names: set[str], after: int) -> None:
            for name in names:
                found = readers.get(name)
                if found is not None:
                    for j in found[bisect.bisect_right(found, after):]:
                        if j not in queued:
                            queued.add(j)
                            heapq.heappush(waiting, j)

        def carry(names: set[str], new: set[str], at: int) -> None:
            wake(new - names, at)
            names.update(new)

        wake(flows[0] | flows[1], bisect.bisect_right(lines, first.statement.lineno) - 1)
        while waiting:
            at = heapq.heappop(waiting)
            assign = assigns[at]
            if (isinstance(assign, ast.For) and isinstance(assign.target, ast.Tuple) and isinstance(assign.iter, ast.Call)
                    and isinstance(assign.iter.func, ast.Name) and assign.iter.func.id == "zip"
                    and len(assign.iter.args) == len(assign.target.elts)):
                for target, source in zip(assign.target.elts, assign.iter.args, strict=True):  # element by element
                    reads = {n.id for n in walk_nodes(source) if isinstance(n, ast.Name)}
                    for names in flows:
                        if reads & names:
                            carry(names, {n.id for n in walk_nodes(target) if isinstance(n, ast.Name)}, at)
                continue
            value = assign.iter if isinstance(assign, ast.For) else assign.value  # type: ignore[attr-defined]
            reads = {n.id for n in walk_nodes(value) if isinstance(n, ast.Name)} if value is not None else set()
            if value is not None and (reads & differences or any(
                    isinstance(n, ast.BinOp) and isinstance(n.op, (ast.Sub, ast.Div)) and _separates([n.left, n.right], flows)
                    for n in walk_nodes(value))):
                carry(differences, _flows_into(assign), at)  # type: ignore[arg-type]
            for names in flows:
                if reads & names:
                    carry(names, _flows_into(assign), at)  # type: ignore[arg-type]
        for node, pairs in checks:
            for pair in pairs:
                if _about_shapes(node, pair):
                    continue  # equal shapes say nothing about equal numbers
                if len(pair) == 2 and _separates(pair, flows, same_call, second if checked_here else None):
                    return True  # actual on one side, expected on the other
                if differences and any(isinstance(n, ast.Name) and n.id in differences
                                       for side in pair for n in walk_nodes(side)):
                    return True  # the reproduced draw subtracted from the result, then checked
        return False

    def _shapes_only(self, value: ast.AST, depth: int = 0) -> bool:
        """A call's result (or a read of a name holding it) reaches nothing but shapes and dtypes: `.shape`,
        `.dtype`, `.ndim`, `.size`, `.nbytes`, `jax.eval_shape`, `jnp.zeros_like` and its kin, an ahead-of-time
        `.lower(...)`, `in` (a container's keys), directly, through subscripts, container displays and
        `tree_map(lambda x: x[None], ...)`, or through names bound once to it. Whatever it drew, no number
        of it is read. A model's `init(key, x)` is no such use: a layer with cache variables stores its inputs'
        values in them (maxtext's PagedAttentionOp), and a data-dependent initialiser reads them."""
        if depth > 3:
            return False
        if depth == 0 and isinstance(value, ast.Call) and self._rebound_unread(value):
            return True
        parents = self.model.scopes.parents
        if depth == 0 and isinstance(value, ast.Call) and (
                self.model.scopes.qualname(value.func, self.fn) or "") in _EQUINOX_WEIGHT_LAYERS:
            handed = self._reinitialised_later(value)
            if handed is not None and self._reinitialised(handed):
                return True  # _init_linear(eqx.nn.Linear(..., key=k), k): the constructor's draws are replaced
        node: ast.AST = value
        parent = parents.get(node)
        while True:  # through what keeps the values as they are (and so their shapes' meaning)
            subscript = isinstance(parent, ast.Subscript) and parent.value is node
            mapped = (isinstance(parent, ast.Call) and len(parent.args) >= 2 and node in parent.args[1:]
                      and isinstance(parent.args[0], ast.Lambda)
                      and (self.model.scopes.qualname(parent.func, self.fn) or "") in _TREE_MAPS)
            # put into a container display as it is (`example = {"obs": normal(key, s)}`, round 37's templates)
            held = isinstance(parent, (ast.List, ast.Tuple, ast.Starred)) or (
                isinstance(parent, ast.Dict) and any(v is node for v in parent.values))
            if not (subscript or mapped or held):
                break
            node, parent = parent, parents.get(parent)  # type: ignore[assignment, arg-type]
        if isinstance(parent, ast.Attribute) and parent.value is node:
            return parent.attr in ("shape", "dtype", "ndim", "size", "nbytes", "itemsize")
        if isinstance(parent, ast.Compare) and node is not parent.left and all(
                isinstance(op, (ast.In, ast.NotIn)) for op in parent.ops):
            return True  # `"obs" in template`: a key of the container
        if isinstance(parent, ast.Call) and node in parent.args:
            q = self.model.scopes.qualname(parent.func, self.fn) or ""
            last = q.rsplit(".", 1)[-1]
            return last.endswith("eval_shape") or (q.startswith("jax.numpy.") and last.endswith("_like")
                                                     and parent.args[0] is node  # full_like(x, fill) reads fill
                                                     ) or self.model.ahead_of_time(parent, self.fn)
        if isinstance(parent, ast.Assign) and parent.value is node and self._read_for_shapes_after(parent, depth):
            return True
        if not (isinstance(parent, ast.Assign) and parent.value is node and all(
                isinstance(t, ast.Name) for t in parent.targets)):
            return False
        if _overwritten_whole(parent, parents):
            return True
        names = {t.id for t in parent.targets if isinstance(t, ast.Name)}
        own = list(self.model.scopes.own_nodes(self.fn))
        stores = [n for n in own if isinstance(n, ast.Name) and n.id in names and not isinstance(n.ctx, ast.Load)]
        loads = [n for n in own if isinstance(n, ast.Name) and n.id in names and isinstance(n.ctx, ast.Load)]
        return len(stores) == len(names) and bool(loads) and all(self._shapes_only(n, depth + 1) for n in loads)

    def _separate_cases(self, a: ast.AST, b: ast.AST) -> bool:
        """Two uses in different rows of parameter tables that only `pytest.mark.parametrize` reads (`CONFIGS = [(Model,
        normal(PRNGKey(0), s)), ...]`, or the table written in the decorator): pytest runs every row as a test of
        its own, so draws of two rows never meet in one computation. Two draws in one row (inputs and targets of
        one case) stay a reuse."""
        row_a, row_b = self._case_row(a), self._case_row(b)
        return row_a is not None and row_b is not None and row_a is not row_b

    def _case_row(self, node: ast.AST) -> ast.AST | None:
        """The row of a parametrize-only table that holds `node` (see `_separate_cases`), or None."""
        parents = self.model.scopes.parents
        child, parent = node, parents.get(node)
        while parent is not None and not isinstance(parent, ast.stmt):
            if isinstance(parent, (ast.List, ast.Tuple)) and child in parent.elts:
                above = parents.get(parent)
                if isinstance(above, ast.Call) and parent in above.args and self._parametrize(above):
                    return child
                if (isinstance(above, ast.Assign) and above.value is parent and len(above.targets) == 1
                        and isinstance(above.targets[0], ast.Name) and parents.get(above) is self.model.scopes.tree):
                    name = above.targets[0].id
                    reads = [n for n in walk_nodes(self.model.scopes.tree) if isinstance(n, ast.Name) and n.id == name]
                    stores = [n for n in reads if not isinstance(n.ctx, ast.Load)]
                    loads = [n for n in reads if isinstance(n.ctx, ast.Load)]
                    if len(stores) == 1 and loads and all(
                            isinstance(parents.get(n), ast.Call) and n in parents[n].args  # type: ignore[attr-defined]
                            and self._parametrize(parents[n]) for n in loads):  # type: ignore[arg-type]
                        return child
                    return None
            if isinstance(parent, (ast.Lambda, *_COMPREHENSIONS)):
                return None
            child, parent = parent, parents.get(parent)
        return None

    def _parametrize(self, call: ast.AST) -> bool:
        """`pytest.mark.parametrize(...)` used as a decorator."""
        if not isinstance(call, ast.Call):
            return False
        name = self.model.scopes.qualname(call.func, None) or called_name(call.func)
        decorated = self.model.scopes.parents.get(call)
        return name.endswith("mark.parametrize") and isinstance(decorated, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                                             ast.ClassDef)) and call in decorated.decorator_list

    def _inverts(self, first: KeyUse, call: ast.Call) -> bool:
        """`y, s = rotation(x, key)` then `inverse_rotation(f(y), key, s)`: the second call is the declared inverse
        of the first (`inverse_f`, `f_inverse`, `inv_f`, `f_inv`) and is handed what the first returned (or a
        value computed from it in the same statement). Undoing a random transformation (random signs, a random
        permutation, a random rotation) needs the very randomness that made it: the same key is the point, and
        another key would be the bug. A function applied again to its own result (`dropout(key, dropout(key,
        x))`) or any other pair stays a reuse."""
        a, b = called_name(first.call.func).rsplit(".", 1)[-1], called_name(call.func).rsplit(".", 1)[-1]
        if not a or not b or b not in (f"inverse_{a}", f"{a}_inverse", f"inv_{a}", f"{a}_inv"):
            return False
        if first.statement is None:
            return False
        produced = {name for name in _stored(first.statement) if name.isidentifier()} - {
            n.id for n in walk_nodes(first.node) if isinstance(n, ast.Name)}
        arguments = [*call.args, *(k.value for k in call.keywords)]
        return any(isinstance(n, ast.Name) and n.id in produced for arg in arguments for n in walk_nodes(arg)) or any(
            n is first.call for arg in arguments for n in walk_nodes(arg))

    def _sample_inputs_pair(self, a: ast.Call, b: ast.Call) -> bool:
        """Two uses of one key of which one is a draw whose values reach only the sample inputs of flax linen
        inits (`model.init(rng, uniform(rng, (1, 3)))`) and the other is one of those inits, or another such draw
        (`init(rng, uniform(rng, s), uniform(rng, a))`). A linen `init` reads its sample inputs' shapes and dtypes
        to build the parameters (their initialisers get a key and a shape, never the input; `BatchNorm` keeps
        its statistics as they were while initialising), so a number drawn for a sample input that nothing else
        reads meets no number drawn for the parameters. The input kept and later fed to `apply` with those
        parameters stays a reuse (test data correlated with the weights), and so does a draw whose values an
        init stores in cache variables and a later use of the same key meets (paged_attention_test.py:578): only
        the pair inside the init is let go."""
        inits_a, inits_b = self._init_sample_only(a), self._init_sample_only(b)
        if inits_a is not None and inits_b is not None:
            return True
        return (inits_a is not None and any(i is b for i in inits_a)) or (
            inits_b is not None and any(i is a for i in inits_b))

    def _init_sample_only(self, call: ast.Call) -> list[ast.Call] | None:
        """The linen inits whose sample inputs are the only places a draw's values reach (directly, or through a
        local name bound once and read only there or for shapes), or None when the call is no such draw."""
        if self.fn is None or isinstance(self.fn.node, ast.Lambda) or self.model.random_key_arg(
                call, self.fn)[1] != "draw":
            return None
        parents = self.model.scopes.parents
        init = self._sample_input_of(call)
        if init is not None:
            return [init]
        stmt = parents.get(call)
        if not (isinstance(stmt, ast.Assign) and stmt.value is call and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], ast.Name)):
            return None
        name = stmt.targets[0].id
        if name not in self.fn.local_names or name in self.fn.outer_names:
            return None
        own = {id(n) for n in self.model.scopes.own_nodes(self.fn)}
        mentions = [n for n in self.model.walked(self.fn.node) if isinstance(n, ast.Name) and n.id == name]
        if any(id(n) not in own for n in mentions):
            return None  # a function defined here reads it
        if sum(1 for n in mentions if not isinstance(n.ctx, ast.Load)) != 1:
            return None
        inits: list[ast.Call] = []
        for n in mentions:
            if not isinstance(n.ctx, ast.Load):
                continue
            init = self._sample_input_of(n)
            if init is not None:
                inits.append(init)
            elif not self._shapes_only(n, 1):
                return None
        return inits or None

    def _sample_input_of(self, value: ast.AST) -> ast.Call | None:
        """The flax linen `init(key, *inputs)` (not `init_with_output`: its output reads the inputs' values) that
        takes `value` as one of its sample inputs, or None."""
        init = self.model.scopes.parents.get(value)
        if not (isinstance(init, ast.Call) and isinstance(init.func, ast.Attribute) and init.func.attr == "init"):
            return None
        if any(a is value for a in init.args) or any(k.value is value and k.arg not in ("rngs", "method", "mutable")
                                         for k in init.keywords):
            key = self.model.linen_init_key(init, self.fn)
            return init if key is not None and key is not value else None
        return None

    def _only_refused(self, call: ast.Call) -> bool:
        """The first use's result, bound to names bound once, is read only by calls the test expects to raise
        (`model = Model(key=key)` then `with pytest.raises(ValueError): model(ids, key=None)`): nothing computed
        from it is ever kept, so a later draw from the key meets none of its numbers. Asked of the first use only:
        a later draw handed to a check that raises on values (`with pytest.raises(ValueError):
        loss(invalid_probs, targets)` after `targets` came from the key) is read by that check."""
        parent = self.model.scopes.parents.get(call)
        if not (isinstance(parent, ast.Assign) and parent.value is call) or self.fn is None:
            return False
        # `mlp, params = init_mlp(key, ...)`: a tuple of names unpacks the result; each name is one of its parts
        targets = [e for t in parent.targets for e in (t.elts if isinstance(t, (ast.Tuple, ast.List)) else [t])]
        if not all(isinstance(t, ast.Name) for t in targets):
            return False
        names = {t.id for t in targets if isinstance(t, ast.Name)}
        if len(names) != len(targets):
            return False
        own = list(self.model.scopes.own_nodes(self.fn))
        stores = [n for n in own if isinstance(n, ast.Name) and n.id in names and not isinstance(n.ctx, ast.Load)]
        loads = [n for n in own if isinstance(n, ast.Name) and n.id in names and isinstance(n.ctx, ast.Load)]
        return len(stores) == len(names) and bool(loads) and all(self._handed_to_raising_call(n) for n in loads)

    def _handed_to_raising_call(self, name: ast.AST) -> bool:
        """A read of a name as an argument, or as the function, of a call in a statement the test expects to raise
        and that keeps nothing (`with pytest.raises(ValueError): metric(x=inputs, target=targets)`): the call
        raises, no result comes back, so what the name holds reaches nothing anybody reads (neojax's tests draw
        inputs and targets from one key only to check that a metric refuses them). Not for an assertion expected to
        fail (`pytest.raises(AssertionError)`, a callee named `assert...`): there the values decide the raise."""
        parents = self.model.scopes.parents
        read: ast.AST = name
        parent = parents.get(name)
        # `mlp.apply(...)`: the name is the receiver of the method called; `mlp.apply({"params": params}, x)`: the
        # name is inside a literal container handed to the call, which builds nothing that outlives the raise
        method_call = parents.get(parent) if isinstance(parent, ast.Attribute) and parent.value is read else None
        if isinstance(method_call, ast.Call) and method_call.func is parent:
            read, parent = parent, method_call
        while (isinstance(parent, ast.Dict) and any(v is read for v in parent.values)) or (
                isinstance(parent, (ast.List, ast.Tuple)) and any(e is read for e in parent.elts)):
            read, parent = parent, parents.get(parent)
        if isinstance(parent, ast.keyword):
            parent = parents.get(parent)
        if not (isinstance(name, ast.Name) and isinstance(parent, ast.Call) and (
                parent.func is read or read in parent.args or any(k.value is read for k in parent.keywords))):
            return False
        if "assert" in called_name(parent.func).lower():
            return False  # `with pytest.raises(AssertionError): assert_allclose(a, b)`: the values decide the raise
        stmt: ast.AST | None = parents.get(parent)
        while stmt is not None and not isinstance(stmt, ast.stmt):
            stmt = parents.get(stmt)
        if not (isinstance(stmt, ast.Expr) and self._thrown_away(parent, stmt)):
            return False
        block = parents.get(stmt)
        while block is not None and not isinstance(block, (ast.With, ast.FunctionDef, ast.AsyncFunctionDef)):
            block = parents.get(block)
        return not (isinstance(block, ast.With) and any("AssertionError" in ast.dump(i) for i in block.items))

    def _rebound_unread(self, call: ast.Call) -> bool:
        """`x = f(draw(...))` in a function, and the next statement of its block that mentions `x` binds it
        again without reading it (`x = g(...)`): whatever was drawn is dead before anybody reads it (jaxsnn's test
        draws spike times, splits that key, and draws the times again from a piece). Not across a `break` or
        `continue` (the loop may end with the draw in `x`), in a `try` body (a handler may read it), with a nested
        function that reads `x`, for a name of the module or a class (any call may read those), or when the draw
        passes through a call other than JAX's and NumPy's array functions (which keep nothing they are handed)."""
        scopes = self.model.scopes
        fn = self.fn
        if fn is None or isinstance(fn.node, ast.Lambda):
            return False
        stmt = scopes.parents.get(call)
        while stmt is not None and not isinstance(stmt, ast.stmt):
            if isinstance(stmt, (ast.Lambda, ast.GeneratorExp, ast.ListComp, ast.SetComp, ast.DictComp)):
                return False  # drawn later, or per element, not when the statement runs
            if isinstance(stmt, ast.Call) and not (
                    (scopes.qualname(stmt.func, fn) or "").startswith(("jax.", "numpy."))
                    or (isinstance(stmt.func, ast.Attribute) and stmt.func.attr in _ARRAY_METHODS)):
                return False  # `env.step(normal(key))` may keep what it is handed; `jnp.sort(...)` keeps nothing
            stmt = scopes.parents.get(stmt)
        if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)):
            return False
        name = stmt.targets[0].id
        if name not in fn.local_names or name in fn.outer_names:
            return False
        holder = scopes.parents.get(stmt)
        if isinstance(holder, (ast.Try, ast.TryStar)) and stmt in holder.body:
            return False
        block = next((getattr(holder, f) for f in ("body", "orelse", "finalbody")
                      if isinstance(getattr(holder, f, None), list) and stmt in getattr(holder, f)), None)
        if block is None:
            return False
        for inner in self.model.walked(fn.node):
            if inner is not fn.node and isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) and any(
                    isinstance(n, ast.Name) and n.id == name for n in walk_nodes(inner)):
                return False  # a closure over `x` may read it between the two bindings
        for later in block[block.index(stmt) + 1:]:
            mentions = [n for n in walk_nodes(later) if isinstance(n, ast.Name) and n.id == name]
            if not mentions:
                if any(isinstance(n, (ast.Break, ast.Continue, ast.Global, ast.Nonlocal)) for n in walk_nodes(later)):
                    return False
                continue
            if not isinstance(later, ast.Assign) or any(
                    isinstance(n, ast.Name) and n.id == name for n in walk_nodes(later.value)):
                return False
            bound = [t for target in later.targets
                     for t in (target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target])]
            return all(isinstance(m.ctx, ast.Store) and any(m is t for t in bound) for m in mentions)
        return False

    def _read_for_shapes_after(self, stmt: ast.Assign, depth: int) -> bool:
        """`samples, log_probs = d.sample_and_log_prob(key, ...)` as a statement of the function's own body (no
        loop around it): every read of each bound name, in the statements after it up to the one that binds the
        name again, is a read of its shape (`assert samples.shape == ...`)."""
        if self.fn is None or isinstance(self.fn.node, ast.Lambda) or len(stmt.targets) != 1:
            return False
        body = self.fn.node.body
        if not any(st is stmt for st in body):
            return False
        target = stmt.targets[0]
        elements = target.elts if isinstance(target, ast.Tuple) else [target]
        if not all(isinstance(e, ast.Name) for e in elements):
            return False
        at = next(i for i, st in enumerate(body) if st is stmt)
        for element in elements:
            name = element.id  # type: ignore[attr-defined]
            read = False
            for later in body[at + 1:]:
                mentions = [n for n in walk_nodes(later) if isinstance(n, ast.Name) and n.id == name]
                read = read or any(isinstance(n.ctx, ast.Load) for n in mentions)
                if any(isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.Global, ast.Nonlocal))
                       for n in walk_nodes(later)) and mentions:
                    return False
                if any(isinstance(n.ctx, ast.Load) and not self._shapes_only(n, depth + 1) for n in mentions):
                    return False
                if isinstance(later, ast.Assign) and any(
                        n is t or (isinstance(t, ast.Tuple) and any(n is e for e in t.elts))
                        for n in mentions for t in later.targets):
                    break  # bound again on every path: later reads see another value
            if not read:
                return False  # never read at all: not a shapes-only read (an unread draw still repeats the key)
        return True

    def _mixed_with_first(self, first: KeyUse, second: ast.Call, stmt: ast.stmt) -> bool:
        """The second draw is combined with the first result by arithmetic in its own statement (`noisy = clean
        + 0.01 * normal(key)`, the noise drawn from the signal's key): the two draws meet before any comparison,
        so an assertion on the result is no reproduction of a draw. A difference (`y - normal(key)`: the
        reproduced noise taken out again) is not counted."""
        if first.statement is None:
            return False
        first_names = {n for n in _stored(first.statement) if n.isidentifier()}
        if not first_names:
            return False
        child: ast.AST = second
        parent = self.model.scopes.parents.get(second)
        while parent is not None and parent is not stmt and not isinstance(parent, ast.stmt):
            if isinstance(parent, ast.BinOp) and not isinstance(parent.op, ast.Sub):
                other = parent.right if child is parent.left else parent.left
                if any(isinstance(n, ast.Name) and n.id in first_names for n in walk_nodes(other)):
                    return True
            child, parent = parent, self.model.scopes.parents.get(parent)
        return False

    def _assertion_pairs(self) -> list[tuple[ast.AST, list[list[ast.expr]]]]:
        """The scope's assertions with the pairs of values each compares, in scope order; found once per scope
        (asked for every reuse, a walk per reuse made the key flow quadratic in the length of a function)."""
        if self._checks is None:
            checks: list[tuple[ast.AST, list[list[ast.expr]]]] = []
            asserted = {n.id for a in self.model.scopes.own_nodes(self.fn) if isinstance(a, ast.Assert)
                        for n in walk_nodes(a.test) if isinstance(n, ast.Name)}
            for node in self.model.scopes.own_nodes(self.fn):
                if (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and len(node.value.args) >= 2
                        and _COMPARING.search(called_name(node.value.func).rsplit(".", 1)[-1])
                        and any(isinstance(t, ast.Name) and t.id in asserted for t in node.targets)):
                    # `diff = tree_compare(model1, model2)` then `assert not diff.has_changes`: a comparison of two
                    # values whose verdict an assertion reads
                    checks.append((node, [node.value.args[:2]]))
                    continue
                if isinstance(node, ast.Call) and is_assertion(node.func):
                    pairs = [node.args[:2]]
                    if _truth_assertion(node.func) and node.args:  # assertTrue(jnp.array_equal(a, b))
                        pairs += _compared_sides(node.args[0])
                elif isinstance(node, ast.Call) and _tree_assertion(self.model, node, self.fn):
                    pairs = [node.args[1:3]]  # jax.tree.map(assert_allclose, actual, expected)
                elif isinstance(node, ast.Assert):
                    # inside `assert ...`: a comparison, a difference or a comparing call (`jnp.allclose(a, b)`)
                    pairs = _compared_sides(node.test)
                else:
                    continue
                checks.append((node, pairs))
            self._checks = checks
        return self._checks

    def _equality_pairs(self) -> list[tuple[ast.AST, list[list[ast.expr]]]]:
        """`if jnp.all(a == b):`, `print("same:", jnp.array_equal(a, b))`: the scope asks whether two values are
        equal. Asked only for a key rebuilt from its seed: rebuilding it and then checking the results for
        equality is a reproduction (a demonstration that the draws repeat), not two draws meant to differ."""
        if self._equalities is None:
            self._equalities = [
                (node, [p for p in _compared_sides(node.test if isinstance(node, ast.If) else node) if len(p) == 2])
                for node in self.model.scopes.own_nodes(self.fn)
                if isinstance(node, (ast.If, ast.Call)) and _equality_check(node)]
        return self._equalities

    def _assignments(self) -> tuple[list[ast.AST], list[int], dict[str, list[int]]]:
        """The scope's assignments and `for` statements by line (stably), their lines, and for each name the
        positions of those that read it (in the value, the iterable, or a `zip` argument); found once per scope."""
        if self._assigns is None:
            assigns: list[ast.AST] = sorted((n for n in self.model.scopes.own_nodes(self.fn)
                                             if isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For))
                                             or _appends(n) is not None),
                                            key=lambda n: n.lineno)  # type: ignore[attr-defined]
            readers: dict[str, list[int]] = {}
            for at, assign in enumerate(assigns):
                value = assign.iter if isinstance(assign, ast.For) else assign.value  # type: ignore[attr-defined]
                if value is not None:
                    for name in {n.id for n in walk_nodes(value) if isinstance(n, ast.Name)}:
                        readers.setdefault(name, []).append(at)
            self._assigns = (assigns, [n.lineno for n in assigns], readers)  # type: ignore[attr-defined]
        return self._assigns

    def add(self, reuse: KeyReuse) -> None:
        """One finding per reusing call: `init(key, obs, key)` repeats one hazard, not two; every later use of a
        key is a finding at its own line (four draws from one key: three findings, each naming the first)."""
        call = self.model.scopes.parents.get(reuse.node)
        while call is not None and not isinstance(call, ast.Call):
            call = self.model.scopes.parents.get(call)
        token: tuple[object, ...] = (reuse.label, id(call) if call is not None else id(reuse.node))
        if token not in self.reported:
            self.reported.add(token)
            self.found.append(reuse)


_STREAM_CONSTANT = 1 << 16  # a `fold_in` index this large names a stream of its own


def _fold_past_split(model: KeyFlow, first: KeyUse, call: ast.Call, how: str) -> bool:
    """`split(key, n)` and `fold_in(key, n)` (the same `n`, or a literal at or past it): fold_in(k, i) equals
    split(k, n)[i] only for i < n, so index n is a key of its own (a common way to get one more key)."""
    if "derive" in (first.how, how) and first.how != how:
        # a stream constant (`fold_in(key, 0x4E4F4953)`, round 36's plasmax wrappers) is far past any count a
        # split takes or any index a draw's counter reaches: a key of its own whatever else uses `key`
        folded = first.call if first.how == "derive" else call
        data = next((kw.value for kw in folded.keywords if kw.arg == "data"),
                    folded.args[1] if len(folded.args) > 1 else None)
        least = _least_int(model, data) if data is not None else None
        if least is not None and least >= _STREAM_CONSTANT:
            return True
    if {first.how, how} != {"split", "derive"}:
        return False
    split_call, fold_call = (first.call, call) if how == "derive" else (call, first.call)
    q = model.scopes.qualname(split_call.func, model.scopes.enclosing_function(split_call))
    if q == "jax.random.split":
        count = next((kw.value for kw in split_call.keywords if kw.arg == "num"),
                     split_call.args[1] if len(split_call.args) > 1 else ast.Constant(2))
    elif how == "derive" and (callee_count := _callee_split_count(model, split_call, first.node)) is not None:
        count = ast.Constant(callee_count)
    elif how == "split" and isinstance(first.node, ast.Name) and (callee_count := _callee_split_count(
            model, split_call, next((a for a in split_call.args if isinstance(a, ast.Name) and a.id == first.node.id),
                                    None))) is not None:
        count = ast.Constant(callee_count)  # `fold_in(key, STREAM)` first, then a helper that splits `key` in two
    else:
        return False
    data = next((kw.value for kw in fold_call.keywords if kw.arg == "data"),
                fold_call.args[1] if len(fold_call.args) > 1 else None)
    if data is None:
        return False
    if ast.dump(count) == ast.dump(data):
        return True
    n, i = literal_int(count), _least_int(model, data)
    return n is not None and i is not None and i >= n


def _one_hot_apart(model: KeyFlow, first: ast.Call, second: ast.Call) -> bool:
    """Two draws each kept only times a test of one value against two different constants (alem-env's loot:
    `coal = randint(k, ...) * (ore == 0) * looting`, `iron = randint(k, ...) * (ore == 1) * looting`): where one
    is kept the other is zeroed, element by element, so the shared bits never show in two results. The value tested
    is not bound again between the two statements."""
    a, b = _one_hot_choice(model, first), _one_hot_choice(model, second)
    if a is None or b is None or a[0] != b[0] or a[1] == b[1]:
        return False
    shapes = [next((k.value for k in c.keywords if k.arg == "shape"), c.args[1] if len(c.args) > 1 else None)
              for c in (first, second)]
    if shapes[0] is None or shapes[1] is None or ast.dump(shapes[0]) != ast.dump(shapes[1]):
        return False  # (draws of one shape: element i of each comes from the same bits, and one test decides it)
    scope = model.scopes.enclosing_function(first)
    if model.scopes.enclosing_function(second) is not scope:
        return False
    lo, hi = sorted((first.lineno, second.lineno))
    tested = a[2]
    return not any(isinstance(n, ast.Name) and n.id in tested and not isinstance(n.ctx, ast.Load)
                   and lo <= n.lineno <= hi for n in model.scopes.own_nodes(scope))


def _one_hot_choice(model: KeyFlow, call: ast.Call) -> tuple[str, object, set[str]] | None:
    """`draw(...) * (s == c) * ...` bound to a name, the draw read nowhere else: (s as written, c, the names s
    reads)."""
    parents = model.scopes.parents
    node: ast.AST = call
    parent = parents.get(node)
    factors = []
    while isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.Mult):
        factors.append(parent.right if parent.left is node else parent.left)
        node, parent = parent, parents.get(parent)
    if not factors or not (isinstance(parent, (ast.Assign, ast.AnnAssign)) and parent.value is node):
        return None
    for factor in factors:
        if (isinstance(factor, ast.Compare) and len(factor.ops) == 1 and isinstance(factor.ops[0], ast.Eq)
                and isinstance(factor.comparators[0], ast.Constant)
                and all(isinstance(n, _PLAIN_VALUE) for n in walk_nodes(factor.left))):
            names = {n.id for n in walk_nodes(factor.left) if isinstance(n, ast.Name)}
            return ast.dump(factor.left), factor.comparators[0].value, names
    return None


def _callee_split_count(model: KeyFlow, call: ast.Call, key: ast.AST | None) -> int | None:
    """The number of keys a function of this module splits the key it is handed into, when splitting it is all
    it does with it (`def bases(key): k = jax.random.split(key, 3); ...`): `bases(key)` is that split."""
    scope = model.scopes.enclosing_function(call)
    fn = model.scopes.resolve_function(call.func, scope)
    if fn is None or isinstance(fn.node, ast.Lambda) or key is None or key not in call.args or call.keywords:
        return None
    position = call.args.index(key)  # type: ignore[arg-type]
    positional = [p.arg for p in [*fn.node.args.posonlyargs, *fn.node.args.args]]
    if any(isinstance(a, ast.Starred) for a in call.args) or position >= len(positional):
        return None
    param = positional[position]
    counts = set()
    for node in model.scopes.own_nodes(fn):
        if isinstance(node, ast.Name) and node.id == param:
            parent = model.scopes.parents.get(node)
            if not isinstance(node.ctx, ast.Load) or not (
                    isinstance(parent, ast.Call) and parent.args[:1] == [node]
                    and model.scopes.qualname(parent.func, fn) == "jax.random.split"):
                return None
            count = next((kw.value for kw in parent.keywords if kw.arg == "num"),
                         parent.args[1] if len(parent.args) > 1 else ast.Constant(2))
            counts.add(literal_int(count))
    if len(counts) != 1 or any(isinstance(n, ast.Name) and n.id == param for n in walk_nodes(fn.node)
                               if model.scopes.enclosing_function(n) is not fn):
        return None
    return counts.pop()


def _least_int(model: KeyFlow, data: ast.AST) -> int | None:
    """The least value an index can take: a literal (or a name bound once to one), or a literal plus a loop counter
    that starts at 0 (`for i, x in enumerate(...)`, `for i in range(n)`)."""
    found = literal_int(data)
    if found is None and isinstance(data, ast.Name):  # `NOISE_STREAM = 0x4E4F4953` (plasmax's stream constants)
        bound = model.traced.bound_once(data.id, model.scopes.enclosing_function(data))
        found = literal_int(bound) if bound is not None else None
    if found is not None or not (isinstance(data, ast.BinOp) and isinstance(data.op, ast.Add)):
        return found
    for base, counter in ((data.left, data.right), (data.right, data.left)):
        least = literal_int(base)
        if least is not None and isinstance(counter, ast.Name) and _counts_from_zero(model, counter):
            return least
    return None


def _counts_from_zero(model: KeyFlow, name: ast.Name) -> bool:
    """A name only a `for` loop around it binds, to `enumerate(...)`'s count or `range(n)` / `range(0, n)`."""
    scope = model.scopes.enclosing_function(name)
    stores = [n for n in model.scopes.own_nodes(scope) if isinstance(n, ast.Name) and n.id == name.id
              and not isinstance(n.ctx, ast.Load)]
    if len(stores) != 1:
        return False
    target = model.scopes.parents.get(stores[0])
    loop = model.scopes.parents.get(target) if isinstance(target, ast.Tuple) else target
    if not isinstance(loop, ast.For):
        return False
    it = loop.iter
    if not isinstance(it, ast.Call) or not isinstance(it.func, ast.Name):
        return False
    if it.func.id == "enumerate" and len(it.args) == 1 and not it.keywords:
        return isinstance(loop.target, ast.Tuple) and loop.target.elts[:1] == [stores[0]]
    if it.func.id == "range" and loop.target is stores[0]:
        return len(it.args) == 1 or (len(it.args) >= 2 and literal_int(it.args[0]) == 0)
    return False


def _split_element(model: KeyFlow, call: ast.Call) -> tuple[str, int] | None:
    """`split(key, n)[i]`: the count as written and the element taken (counted from the front when `n` is a
    literal), or None when the call is not a split whose one result is indexed by a literal."""
    if model.scopes.qualname(call.func, model.scopes.enclosing_function(call)) != "jax.random.split":
        return None
    parent = model.scopes.parents.get(call)
    if not isinstance(parent, ast.Subscript) or parent.value is not call:
        return None
    index = literal_int(parent.slice)
    count = next((kw.value for kw in call.keywords if kw.arg == "num"),
                 call.args[1] if len(call.args) > 1 else ast.Constant(2))
    n = literal_int(count)
    if index is None or (index < 0 and n is None):
        return None
    if n is not None and not -n <= index < n:
        return None
    return ast.dump(count), index % n if n is not None else index


def _distinct_split_elements(model: KeyFlow, first: KeyUse, call: ast.Call) -> bool:
    """`split(key)[1]` and later `split(key)[0]`: the same split computed again (its result is a function of
    the key), each time taking another element, so the two uses get distinct keys, as `k0, k1 = split(key)`."""
    if first.how != "split" or first.call is call:
        return False
    a, b = _split_element(model, first.call), _split_element(model, call)
    return a is not None and b is not None and a[0] == b[0] and a[1] != b[1]


_DUMMY = re.compile(r"_+$|_[A-Za-z0-9_]*[A-Za-z0-9]$|.*dummy|ignored_|unused_", re.IGNORECASE)


def _whole(index: ast.AST) -> bool:
    """An index that selects every element: `:`, `...`, or a tuple of those."""
    if isinstance(index, ast.Tuple):
        return bool(index.elts) and all(_whole(e) for e in index.elts)
    if isinstance(index, ast.Slice):
        return index.lower is None and index.upper is None and index.step is None
    return isinstance(index, ast.Constant) and index.value is Ellipsis


def _overwritten_whole(stmt: ast.Assign, parents: dict[ast.AST, ast.AST]) -> bool:
    """`x = draw(...)` whose next mention of `x` in the same block is `x = x.at[:].set(v)` (`[...]`, `[:, :]`),
    with `v` not reading `x`, or `x = serialization.from_bytes(x, data)` (a checkpoint restored into the tree `x`
    gives): every element is replaced before any is read (`.set` and the restore keep only the shape and dtype),
    so the drawn numbers are never used."""
    if len(stmt.targets) != 1 or not isinstance(stmt.targets[0], ast.Name):
        return False
    name = stmt.targets[0].id
    block = next((getattr(parents.get(stmt), f) for f in ("body", "orelse", "finalbody", "handlers")
                  if isinstance(getattr(parents.get(stmt), f, None), list) and stmt in getattr(parents.get(stmt), f)),
                 None)
    if block is None:
        return False
    for later in block[block.index(stmt) + 1:]:
        mentions = [n for n in walk_nodes(later) if isinstance(n, ast.Name) and n.id == name]
        if not mentions:
            if any(isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Global, ast.Nonlocal))
                   for n in walk_nodes(later)):
                return False
            continue
        value = later.value if isinstance(later, ast.Assign) else None
        if (isinstance(later, ast.Assign) and len(later.targets) == 1 and isinstance(later.targets[0], ast.Name)
                and later.targets[0].id == name and isinstance(value, ast.Call) and len(mentions) == 2):
            template = _restore_template(value)
            if isinstance(template, ast.Name) and template.id == name:
                return True  # params = from_bytes(params, data): the checkpoint's numbers replace every one drawn
        if not (isinstance(later, ast.Assign) and len(later.targets) == 1 and isinstance(later.targets[0], ast.Name)
                and later.targets[0].id == name and isinstance(value, ast.Call) and len(value.args) == 1
                and not value.keywords):
            return False
        func = value.func
        return (isinstance(func, ast.Attribute) and func.attr == "set" and isinstance(func.value, ast.Subscript)
                and _whole(func.value.slice) and isinstance(func.value.value, ast.Attribute)
                and func.value.value.attr == "at" and isinstance(func.value.value.value, ast.Name)
                and func.value.value.value.id == name and len(mentions) == 2
                and not any(isinstance(n, ast.Name) and n.id == name for n in walk_nodes(value.args[0])))
    return False


def _restore_template(call: ast.Call) -> ast.expr | None:
    """The argument a checkpoint restore reads only for its structure, the tree the restored numbers fill: flax's
    `serialization.from_bytes(target, data)` and `from_state_dict(target, state)`,
    `checkpoints.restore_checkpoint(ckpt_dir, target)`, orbax's `restore(path, item=...)` (or `target=`)."""
    last = called_name(call.func).rsplit(".", 1)[-1]
    named = next((k.value for k in call.keywords if k.arg in ("target", "item")), None)
    if last in ("from_bytes", "from_state_dict"):
        return call.args[0] if call.args else named
    if last == "restore_checkpoint":
        return call.args[1] if len(call.args) > 1 else named
    if last == "restore":
        return named
    return None


def _unused_results(stmt: ast.stmt | None, call: ast.Call) -> bool:
    """`dummy_out, dummy_state = step(params, key, ...)`, `_ = model.init(key)`: results bound only to names
    that say they are not used for their values (pylint's dummy-variable convention: `_`, `_x`, `dummy*`,
    `unused_*`, `ignored_*`); a run for shapes or structure, whose numbers nobody reads."""
    if not isinstance(stmt, ast.Assign) or stmt.value is not call:
        return False
    names = _stored(stmt)
    return bool(names) and all(_DUMMY.match(name) for name in names)


_SELECTING = {"jax.random.permutation": ("x", 1), "jax.random.choice": ("a", 1)}


def _population(call: ast.Call, qualname: str) -> ast.expr | None:
    """The array (or count) a `permutation`/`choice` call selects from."""
    keyword, position = _SELECTING[qualname]
    return next((k.value for k in call.keywords if k.arg == keyword),
                call.args[position] if len(call.args) > position else None)


def _paired_selection(model: KeyFlow, a: ast.Call, b: ast.Call, scope: FunctionInfo | None) -> ast.expr | None:
    """One key, one random transformation, applied to two arrays: `permutation(key, xs)` and
    `permutation(key, ys)` (data and labels shuffled together), `choice(key, x, (n,))` and `choice(key, y, (n,))`,
    `random_features(rng, x, rank)` and `random_features(rng, y, rank)` (a kernel's feature map must be the same
    for both sides), `crop(key, image)` and `crop(key, mask)`. The same call, every argument equal but the array
    it is applied to: the shared randomness is the point. Samplers without an array (`normal(key, shape)`) and
    two index draws from counts (`choice(key, n)`) are two draws. Returns the second call's array (the caller
    checks it is not computed from the first call's result: `dropout(key, h)` then `dropout(key, g(h))` is
    the same mask twice in a row), or None."""
    if ast.dump(a.func) != ast.dump(b.func):
        return None
    qualname = model.scopes.qualname(a.func, scope)
    if qualname is not None and qualname.startswith("jax.random.") and qualname not in _SELECTING:
        return None
    if len(a.args) != len(b.args) or sorted(k.arg or "" for k in a.keywords) != sorted(k.arg or "" for k in b.keywords):
        return None
    b_keywords = {k.arg: k.value for k in b.keywords}
    pairs = [*zip(a.args, b.args, strict=True), *((k.value, b_keywords[k.arg]) for k in a.keywords)]
    differing = [(x, y) for x, y in pairs if ast.dump(x) != ast.dump(y)]
    if len(differing) != 1:
        return None
    x, y = differing[0]
    if qualname in _SELECTING and _population(a, qualname) is not x:
        return None
    arrays = all(isinstance(p, (ast.Name, ast.Attribute, ast.Subscript)) and not (
        isinstance(p, ast.Name) and model.kinds.kind_at(p) in (Kind.PYTHON, Kind.KEY)) for p in (x, y))
    return y if arrays or (qualname in _SELECTING and _equal_length_displays(model, x, y, scope)) else None


# array constructors whose argument, a list or tuple display, is the array's data
_ARRAY_DISPLAYS = {"jax.numpy.array", "jax.numpy.asarray", "numpy.array", "numpy.asarray"}


def _equal_length_displays(model: KeyFlow, x: ast.expr, y: ast.expr, scope: FunctionInfo | None) -> bool:
    """`jnp.array([a, b, c])` and `jnp.array([d, e, f])`: two data arrays built in place from displays of one
    length (no starred item) by one constructor with the same keywords. `permutation(key, .)` (or `choice`) of
    each applies one permutation to both, as for two named arrays of one length (jaxlob's TWAP splits of an order); displays
    of two lengths give two related but different permutations, and a count (`permutation(key, 3)`) is an index
    draw, so neither is paired."""
    if not (isinstance(x, ast.Call) and isinstance(y, ast.Call) and len(x.args) == len(y.args) == 1
            and ast.dump(x.func) == ast.dump(y.func) and model.scopes.qualname(x.func, scope) in _ARRAY_DISPLAYS
            and [ast.dump(k) for k in x.keywords] == [ast.dump(k) for k in y.keywords]):
        return False
    dx, dy = x.args[0], y.args[0]
    return (isinstance(dx, (ast.List, ast.Tuple)) and isinstance(dy, (ast.List, ast.Tuple)) and len(dx.elts) > 1
            and len(dx.elts) == len(dy.elts)
            and not any(isinstance(e, ast.Starred) for e in [*dx.elts, *dy.elts]))


# calls that keep, element by element, one of their alternatives: `select(c, a, b)` is `a` or `b`, never both
_SELECTS = {"jax.lax.select": (1, 2), "jax.numpy.where": (1, 2), "jax.lax.select_n": None}


def _alternatives(model: KeyFlow, node: ast.AST) -> tuple[ast.expr, ...] | None:
    """The alternatives of a conditional expression or a selecting call (`lax.select(c, a, b)`,
    `jnp.where(c, a, b)`, `lax.select_n(i, *cases)`), or None when `node` is neither."""
    if isinstance(node, ast.IfExp):
        return (node.body, node.orelse)
    if not isinstance(node, ast.Call):
        return None
    q = model.scopes.qualname(node.func, model.scopes.enclosing_function(node))
    if q not in _SELECTS:
        return None
    positions = _SELECTS[q]
    cases = node.args[1:] if positions is None else tuple(node.args[i] for i in positions if i < len(node.args))
    return tuple(cases) if len(cases) >= 2 else None


def _exclusive(model: KeyFlow, a: ast.AST, b: ast.AST) -> bool:
    """Whether two nodes sit in different alternatives of one conditional expression or selecting call: only
    one of the two values is kept, so the two draws never meet."""
    path: dict[int, ast.AST] = {}
    child, cur = a, model.scopes.parents.get(a)
    while cur is not None and not isinstance(cur, ast.stmt):
        if _alternatives(model, cur) is not None:
            path[id(cur)] = child
        child, cur = cur, model.scopes.parents.get(cur)
    child, cur = b, model.scopes.parents.get(b)
    while cur is not None and not isinstance(cur, ast.stmt):
        if id(cur) in path:
            branch_a, branch_b = path[id(cur)], child
            cases = _alternatives(model, cur) or ()
            return branch_a is not branch_b and branch_a in cases and branch_b in cases
        child, cur = cur, model.scopes.parents.get(cur)
    return (_exclusive_paths(model, a, b) or _exclusive_masks(model, a, b) or _exclusive_selections(model, a, b)
            or _exclusive_fills(model, a, b))


# draws from one key that a mask keeps element by element: `x = normal(key, s)`, `y = uniform(key, s)`, then
# only `x * m1` and `y * m2` with `m1 = ~a & b`, `m2 = a & b`: each element keeps at most one of the draws
_NOT_DRAWS = {"jax.random.split", "jax.random.fold_in", "jax.random.clone", "jax.random.key_data",
              "jax.random.wrap_key_data", "jax.random.key_impl"}


def _mask_literals(model: KeyFlow, expr: ast.expr, fn: FunctionInfo) -> frozenset[tuple[str, bool]] | None:
    """The conjuncts of a boolean mask as (atom, polarity): `~a & b` -> {(a, False), (b, True)}, also through
    `jnp.logical_and` / `jnp.logical_not`; None for anything else than a conjunction of such literals."""
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.BitAnd):
        left, right = _mask_literals(model, expr.left, fn), _mask_literals(model, expr.right, fn)
        return None if left is None or right is None else left | right
    q = model.scopes.qualname(expr.func, fn) if isinstance(expr, ast.Call) else None
    if isinstance(expr, ast.Call) and q == "jax.numpy.logical_and" and len(expr.args) == 2 and not expr.keywords:
        left, right = _mask_literals(model, expr.args[0], fn), _mask_literals(model, expr.args[1], fn)
        return None if left is None or right is None else left | right
    negated: ast.expr | None = None
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, (ast.Invert, ast.Not)):
        negated = expr.operand
    elif isinstance(expr, ast.Call) and q == "jax.numpy.logical_not" and len(expr.args) == 1:
        negated = expr.args[0]
    if negated is not None:
        return frozenset({(ast.dump(negated), False)})
    if isinstance(expr, ast.Compare) and len(expr.ops) == 1 and type(expr.ops[0]) in _NEGATED_COMPARISONS:
        # `x != c` is never true where `x == c` is (also for NaN), `x >= c` never where `x < c` is: one atom, negated
        positive = ast.Compare(expr.left, [_NEGATED_COMPARISONS[type(expr.ops[0])]()], expr.comparators)
        return frozenset({(ast.dump(positive), False)})
    if isinstance(expr, (ast.Name, ast.Attribute, ast.Compare)):
        return frozenset({(ast.dump(expr), True)})
    return None


_NEGATED_COMPARISONS: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.NotEq: ast.Eq, ast.GtE: ast.Lt, ast.LtE: ast.Gt, ast.IsNot: ast.Is, ast.NotIn: ast.In}


def _draw_of(model: KeyFlow, key: ast.AST, any_callee: bool = False) -> tuple[ast.Call, FunctionInfo] | None:
    """The `jax.random` sampler call a key is handed to (first argument or `key=`) inside a function, with that
    function; None for anything else (a split, module-level code, and a call outside jax.random unless
    `any_callee`: a function of the program may draw from it too, `_sample_truncated_normal(key2, ...)`)."""
    call = model.scopes.parents.get(key)
    if not isinstance(call, ast.Call) or not (call.args[:1] == [key] or any(
            k.arg == "key" and k.value is key for k in call.keywords)):
        return None
    fn = model.scopes.enclosing_function(call)
    q = model.scopes.qualname(call.func, fn)
    if fn is None or q in _NOT_DRAWS or not (any_callee or (q is not None and q.startswith("jax.random."))):
        return None
    return call, fn


def _masked_draw(model: KeyFlow, key: ast.AST) -> tuple[ast.Call, frozenset[tuple[str, bool]], str] | None:
    """For a key handed to a sampler whose result is bound to one name (`x = normal(key, s) + low`) that is
    only ever read as `x * m`, with `m` bound once to a conjunction of literals: (the draw, m's literals, the
    dump of the draw's shape)."""
    parents = model.scopes.parents
    drawn = _draw_of(model, key)
    if drawn is None:
        return None
    call, fn = drawn
    shape = next((k.value for k in call.keywords if k.arg == "shape"), call.args[1] if len(call.args) > 1 else None)
    if shape is None:
        return None
    child: ast.AST = call
    cur = parents.get(call)
    while isinstance(cur, (ast.BinOp, ast.UnaryOp)) and not isinstance(
            getattr(cur, "op", None), (ast.BitAnd, ast.BitOr, ast.Invert, ast.Not)):
        child, cur = cur, parents.get(cur)
    if not (isinstance(cur, ast.Assign) and cur.value is child and len(cur.targets) == 1
            and isinstance(cur.targets[0], ast.Name)):
        return None
    name = cur.targets[0].id
    nodes = model.scopes.own_nodes(fn)
    binds: dict[str, list[ast.expr]] = {}
    for n in nodes:
        if isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            for t in n.targets if isinstance(n, ast.Assign) else [n.target]:
                for m in walk_nodes(t):
                    if isinstance(m, ast.Name) and n.value is not None:
                        binds.setdefault(m.id, []).append(n.value if isinstance(n, ast.Assign) else t)
    if len(binds.get(name, [])) != 1:
        return None
    masks: set[str] = set()
    for n in model.walked(fn.node):
        if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load):
            product = parents.get(n)
            if not (isinstance(product, ast.BinOp) and isinstance(product.op, ast.Mult)):
                return None
            other = product.right if product.left is n else product.left
            if not isinstance(other, ast.Name):
                return None
            masks.add(other.id)
    if len(masks) != 1:
        return None
    mask = masks.pop()
    bound = binds.get(mask, [])
    literals = _mask_literals(model, bound[0], fn) if len(bound) == 1 else None
    return None if not literals else (call, literals, ast.dump(shape))


def _exclusive_masks(model: KeyFlow, a: ast.AST, b: ast.AST) -> bool:
    """The second of two draws from one key shares no bits with any other: every draw from that key in the
    function is kept only under its mask, of one shape, and the second's mask contradicts each other's on some
    literal (`~a & b` against `a & b`), so where it is kept every other draw is zeroed."""
    first, second = _masked_draw(model, a), _masked_draw(model, b)
    if first is None or second is None or first[2] != second[2] or not isinstance(a, ast.Name):
        return False
    fn = model.scopes.enclosing_function(first[0])
    if fn is None or model.scopes.enclosing_function(second[0]) is not fn:
        return False
    for n in model.walked(fn.node):
        if isinstance(n, ast.Name) and n.id == a.id and isinstance(n.ctx, ast.Load):
            found = _masked_draw(model, n)
            if found is None or found[2] != first[2]:
                return False
            if found[0] is not second[0] and not any((atom, not sign) in found[1] for atom, sign in second[1]):
                return False
    return True


# how far `_kept_paths` follows one draw's values before it gives up (a function's values rarely take more steps)
_KEPT_PATHS_STEPS = 400
# one choice on a path: (the decision, the alternative taken). A decision is a selection's condition (its dump,
# when no name in it is bound twice, so two selections on one condition are one decision), a selection node
# otherwise, or a dict of alternatives with the index it is read at.
_Choice = tuple[str, str]


def _dict_read_at(model: KeyFlow, node: ast.Dict, stores: Counter[str],
                  loads: dict[str, list[ast.Name]]) -> ast.Subscript | None:
    """For a dict literal of alternatives: the one subscript that reads it (`{...}[init]`, or `d = {...}` with
    `d[self.init]` its only read), so one of its values is kept; None when it is read any other way."""
    parents = model.scopes.parents
    up = parents.get(node)
    if isinstance(up, ast.Subscript) and up.value is node:
        return up
    if not (isinstance(up, ast.Assign) and up.value is node and len(up.targets) == 1
            and isinstance(up.targets[0], ast.Name) and stores[up.targets[0].id] == 1):
        return None
    reads = loads.get(up.targets[0].id, [])
    if len(reads) != 1:
        return None
    read = parents.get(reads[0])
    return read if isinstance(read, ast.Subscript) and read.value is reads[0] and isinstance(read.ctx, ast.Load) \
        and not isinstance(read.slice, (ast.Constant, ast.Slice)) else None


def _kept_paths(model: KeyFlow, key: ast.AST) -> set[tuple[_Choice, ...]] | None:
    """For a key handed to a call that may draw from it: the choices each value derived from the draw passes on
    its way to where it ends (returned, kept on an object, or a name nobody reads), one tuple per way: an alternative of a selecting
    call or conditional expression (`jnp.where(c, a, b)`, nested too), or a value of a dict of alternatives read
    at one index. Values are followed through any expression and every read of the names they are bound to (a
    name bound twice: all its reads, which only adds ways). None when a value is used any other way (tested,
    printed, stored, passed to a statement that is not an assignment to a name), or the ways are too many."""
    parents = model.scopes.parents
    drawn = _draw_of(model, key, any_callee=True)
    if drawn is None:
        return None
    call, fn = drawn
    args = fn.node.args
    stores: Counter[str] = Counter(a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs,
                                                   *([args.vararg] if args.vararg else []),
                                                   *([args.kwarg] if args.kwarg else [])])
    loads: dict[str, list[ast.Name]] = {}
    for n in model.walked(fn.node):
        if isinstance(n, ast.Name):
            if isinstance(n.ctx, ast.Load):
                loads.setdefault(n.id, []).append(n)
            else:
                stores[n.id] += 1
    paths: set[tuple[_Choice, ...]] = set()
    seen: set[tuple[str, tuple[_Choice, ...]]] = set()
    work: list[tuple[ast.AST, tuple[_Choice, ...]]] = [(call, ())]
    steps = 0
    while work:
        child, path = work.pop()
        cur = parents.get(child)
        while True:
            steps += 1
            if steps > _KEPT_PATHS_STEPS or cur is None or isinstance(
                    cur, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.comprehension)):
                return None
            if isinstance(cur, ast.Return) or (isinstance(cur, ast.Assign) and cur.value is child and len(
                    cur.targets) == 1 and isinstance(cur.targets[0], (ast.Attribute, ast.Subscript))):
                paths.add(path)  # returned, or kept on an object (`self.weights = ...`): where these values end
                break
            if isinstance(cur, ast.stmt):
                if not (isinstance(cur, ast.Assign) and cur.value is child and len(cur.targets) == 1
                        and isinstance(cur.targets[0], ast.Name)):
                    return None
                name = cur.targets[0].id
                if (name, path) not in seen:
                    seen.add((name, path))
                    reads = loads.get(name, [])
                    work.extend((read, path) for read in reads)
                    if not reads:
                        paths.add(path)  # bound and never read: these values meet nothing further
                break
            cases = _alternatives(model, cur)
            if cases is not None:
                test = cur.test if isinstance(cur, ast.IfExp) else cur.args[0] if isinstance(cur, ast.Call) else None
                index = next((i for i, case in enumerate(cases) if case is child), None)
                if test is None:
                    return None
                if index is not None:  # a value in the condition is used, not kept: it goes on as any other
                    stable = not any(isinstance(n, ast.Name) and stores[n.id] > 1 for n in walk_nodes(test))
                    path = (*path, (ast.dump(test) if stable else f"select {id(cur)}", str(index)))
            elif isinstance(cur, ast.Dict) and any(v is child for v in cur.values):
                read = _dict_read_at(model, cur, stores, loads)
                if read is not None:
                    key_node = next(k for k, v in zip(cur.keys, cur.values, strict=True) if v is child)
                    path = (*path, (f"dict {id(cur)}", ast.dump(key_node) if key_node is not None else "**"))
                    child, cur = read, parents.get(read)
                    continue
            child, cur = cur, parents.get(cur)
    return paths or None


def _exclusive_selections(model: KeyFlow, a: ast.AST, b: ast.AST) -> bool:
    """Two draws from one key whose values never meet: every way the first's values go and every way the second's
    go part at one decision, taking different alternatives (`jnp.where(u < p_lo, left, jnp.where(u < p_flat, flat,
    right))` with `left`, `flat` and `right` drawn from one key; `{"random": normal(key), "he": normal(key) * s}`
    read at one index; `y = jnp.where(nu >= 1, pois_y, geo_y)` and `log_alpha = jnp.where(nu >= 1, la_pois,
    la_geo)` on one condition): wherever one draw's values are kept the other's are not."""
    if a is b:
        return False
    first, second = _kept_paths(model, a), _kept_paths(model, b)
    if first is None or second is None:
        return False
    for pa in first:
        taken = dict(pa)
        for pb in second:
            if not any(decision in taken and taken[decision] != alternative for decision, alternative in pb):
                return False
    return True


# a piecewise fill: `res = jnp.empty(shape)`, then `res = jnp.where(m_k, draw_k(key, shape), res)` for masks
# that exclude each other (`low != -inf & high != inf`, `low != -inf & high == inf`, ...): each element of `res`
# keeps the one draw of its own position, so draws of one key never meet there
_FILL_OPS = (ast.Add, ast.Sub, ast.Mult, ast.Div)
_FILLERS = {"jax.numpy.empty", "jax.numpy.zeros", "jax.numpy.ones", "jax.numpy.full"}
# samplers whose element i is made from the key's bits at position i alone (no split, no mixing of positions),
# with the position of their shape argument
_ELEMENTWISE_DRAWS = {**{f"jax.random.{name}": 1 for name in (
    "uniform", "normal", "exponential", "laplace", "logistic", "gumbel", "cauchy", "rademacher", "bits")},
    "jax.random.bernoulli": 2, "jax.random.truncated_normal": 3}


def _filled_draw(model: KeyFlow, key: ast.AST) -> tuple[ast.Call, frozenset[tuple[str, bool]], str, str] | None:
    """For a key handed to a sampler written inline (through `+ - * /` with names, attributes or constants, and
    a sign) as one alternative of `NAME = jnp.where(MASK, ..., NAME)`, a statement of its function's own body, with
    MASK a conjunction of literals (inline or a name bound once to one) whose names the function never assigns:
    (the draw, the literals under which its values are kept, the dump of its shape, NAME)."""
    parents = model.scopes.parents
    drawn = _draw_of(model, key)
    if drawn is None:
        return None
    call, fn = drawn
    at = _ELEMENTWISE_DRAWS.get(model.scopes.qualname(call.func, fn) or "")
    shape = next((k.value for k in call.keywords if k.arg == "shape"),
                 call.args[at] if at is not None and len(call.args) > at else None)
    if at is None or shape is None:
        return None
    child: ast.AST = call
    cur = parents.get(call)
    while (isinstance(cur, ast.BinOp) and isinstance(cur.op, _FILL_OPS)) or (
            isinstance(cur, ast.UnaryOp) and isinstance(cur.op, (ast.USub, ast.UAdd))):
        if isinstance(cur, ast.BinOp):
            other = cur.right if cur.left is child else cur.left
            if not all(isinstance(n, (ast.Name, ast.Attribute, ast.Constant, ast.UnaryOp, ast.unaryop, ast.Load))
                       for n in walk_nodes(other)):
                return None
        child, cur = cur, parents.get(cur)
    if not (isinstance(cur, ast.Call) and len(cur.args) == 3 and not cur.keywords
            and model.scopes.qualname(cur.func, fn) == "jax.numpy.where"):
        return None
    stmt = parents.get(cur)
    if not (isinstance(stmt, ast.Assign) and stmt.value is cur and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name) and stmt in getattr(fn.node, "body", ())):
        return None
    name = stmt.targets[0].id
    kept = child is cur.args[1]
    carried = cur.args[2] if kept else cur.args[1] if child is cur.args[2] else None
    if not (isinstance(carried, ast.Name) and carried.id == name):
        return None
    stored = Counter(ast.unparse(n) for n in model.scopes.own_nodes(fn)
                     if isinstance(n, (ast.Name, ast.Attribute, ast.Subscript)) and not isinstance(n.ctx, ast.Load))
    mask = cur.args[0]
    if isinstance(mask, ast.Name):
        bound = [n.value for n in model.scopes.own_nodes(fn) if isinstance(n, ast.Assign)
                 and any(isinstance(t, ast.Name) and t.id == mask.id for t in n.targets)]
        if len(bound) != 1 or stored[mask.id] != 1:
            return None
        mask = bound[0]
    if any(isinstance(n, (ast.Name, ast.Attribute)) and ast.unparse(n) in stored for n in walk_nodes(mask)):
        return None  # a name the masks test is assigned here: two masks may test two values
    if any(isinstance(atom, ast.Compare) and not all(isinstance(n, _PLAIN_VALUE) for n in walk_nodes(atom))
           for atom in _mask_atoms(model, mask, fn)):
        return None  # a mask built here (`arange(n)[:, None] < k`) may broadcast the draws over more elements
    literals = _mask_literals(model, mask, fn)
    if not literals or (not kept and len(literals) != 1):
        return None
    if not kept:
        literals = frozenset((atom, not sign) for atom, sign in literals)
    return call, literals, ast.dump(shape), name


_PLAIN_VALUE = (ast.Compare, ast.Name, ast.Attribute, ast.Constant, ast.UnaryOp, ast.cmpop, ast.unaryop,
                ast.expr_context)


def _mask_atoms(model: KeyFlow, expr: ast.expr, fn: FunctionInfo) -> list[ast.expr]:
    """The tested expressions of a conjunction of literals (`_mask_literals`), as nodes."""
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.BitAnd):
        return [*_mask_atoms(model, expr.left, fn), *_mask_atoms(model, expr.right, fn)]
    if isinstance(expr, ast.Call) and model.scopes.qualname(expr.func, fn) in (
            "jax.numpy.logical_and", "jax.numpy.logical_not"):
        return [atom for arg in expr.args for atom in _mask_atoms(model, arg, fn)]
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, (ast.Invert, ast.Not)):
        return _mask_atoms(model, expr.operand, fn)
    return [expr]


def _plain_fill(model: KeyFlow, fn: FunctionInfo, name: str, shape: str) -> bool:
    """NAME is made once by `jnp.empty(shape)` (zeros, ones, full) of the draws' shape, then only rebound by
    `NAME = jnp.where(m, x, NAME)` in the function's own body, and read only as the carried alternative of those
    or after the last of them: no partial fill is read, and no draw is broadcast over another's elements."""
    body = list(getattr(fn.node, "body", ()))
    made: ast.Assign | None = None
    chain: list[ast.Assign] = []
    for n in model.scopes.own_nodes(fn):
        if isinstance(n, (ast.Global, ast.Nonlocal)) and name in n.names:
            return False
        if isinstance(n, ast.Name) and n.id == name and not isinstance(n.ctx, ast.Load):
            stmt = model.scopes.parents.get(n)
            if not (isinstance(stmt, ast.Assign) and stmt.targets == [n] and stmt in body):
                return False
            value = stmt.value
            if isinstance(value, ast.Call) and model.scopes.qualname(value.func, fn) == "jax.numpy.where":
                chain.append(stmt)
            elif (made is None and isinstance(value, ast.Call) and value.args
                  and model.scopes.qualname(value.func, fn) in _FILLERS and ast.dump(value.args[0]) == shape):
                made = stmt
            else:
                return False
    if made is None or not chain or any(body.index(c) < body.index(made) for c in chain):
        return False
    carried = {id(arm) for c in chain if isinstance(c.value, ast.Call) and len(c.value.args) == 3
               for arm in c.value.args[1:] if isinstance(arm, ast.Name) and arm.id == name}
    end = max(getattr(c, "end_lineno", c.lineno) or c.lineno for c in chain)
    return all(id(n) in carried or n.lineno > end for n in model.scopes.own_nodes(fn)
               if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load))


def _exclusive_fills(model: KeyFlow, a: ast.AST, b: ast.AST) -> bool:
    """The second of two draws from one key shares no element with any other: every use of that key in the
    function is a draw of one shape written into one piecewise fill (`_filled_draw`), and the second's mask
    contradicts each other's on some literal (`low == -inf` against `low != -inf`)."""
    if not (isinstance(a, ast.Name) and isinstance(b, ast.Name) and a.id == b.id) or a is b:
        return False
    second = _filled_draw(model, b)
    fn = model.scopes.enclosing_function(b)
    if second is None or fn is None or not _plain_fill(model, fn, second[3], second[2]):
        return False
    call, literals, shape, name = second
    for n in model.scopes.own_nodes(fn):
        if isinstance(n, ast.Name) and n.id == a.id and isinstance(n.ctx, ast.Load):
            found = _filled_draw(model, n)
            if found is None or found[2] != shape or found[3] != name:
                return False
            if found[0] is not call and not any((atom, not sign) in found[1] for atom, sign in literals):
                return False
    return True


# a literal of a path condition: (name, what is tested of it, the constant), and whether it holds on the path.
# `boot` -> (("boot", "truth", None), True); `refs is not None` -> (("refs", "none", None), False); `mode == "a"`
# -> (("mode", "eq", "a"), True)
_Atom = tuple[str, str, object]


def _test_atom(test: ast.expr) -> tuple[_Atom, bool] | None:
    """One tested fact of one name: its truth, `is None` / `is not None`, `== constant` / `!= constant`."""
    if isinstance(test, ast.Name):
        return (test.id, "truth", None), True
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        return None
    left, op, right = test.left, test.ops[0], test.comparators[0]
    if isinstance(right, ast.Name) and isinstance(left, ast.Constant):
        left, right = right, left
    if not (isinstance(left, ast.Name) and isinstance(right, ast.Constant)):
        return None
    if right.value is None and isinstance(op, (ast.Is, ast.IsNot)):
        return (left.id, "none", None), isinstance(op, ast.Is)
    if isinstance(right.value, (str, int)) and not isinstance(right.value, bool) and isinstance(op, (ast.Eq, ast.NotEq)):
        return (left.id, "eq", right.value), isinstance(op, ast.Eq)
    return None


def _test_literals(test: ast.expr, outcome: bool) -> list[tuple[_Atom, bool]]:
    """The literals a test's outcome fixes: a true `a and not b` fixes `a` and `not b`, a false `a or b` fixes
    `not a` and `not b`; a false `and` (or a true `or`) fixes none of its operands. Operands that test anything
    else than one name are skipped: the others still hold."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return _test_literals(test.operand, not outcome)
    if isinstance(test, ast.BoolOp):
        if isinstance(test.op, ast.And) != outcome:
            return []
        return [lit for value in test.values for lit in _test_literals(value, outcome)]
    atom = _test_atom(test)
    return [] if atom is None else [(atom[0], atom[1] == outcome)]


def _ends(block: list[ast.stmt]) -> bool:
    """A block whose every path leaves it by `return`, `raise`, `continue` or `break`: what follows it in the
    enclosing block runs only when the block did not."""
    if not block:
        return False
    last = block[-1]
    if isinstance(last, (ast.Return, ast.Raise, ast.Continue, ast.Break)):
        return True
    return isinstance(last, ast.If) and _ends(last.body) and _ends(last.orelse)


def _path_literals(model: KeyFlow, node: ast.AST) -> tuple[list[tuple[_Atom, bool]], ast.AST | None]:
    """What holds of Python names wherever `node` runs (up to its function), and that function: the tests of the
    `if`s (and conditional expressions) around it, true in their body and false in their `else` (an `elif` is
    the `else` of the `if` before it), and the tests of earlier `if`s of an enclosing block whose branch always
    leaves that block (`if not boot: return ...` before the node: `boot` holds there)."""
    found: list[tuple[_Atom, bool]] = []
    parents = model.scopes.parents
    child, cur = node, parents.get(node)
    while cur is not None:
        for field in ("body", "orelse", "finalbody"):
            block = getattr(cur, field, None)
            if isinstance(block, list) and any(child is s for s in block):
                for s in block[:next(i for i, s in enumerate(block) if s is child)]:
                    if isinstance(s, ast.If) and _ends(s.body) != _ends(s.orelse):
                        found.extend(_test_literals(s.test, not _ends(s.body)))
        if isinstance(cur, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef, ast.Module)):
            break
        if isinstance(cur, (ast.If, ast.IfExp)) and child is not cur.test:
            in_body = any(child is s for s in cur.body) if isinstance(cur, ast.If) else child is cur.body
            found.extend(_test_literals(cur.test, in_body))
        child, cur = cur, parents.get(cur)
    return found, cur


def _contradict(a: tuple[_Atom, bool], b: tuple[_Atom, bool]) -> bool:
    """Two literals on one name that cannot both hold: a fact and its negation, two different constants it
    equals, or `x is None` beside a true `x`."""
    (name, kind, value), holds = a
    (name_b, kind_b, value_b), holds_b = b
    if name != name_b:
        return False
    if (kind, value) == (kind_b, value_b):
        return holds != holds_b
    if kind == kind_b == "eq":
        return holds and holds_b and type(value) is type(value_b)
    return {(kind, holds), (kind_b, holds_b)} == {("none", True), ("truth", True)}


def _exclusive_paths(model: KeyFlow, a: ast.AST, b: ast.AST) -> bool:
    """Two nodes of one function on paths that exclude each other: `refs = make(key)` under `if refs is None and
    not boot:` and `fold_in(key, 1)` after `if not boot: return ...` (or under `if boot:`, or `if mode == "x"`
    against `if mode == "y"`), on a name the function never rebinds: one call takes one of the two paths."""
    literals_a, home = _path_literals(model, a)
    if not literals_a or not isinstance(home, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    literals_b, home_b = _path_literals(model, b)
    if home_b is not home:
        return False
    names = {lit[0][0] for lit in literals_a for other in literals_b if _contradict(lit, other)}
    if not names:
        return False
    rebound = {n.id for n in model.walked(home) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)} | {
        name for n in model.walked(home) if isinstance(n, (ast.Global, ast.Nonlocal)) for name in n.names}
    return bool(names - rebound)


def _loops_run_once(model: KeyFlow, node: ast.AST) -> bool:
    """Every loop around a node (inside its function) is `for _ in range(N)` with `N` a literal, or a module
    constant bound once to a literal, that is at most 1: no iteration follows the first."""
    parents = model.scopes.parents
    cur = parents.get(node)
    seen = False
    while cur is not None and not isinstance(cur, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.Module)):
        if isinstance(cur, (ast.While, ast.AsyncFor, ast.comprehension)):
            return False
        if isinstance(cur, ast.For):
            it = cur.iter
            if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range"
                    and not it.keywords and 1 <= len(it.args) <= 2 and "range" not in model.scopes.aliases):
                return False
            bounds = [_module_int(model, a) for a in it.args]
            if any(b is None for b in bounds):
                return False
            start, stop = (0, bounds[0]) if len(bounds) == 1 else (bounds[0], bounds[1])
            if stop - start > 1:  # type: ignore[operator]
                return False
            seen = True
        cur = parents.get(cur)
    return seen


def _module_int(model: KeyFlow, value: ast.AST) -> int | None:
    """An int literal, or a module-level name bound exactly once, to an int literal, and never declared global."""
    if isinstance(value, ast.Constant) and type(value.value) is int:
        return value.value
    if not isinstance(value, ast.Name):
        return None
    tree = model.scopes.tree
    bound = [s for s in tree.body if isinstance(s, (ast.Assign, ast.AnnAssign)) and any(
        isinstance(t, ast.Name) and t.id == value.id for t in (s.targets if isinstance(s, ast.Assign) else [s.target]))]
    if len(bound) != 1 or not isinstance(bound[0].value, ast.Constant) or type(bound[0].value.value) is not int:
        return None
    if any((isinstance(n, ast.Name) and n.id == value.id and not isinstance(n.ctx, ast.Load)) or (
            isinstance(n, ast.Global) and value.id in n.names) for n in walk_nodes(tree)
           if n is not bound[0] and not (isinstance(n, ast.Name) and any(n is t for t in walk_nodes(bound[0])))):
        return None
    return bound[0].value.value


def _never_runs(model: KeyFlow, node: ast.AST) -> bool:
    """A node in the branch a constant test never takes: `(... if False else None)`."""
    child, cur = node, model.scopes.parents.get(node)
    while cur is not None and not isinstance(cur, ast.stmt):
        if (isinstance(cur, ast.IfExp) and isinstance(cur.test, ast.Constant) and child is not cur.test
                and (child is cur.body) != bool(cur.test.value)):
            return True
        child, cur = cur, model.scopes.parents.get(cur)
    return False


_SECOND = "<the second draw>"


_EQUALITY = {"array_equal", "allclose", "isclose", "array_equiv", "equal"}
# the name of a function that compares its first two arguments (`tree_compare`, `eqx.tree_equal`, `trees_allclose`)
_COMPARING = re.compile(r"compare|equal|allclose|isclose|(^|_)diff($|_)", re.IGNORECASE)


def _wrapped_call(node: ast.AST) -> bool:
    """`jax.jit(kernel)(key, s)`: a call of what a call returns, given arguments (KeyFlow._wrapped_product_called)."""
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Call) and bool(node.args or node.keywords)


def _called_through(node: ast.AST) -> bool:
    """A call of an attribute, of a call's result or of a name (KeyFlow._may_have_own_key)."""
    return type(node) is ast.Call and type(node.func) in (ast.Attribute, ast.Call, ast.Name)  # type: ignore[attr-defined]


def _called_with_arguments(node: ast.AST) -> bool:
    """A call given positional arguments (KeyFlow._calls_given_arguments)."""
    return isinstance(node, ast.Call) and bool(node.args)


def _equality_check(node: ast.AST) -> bool:
    """An `if` whose test, or a `print(...)` whose arguments, ask whether two values are equal: `a == b`,
    `jnp.array_equal(a, b)`, `jnp.allclose(a, b)`."""
    if isinstance(node, ast.Call):
        if called_name(node.func) != "print":
            return False
        inside: list[ast.AST] = list(node.args)
    else:
        inside = [node.test]  # type: ignore[attr-defined]
    return any((isinstance(n, ast.Compare) and all(isinstance(op, (ast.Eq, ast.NotEq)) for op in n.ops))
               or (isinstance(n, ast.Call) and called_name(n.func).rsplit(".", 1)[-1] in _EQUALITY)
               for arg in inside for n in walk_nodes(arg))


def _compared_sides(test: ast.AST) -> list[list[ast.expr]]:
    """The two sides of every comparison, difference and comparing call (`jnp.allclose(a, b)`) in a test; for a
    tree map of a comparison (`jax.tree.map(lambda a, b: jnp.allclose(a, b), s_w, s_m)`, `tree_map(jnp.array_equal,
    x, y)`), the two trees it walks."""
    return [[n.left, n.comparators[0]] if isinstance(n, ast.Compare) else [n.left, n.right]
            if isinstance(n, ast.BinOp) else n.args[1:3] if _maps_a_comparison(n) else n.args[:2]
            for n in walk_nodes(test) if isinstance(n, (ast.Compare, ast.Call)) or (
                isinstance(n, ast.BinOp) and isinstance(n.op, ast.Sub))]


def _maps_a_comparison(call: ast.AST) -> bool:
    """`jax.tree.map(lambda a, b: jnp.allclose(a, b), x, y)` (or `tree_map(jnp.array_equal, x, y)`): a comparison
    of two trees, leaf by leaf."""
    if not (isinstance(call, ast.Call) and len(call.args) >= 3):
        return False
    last, func = called_name(call.func), call.func
    if not (last in ("tree_map", "tree_map_with_path", "map_structure") or (
            last == "map" and isinstance(func, ast.Attribute) and called_name(func.value) == "tree")):
        return False  # (by its spelling, as `_TREE_MAPS` holds them: `jax.tree.map`, `jtu.tree_map`, ...)
    fn = call.args[0]
    if isinstance(fn, ast.Lambda):
        return any(isinstance(n, ast.Compare) or (isinstance(n, ast.Call) and _COMPARING.search(
            called_name(n.func).rsplit(".", 1)[-1])) for n in walk_nodes(fn.body))
    return _COMPARING.search(called_name(fn).rsplit(".", 1)[-1]) is not None


def _side_reads(side: ast.expr, marked: ast.AST | None) -> set[str]:
    """The names a side reads, and `_SECOND` when it holds the (unnamed) second draw."""
    names = {n.id for n in walk_nodes(side) if isinstance(n, ast.Name)}
    return names | {_SECOND} if marked is not None and any(n is marked for n in walk_nodes(side)) else names


def _separates(pair: list[ast.expr], flows: list[set[str]], same_call: bool = False,
               marked: ast.AST | None = None) -> bool:
    """One side computed from the first result only, the other from the second only. When both results come
    from the same call written twice (one value wanted in two places: two models given the same initial mean),
    the second side may also read the first result (the models are fitted to data sampled from the first)."""
    reads = [_side_reads(side, marked) for side in pair]
    return any(reads[i] & flows[a] and not reads[i] & flows[1 - a] and reads[1 - i] & flows[1 - a]
               and (same_call or not reads[1 - i] & flows[a]) for i in (0, 1) for a in (0, 1))


_GROWING = {"append", "extend", "insert", "appendleft"}


def _appends(node: ast.AST) -> str | None:
    """`out.append(f(x))` as a statement: the list it grows (its items now carry what the arguments read)."""
    if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Attribute) and (
            node.value.func.attr in _GROWING and isinstance(node.value.func.value, ast.Name)):
        return node.value.func.value.id
    return None


def _flows_into(stmt: ast.stmt) -> set[str]:
    """What a statement's values reach: what it binds (`_stored`), or the list an `append` statement grows."""
    grown = _appends(stmt)
    return {grown} if grown is not None else _stored(stmt)


def _stored(stmt: ast.stmt) -> set[str]:
    """What a statement binds: names, and stored paths (`self.out`) by their text."""
    targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target] if isinstance(
        stmt, (ast.AugAssign, ast.AnnAssign, ast.For)) else []
    out: set[str] = set()
    elements = list(targets)
    while elements:
        element = elements.pop()
        if isinstance(element, (ast.Tuple, ast.List)):
            elements.extend(element.elts)  # nested unpacking too: `for i, (x, y) in enumerate(zip(xs, ys))`
        elif isinstance(element, ast.Name):
            out.add(element.id)
        elif isinstance(element, ast.Starred) and isinstance(element.value, ast.Name):
            out.add(element.value.id)
        else:
            out.add(ast.unparse(element))
    return out


def _kept(stmt: ast.stmt) -> set[str]:
    """What a statement binds, less the names written only with underscores (`_, keys = scan(...)`): those
    throw a value away, so `_, keys = scan(step, key, ...)` and then `keys = split(key, n)` set the same name
    again (a replay, when the liveness walk shows the first `keys` is never read)."""
    return {name for name in _stored(stmt) if name.strip("_")}


def _about_shapes(assertion: ast.AST, pair: list[ast.expr]) -> bool:
    """`chex.assert_shape(a, b.shape)`, `assert a.shape == b.shape`: a check of structure, not of values."""
    name = called_name(assertion.func) if isinstance(assertion, ast.Call) else ""
    return "shape" in name.lower() or any(
        isinstance(side, ast.Attribute) and side.attr in ("shape", "ndim", "dtype", "size") for side in pair)


_TREE_MAPS = {"jax.tree.map", "jax.tree_util.tree_map", "jax.tree_map", "tree.map_structure"}


def _tree_assertion(model: KeyFlow, call: ast.Call, scope: FunctionInfo | None) -> bool:
    """`jax.tree.map(assert_allclose, actual, expected)`: an assertion applied leaf by leaf."""
    return (len(call.args) >= 3 and model.scopes.qualname(call.func, scope) in _TREE_MAPS
            and is_assertion(call.args[0]))


def _direct_reads(stmt: ast.stmt) -> set[str]:
    """The names a statement reads itself (not in the bodies of the statements it holds; `if`/`while`: its test)."""
    if isinstance(stmt, (ast.If, ast.While)):
        parts: list[ast.AST] = [stmt.test]
    elif isinstance(stmt, (ast.For, ast.AsyncFor)):
        parts = [stmt.iter]
    elif isinstance(stmt, (ast.With, ast.AsyncWith)):
        parts = [item.context_expr for item in stmt.items]
    elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Try)):
        return set()  # (a nested function's reads are its own; a `try`'s statements are visited on their own)
    else:
        parts = [stmt]
    return {n.id for part in parts for n in walk_nodes(part) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def _assigned_names(stmt: ast.Assign | ast.AugAssign | ast.AnnAssign) -> set[str] | None:
    """The plain names an assignment binds; None when it also stores into an attribute or a subscript."""
    targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
    names: set[str] = set()
    for t in targets:
        for n in walk_nodes(t):
            if isinstance(n, (ast.Attribute, ast.Subscript)):
                return None
            if isinstance(n, ast.Name):
                names.add(n.id)
    return names


def _checks_only(model: KeyFlow, stmt: ast.stmt | None, scope: FunctionInfo | None) -> bool:
    """A statement that is one assertion call: the values it computes die in the check."""
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and (
        is_assertion(stmt.value.func) or _tree_assertion(model, stmt.value, scope))


def _replays(first: KeyUse, call: ast.Call, stmt: ast.stmt | None) -> bool:
    """`state = init(key)` again, word for word: it recomputes the value the name already had (tests reset to
    the same initial state this way), which repeats no random numbers that are used together."""
    before = first.statement
    if before is None or stmt is None or before is stmt:
        return False
    return (getattr(before, "value", None) is first.call and getattr(stmt, "value", None) is call
            and bool(_stored(before)) and _stored(before) == _stored(stmt)
            and ast.dump(first.call) == ast.dump(call))


def _bound_by(comprehension: ast.AST) -> set[str]:
    return {n.id for gen in comprehension.generators for n in walk_nodes(gen.target) if isinstance(n, ast.Name)}  # type: ignore[attr-defined]


def _calls_in_order(expr: ast.AST) -> list[tuple[ast.Call, ast.AST | None]]:
    """Calls in evaluation order (arguments before the call), with the innermost enclosing comprehension."""
    out: list[tuple[ast.Call, ast.AST | None]] = []
    stack: list[tuple[ast.AST, ast.AST | None, bool]] = [(expr, None, False)]
    while stack:
        node, comp, expanded = stack.pop()
        if expanded:
            if isinstance(node, ast.Call):
                out.append((node, comp))
            continue
        if isinstance(node, (ast.Lambda, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        stack.append((node, comp, True))
        inner = node if isinstance(node, _COMPREHENSIONS) else comp
        children = list(iter_children(node))
        first_iter = node.generators[0].iter if isinstance(node, _COMPREHENSIONS) else None
        for child in reversed(children):
            if isinstance(child, ast.comprehension) and child.iter is first_iter:
                stack.append((child.iter, comp, False))  # evaluated once, before the first iteration
                for rest in reversed([child.target, *child.ifs]):
                    stack.append((rest, inner, False))
                continue
            stack.append((child, inner, False))
    return out


_LOADING_VERBS = {"restore", "load", "read"}


def _replaced_by_load(model: KeyFlow, first: KeyUse) -> bool:
    """`params = model.init(key, x)` whose result is next used only to be replaced by a checkpoint load
    (`params = restore_checkpoint(path, params)`, `state = manager.restore(step, state)`): the init's draws
    are thrown away (the template gives structure only), so the key drew nothing that is used."""
    stmt = first.statement
    if not isinstance(stmt, ast.Assign) or stmt.value is not first.call:
        return False
    names = {n.id for t in stmt.targets for n in walk_nodes(t) if isinstance(n, ast.Name)}
    parent = model.scopes.parents.get(stmt)
    block = next((b for b in statement_lists(parent) if stmt in b), None) if parent is not None else None
    if not names or block is None:
        return False
    for later in block[block.index(stmt) + 1:]:
        reads = {n.id for n in walk_nodes(later) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
        if not reads & names:
            continue
        if not isinstance(later, ast.Assign) or not isinstance(later.value, ast.Call):
            return False
        func = later.value.func
        called = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        rebound = {n.id for t in later.targets for n in walk_nodes(t) if isinstance(n, ast.Name)}
        return called.lstrip("_").split("_", 1)[0].lower() in _LOADING_VERBS and names <= rebound
    return False


def _saves(call: ast.Call) -> bool:
    """`save_checkpoint(...)`, `manager.save(...)`, `pickle.dump(...)`: the called name starts with a verb that
    stores (see _SAVING_VERBS)."""
    func = call.func
    name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
    return name.lstrip("_").split("_", 1)[0].lower() in _SAVING_VERBS


# ---- a key read from a loop's carry, consumed, and handed back unchanged --------------------------------------

# lax loops: the argument that is the body, the body's parameter that is the carry, and whether the body returns
# (carry, y) (scan) rather than the carry; the argument that is the initial carry
_LAX_LOOPS = {"jax.lax.while_loop": (1, "body_fun", 0, False, 2, "init_val"),
              "jax.lax.fori_loop": (2, "body_fun", 1, False, 3, "init_val"),
              "jax.lax.scan": (0, "f", 0, True, 1, "init")}
# calls that may take a carry without changing what it holds
_CARRY_SAFE = {"jax.debug.callback", "jax.debug.print", "jax.tree.map", "jax.tree_util.tree_map", "print"}
_MUTATORS = {"update", "pop", "popitem", "setdefault", "clear", "__setitem__", "__delitem__", "append", "extend",
             "insert", "remove"}


def _loop_argument(call: ast.Call, position: int, keyword: str) -> ast.expr | None:
    found = next((k.value for k in call.keywords if k.arg == keyword), None)
    if found is None and len(call.args) > position:
        found = call.args[position]
    return found


# what a body run once per iteration, element or device is run for: the word a message uses
_REPEAT_UNIT = {"jax.vmap": "element", "equinox.filter_vmap": "element", "flax.nnx.vmap": "element",
                "jax.pmap": "device", "scan body": "iteration", "fori_loop body": "iteration",
                "while_loop body": "iteration", "map body": "element"}
_LOOP_UNIT = {"jax.lax.while_loop": "iteration", "jax.lax.fori_loop": "iteration", "jax.lax.scan": "iteration"}


def seed_keys_in_repeated_bodies(model: KeyFlow) -> list[KeyReuse]:
    """A key made from a literal seed (`jax.random.key(0)`, `PRNGKey(SEED)`) inside a function that runs once per
    iteration, element or device (a `lax.scan`/`fori_loop`/`while_loop` body, a `vmap`/`pmap`ed function) and
    drawn from or split there: the key is the same every time the body runs, so every iteration draws the same
    numbers (coreax's noise-conditional score matching perturbs the data with `normal(key(0), x.shape)` in a
    `fori_loop` body: one noise pattern for every noise level). A body is found as the model traces it, or as the
    body argument of a `lax` loop: a function, a method (`self.body`), or `functools.partial` of one, directly or
    through a name bound once."""
    scopes = model.scopes
    passes = model._passes  # (the last version's answers per loop call and body, where they hold: ModulePasses)
    bodies: dict[int, tuple[FunctionInfo, str, str]] = {}  # id(function node) -> (it, what runs it, unit)
    if passes is None:
        for fn in scopes.functions.values():
            site = next((t.reason for t in fn.traces if t.reason in _REPEAT_UNIT), None) if fn.traces else None
            if site is not None:
                bodies[id(fn.node)] = (fn, site, _REPEAT_UNIT[site])
    else:
        for fn, record in passes.units:
            site = record.repeats  # ("": none)
            if site is None:
                site = record.repeats = next((t.reason for t in fn.traces if t.reason in _REPEAT_UNIT), "") if (
                    fn.traces) else ""
            if site:
                bodies[id(fn.node)] = (fn, site, _REPEAT_UNIT[site])
    run = reused = 0
    for call in model.loop_calls()[0]:  # the others are no lax loop
        answers = passes.loop(call, partial(_scope_of, model, call)) if passes is not None else None
        ran = answers.get("seed", answers) if answers is not None else answers
        if ran is answers:
            ran = _seed_loop_body(model, call)
            run += 1
            if answers is not None:
                answers["seed"] = ran
        else:
            reused += 1
        if ran is None:
            continue
        node, q = ran
        body = scopes.functions.get(node)
        if body is not None and id(node) not in bodies:
            bodies[id(node)] = (body, f"{q.rsplit('.', 1)[1]} body", _LOOP_UNIT[q])
    out: list[KeyReuse] = []
    for fn, site, unit in bodies.values():
        kept = passes.of(model, fn.node) if passes is not None else None
        keys = kept.seeds if kept is not None else None
        if keys is None:
            keys = _seeded_keys(model, fn)
            run += 1
            if kept is not None:
                kept.seeds = keys
        else:
            reused += 1
        out.extend(KeyReuse(key, label, None, "seed body", f"{site}|{unit}") for key, label in keys)
    if passes is not None:
        passes.count("seeds", reused, run)
    return out


def _seed_loop_body(model: KeyFlow, call: ast.Call) -> tuple[ast.AST, str] | None:
    """The body a `lax` loop call runs (its node) and the loop's qualified name; None when it finds none."""
    scope = _scope_of(model, call)
    q = model.scopes.qualname(call.func, scope)
    if q not in _LAX_LOOPS:
        return None
    body_at, body_kw = _LAX_LOOPS[q][0], _LAX_LOOPS[q][1]
    body = _loop_body_function(model, _loop_argument(call, body_at, body_kw), scope, 0)
    return (body.node, q) if body is not None else None


def _seeded_keys(model: KeyFlow, fn: FunctionInfo) -> list[tuple[ast.AST, str]]:
    """The keys made from a literal seed that a function draws from or splits, with their labels."""
    out: list[tuple[ast.AST, str]] = []
    for node in model.scopes.own_nodes(fn):
        if not isinstance(node, ast.Call):
            continue
        key, how = model.random_key_arg(node, fn)
        if how not in ("draw", "split") or key is None:
            continue
        label = model.seed_label(key, fn) or _seed_bound_once(model, key, fn)
        if label is not None:
            out.append((key, label))
    return out


def _loop_body_function(model: KeyFlow, expr: ast.AST | None, scope: FunctionInfo | None,
                        depth: int) -> FunctionInfo | None:
    """The function a loop runs as its body: `body`, `self.body`, `partial(body, ...)`, or a name bound once in
    the scope to one of these."""
    if expr is None or depth > 3:
        return None
    if isinstance(expr, ast.Call) and model.scopes.qualname(expr.func, scope) == "functools.partial" and expr.args:
        return _loop_body_function(model, expr.args[0], scope, depth + 1)
    if (isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) and expr.value.id == "self"
            and scope is not None and "." in scope.qualname):
        return model.method(f"{scope.qualname.split('.', 1)[0]}.{expr.attr}")
    if isinstance(expr, ast.Name) and scope is not None and expr.id in scope.local_names and expr.id not in scope.params:
        values = [n.value for n in model.scopes.own_nodes(scope) if isinstance(n, ast.Assign) and len(n.targets) == 1
                  and isinstance(n.targets[0], ast.Name) and n.targets[0].id == expr.id]
        stores = [n for n in model.scopes.own_nodes(scope) if isinstance(n, ast.Name) and n.id == expr.id
                  and not isinstance(n.ctx, ast.Load)]
        if len(values) == 1 and len(stores) == 1 and not isinstance(values[0], ast.Lambda):
            return _loop_body_function(model, values[0], scope, depth + 1)
    found = model.scopes.resolve_function(expr, scope)
    return None if found is None or (isinstance(found.node, ast.Lambda) and expr is not found.node) else found


def _seed_bound_once(model: KeyFlow, key: ast.AST, fn: FunctionInfo) -> str | None:
    """`k = jax.random.key(0)` bound once in the body, then `normal(k, ...)`: the key of that seed."""
    if not isinstance(key, ast.Name) or key.id in fn.params or key.id not in fn.local_names:
        return None
    values = [n.value for n in model.scopes.own_nodes(fn) if isinstance(n, ast.Assign) and len(n.targets) == 1
              and isinstance(n.targets[0], ast.Name) and n.targets[0].id == key.id]
    stores = [n for n in model.scopes.own_nodes(fn) if isinstance(n, ast.Name) and n.id == key.id
              and not isinstance(n.ctx, ast.Load)]
    if len(values) != 1 or len(stores) != 1:
        return None
    return model.seed_label(values[0], fn)


def after_init_reuses(model: KeyFlow, always: dict[str, set[int]]) -> list[KeyReuse]:
    """A key kept on `self` that `__init__` consumes (draws from, splits, hands to a call that does) and leaves in
    place: every method runs after `__init__`, so a method that consumes the same `self.rng` before replacing it
    draws from bits already used (pobax's gymnax wrapper: `__init__` resets the environments with
    `split(self.rng, n)`, then `step` does `self.rng, key = split(self.rng)`, whose keys are the first two of
    those). Methods that `__init__` itself calls run during it, and are left to the walk of `__init__`."""
    out: list[KeyReuse] = []
    passes = model._passes  # (the last version's findings per class, where they hold: ModulePasses)
    run = reused = 0
    for cls in model.scopes.nodes(ast.ClassDef):
        assert isinstance(cls, ast.ClassDef)
        record = passes.of(model, cls) if passes is not None else None
        part = record.after_init if record is not None else None
        if part is None:
            part = _after_init_reuses_of(model, cls, always)
            run += 1
            if record is not None:
                record.after_init = part
        else:
            reused += 1
        out.extend(part)
    if passes is not None:
        passes.count("after init", reused, run)
    return out


def _after_init_reuses_of(model: KeyFlow, cls: ast.ClassDef, always: dict[str, set[int]]) -> list[KeyReuse]:
    out: list[KeyReuse] = []
    methods = {n.name: n for n in cls.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    init = methods.get("__init__")
    if init is None or not _takes_self(init):
        return out
    init_info = model.scopes.functions.get(init)
    if init_info is None:
        return out
    entry = _left_consumed_on_self(model, init_info, init, always)
    if not entry:
        return out
    called = {n.func.attr for n in walk_nodes(init) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
              and isinstance(n.func.value, ast.Name) and n.func.value.id == "self"}
    for name, node in methods.items():
        info = model.scopes.functions.get(node)
        if (name in ("__init__", "__new__", "__post_init__") or name in called or info is None
                or not _takes_self(node) or any(
                    called_name(d) in ("staticmethod", "classmethod") for d in node.decorator_list)):
            continue
        if not any(isinstance(n, ast.Attribute) and _chain_label(n) in entry for n in model.scopes.own_nodes(info)):
            continue
        walk = _AfterInit(model, info, node.body, always, entry=entry)
        out.extend(KeyReuse(r.node, r.label, r.first, "init", name, r.sure)
                   for r in walk.found if r.first is not None and walk.injected(r.first))
    return out


def _left_consumed_on_self(model: KeyFlow, init: FunctionInfo, node: ast.FunctionDef | ast.AsyncFunctionDef,
                           always: dict[str, set[int]]) -> State:
    """The keys on `self` that `__init__` surely consumes on every path that ends it, and does not replace
    after: `self.X` label -> its consumption there. A consumption whose values reach nothing (a run for shapes,
    results named as unused) does not count."""
    walk = _AfterInit(model, init, node.body, always)
    exit_state = walk.exit or {}
    return {label: use for label, use in exit_state.items()
            if label.startswith("self.") and use.definite and use.how in ("draw", "split")
            and not walk._unused_results(use.statement, use.call) and not walk._shapes_only(use.call)
            and not walk._thrown_away(use.call, use.statement)}


class _AfterInit(_ScopeWalk):
    """The walk of `__init__` (to learn what it leaves consumed on `self`) and of a method that begins with that
    state. A method called on an attribute (`self._env.reset(rng)`) may store keys in that attribute, not in
    `self` (the plain walk forgets all of `self`); a first use made in `__init__` is compared with a use here only
    for what holds across functions (the same key, both consumed, values read)."""

    def injected(self, use: KeyUse) -> bool:
        return self.fn is not None and use.statement is not None and not _inside(self.model, use.statement, self.fn.node)

    def _escape(self, call: ast.Call, consumed: list[tuple[ast.AST, str, str, bool]], state: State) -> None:
        if isinstance(call.func, ast.Attribute) and not isinstance(call.func.value, ast.Name):
            receiver = _chain_label(call.func.value)
            if receiver is not None:  # self._env.reset(rng, ...): only `self._env` (and the arguments) may change
                used = {label for _, label, _, _ in consumed}
                for label in [k for k in state if k not in used and _is_under(k, receiver) and k != receiver]:
                    del state[label]
                    state.pop(_LAST + label, None)
                    state.pop(_EARLIER + label, None)
                call = ast.Call(func=ast.Name("<method>", ast.Load()), args=call.args, keywords=call.keywords)
        super()._escape(call, consumed, state)

    def _hazard(self, first: KeyUse, node: ast.AST, call: ast.Call, stmt: ast.stmt | None, how: str,
                definite: bool) -> bool:
        if not self.injected(first):
            return super()._hazard(first, node, call, stmt, how, definite)
        return (definite and _conflict(first, how, definite) and not _fold_past_split(self.model, first, call, how)
                and not _distinct_split_elements(self.model, first, call) and not self._unused_results(stmt, call)
                and not self._shapes_only(call) and not self._thrown_away(call, stmt))


def _takes_self(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    return [a.arg for a in [*node.args.posonlyargs, *node.args.args]][:1] == ["self"]


def _inside(model: KeyFlow, node: ast.AST, root: ast.AST) -> bool:
    cur: ast.AST | None = node
    while cur is not None and cur is not root:
        cur = model.scopes.parents.get(cur)
    return cur is root


def carry_reuses(model: KeyFlow) -> list[KeyReuse]:
    """A loop body that consumes a key it reads from its carry (`split(val["key"])`, `key, x = carry` then
    `normal(key)`) on every iteration and returns the carry with that same key in it: the next iteration reads
    the same key again, so every iteration draws the same numbers (liesel's SGD epochs all shuffle with one
    permutation). Found for the bodies of `lax.while_loop`, `lax.fori_loop` and `lax.scan`, and for a function
    of this module called in a Python loop as `carry = body(carry)`. Reported only where it is certain: the
    consumption runs on every path of the body, and every return hands back the very key (nothing stores into
    the carry there, nor hands it to a function that could)."""
    out: list[KeyReuse] = []
    scopes = model.scopes
    seen: set[int] = set()
    # the calls that run a loop body (from the index of the one walk; most modules have none), then taken in the
    # order of `ast.walk` (breadth first: the order a body found twice is reported in)
    loops: dict[int, tuple[ast.AST, list[tuple[ast.AST, str]], str]] = {}
    calls: list[ast.AST] = []
    uses: dict[tuple[int, str, bool], list[tuple[ast.AST, str]]] = {}  # the keys a body hands back, per carry
    passes = model._passes  # (the last version's answers per loop call, where they hold: ModulePasses)
    run = reused = 0
    for call in model.loop_calls()[1]:  # the others run no loop body
        answers = passes.loop(call, partial(_scope_of, model, call)) if passes is not None else None
        ran = answers.get("carry", answers) if answers is not None else answers
        if ran is answers:
            ran = _carry_of(model, call, uses)
            run += 1
            if answers is not None:
                answers["carry"] = ran
        else:
            reused += 1
        if ran is not None:
            loops[id(call)] = ran
            calls.append(call)
    if passes is not None:
        passes.count("carry", reused, run)
    # only the loops that find a key are put in walk order (finding the order of every loop call of a 5,000-line
    # module was half of this on each edit); a loop that finds none reports nothing and marks no body as seen
    if len(calls) > 1:
        calls.sort(key=partial(_walk_order, scopes, {}))
    for loop in calls:
        body, found, transform = loops[id(loop)]
        if id(body) in seen:
            continue
        for node, label in found:
            seen.add(id(body))
            out.append(KeyReuse(node, label, None, "carry", transform))
    return out


def _carry_of(model: KeyFlow, call: ast.Call, uses: dict[tuple[int, str, bool], list[tuple[ast.AST, str]]]
              ) -> tuple[ast.AST, list[tuple[ast.AST, str]], str] | None:
    """The body a loop call runs (its node), the keys it hands back in the carry it consumed them from, and the
    loop ("while_loop", "loop", ...); None when it finds none. `uses`: the keys found per body and carry."""
    scopes = model.scopes
    scope = _scope_of(model, call)
    q = scopes.qualname(call.func, scope)
    if q in _LAX_LOOPS:
        body_at, body_kw, carry_at, scan, _, _ = _LAX_LOOPS[q]
        body = scopes.resolve_function(_loop_argument(call, body_at, body_kw) or call, scope)
        transform = q.rsplit(".", 1)[1]
    else:
        body, carry_at, scan, transform = _python_loop_body(model, call, scope)
    if body is None or isinstance(body.node, ast.Lambda):
        return None
    positional = [p.arg for p in [*body.node.args.posonlyargs, *body.node.args.args]]
    if carry_at >= len(positional):
        return None
    asked = (id(body.node), positional[carry_at], scan)
    found = uses.get(asked)
    if found is None:
        found = uses[asked] = _carried_key_uses(model, body, positional[carry_at], scan)
    return (body.node, found, transform) if found else None


def _walk_order(scopes: Scopes, positions: dict[int, dict[int, int]], node: ast.AST) -> tuple[int, list[int]]:
    """Where `walk_nodes(scopes.tree)` (breadth first) yields `node`: the nodes of one depth come in the order of their
    paths from the root (each step the child's place among `ast.iter_child_nodes` of its parent). `positions`:
    id(parent) -> {id(child): place}, filled as parents are met."""
    path: list[int] = []
    parents = scopes.parents
    while node is not scopes.tree:
        parent = parents[node]
        places = positions.get(id(parent))
        if places is None:
            places = positions[id(parent)] = {}
            for i, child in enumerate(ast.iter_child_nodes(parent)):
                places.setdefault(id(child), i)
        path.append(places[id(node)])
        node = parent
    path.reverse()
    return len(path), path


def _scope_of(model: KeyFlow, node: ast.AST) -> FunctionInfo | None:
    scopes = model.scopes  # (looked up once: this runs for every call of the module, twice per analysis)
    parents = scopes.parents
    cur = parents.get(node)
    while cur is not None:
        if isinstance(cur, _FUNCTION_NODES):
            return scopes.functions.get(cur)
        cur = parents.get(cur)
    return None


def _calls_apply(node: ast.AST) -> bool:
    """`X.apply(...)`: syntax alone."""
    return type(node) is ast.Call and type(node.func) is ast.Attribute and node.func.attr == "apply"  # type: ignore[attr-defined]


_FUNCTION_NODES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


def _python_loop_body(model: KeyFlow, call: ast.Call, scope: FunctionInfo | None
                      ) -> tuple[FunctionInfo | None, int, bool, str]:
    """`carry = body(carry, ...)` in the body of a Python `for`/`while` loop, `body` a function of this module:
    (the function, the position of the carry, False, "loop")."""
    position = _python_loop_carry(model.scopes.parents, call)
    if position is None:
        return None, 0, False, ""
    body = model.scopes.resolve_function(call.func, scope)
    if body is None or isinstance(body.node, ast.Lambda):
        return None, 0, False, ""
    if "." in body.qualname and body.parent is None:
        return None, 0, False, ""  # a method: its first parameter is the object
    return body, position, False, "loop"


def _python_loop_carry(parents: dict[ast.AST, ast.AST], call: ast.Call) -> int | None:
    """`carry = body(carry, ...)` (no keyword, no `*args`) in the body of a Python `for`/`while` loop of its
    function: the position of the carry among the arguments; None for any other call. Syntax alone."""
    stmt = parents.get(call)
    if not (isinstance(stmt, ast.Assign) and stmt.value is call and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name)):
        return None
    name = stmt.targets[0].id
    position = next((i for i, a in enumerate(call.args) if isinstance(a, ast.Name) and a.id == name), None)
    if position is None or call.keywords or any(isinstance(a, ast.Starred) for a in call.args):
        return None
    cur = parents.get(stmt)
    while cur is not None and not isinstance(cur, (ast.For, ast.While, ast.FunctionDef, ast.AsyncFunctionDef)):
        cur = parents.get(cur)
    return position if isinstance(cur, (ast.For, ast.While)) else None


@dataclass(frozen=True)
class _LoopCalls:
    """The calls of part of a module that may run a loop body, each in the order of `nodes(ast.Call)` (see
    `KeyFlow.loop_calls`). They follow from the part's nodes and the imports alone (the scope a call sits in and
    what its callee names, as in traced._CallIndex): kept across versions while the imports are the same."""

    lax: tuple[ast.Call, ...]  # `lax.fori_loop(0, n, body, init)`: a call of a `_LAX_LOOPS` function
    candidates: tuple[ast.Call, ...]  # those and `carry = body(carry, ...)` in a Python loop (_python_loop_carry)

    @staticmethod
    def of(model: KeyFlow, calls: list[ast.Call]) -> _LoopCalls:
        lax: list[ast.Call] = []
        candidates: list[ast.Call] = []
        scopes = model.scopes
        for call in calls:
            if scopes.qualname(call.func, _scope_of(model, call)) in _LAX_LOOPS:
                lax.append(call)
                candidates.append(call)
            elif _python_loop_carry(scopes.parents, call) is not None:
                candidates.append(call)
        return _LoopCalls(tuple(lax), tuple(candidates))


def _carried_key_uses(model: KeyFlow, body: FunctionInfo, carry: str, scan: bool) -> list[tuple[ast.AST, str]]:
    """The keys `body` consumes on every path that it read from its carry parameter and hands back unchanged."""
    node = body.node
    assert isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
    own = model.scopes.own_nodes(body)
    stores: dict[str, int] = {}
    for n in own:
        if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load):
            stores[n.id] = stores.get(n.id, 0) + 1
    unpacked: dict[str, int] = {}  # `key, x = carry`: name -> position
    for n in own:
        if (isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], (ast.Tuple, ast.List))
                and isinstance(n.value, ast.Name) and n.value.id == carry and n in node.body):
            for i, e in enumerate(n.targets[0].elts):
                if isinstance(e, ast.Name) and stores.get(e.id) == 1:
                    unpacked[e.id] = i
    returns = [n for n in own if isinstance(n, ast.Return)]
    if not returns or any(r.value is None for r in returns) or any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in own):
        return []
    if not isinstance(node.body[-1], (ast.Return, ast.Raise)):
        return []  # may fall off the end
    found: list[tuple[ast.AST, str]] = []
    for n in own:
        if not isinstance(n, ast.Call):
            continue
        key, how = model.random_key_arg(n, body)
        if key is None or how == "derive" or not _runs_always(model, n, node, node.body):
            continue
        path: tuple[object, ...] | None
        if isinstance(key, ast.Name) and key.id in unpacked:
            path = (unpacked[key.id],)
            label = key.id
        else:
            path = _carry_path(key, carry)
            label = _chain_label(key) or ""
        if path is None or not label:
            continue
        if isinstance(key, ast.Name) and key.id == carry and stores.get(carry):
            continue
        if all(_hands_back(model, body, carry, _returned_carry(r.value, scan), path, unpacked, stores, 0)
               for r in returns):
            found.append((key, label))
    return found


def _carry_path(key: ast.AST, carry: str) -> tuple[object, ...] | None:
    """`val["key"]` -> ("key",), `carry[0]` -> (0,), `state.rng` -> (".rng",), `carry` -> (): the key's place in
    the carry named `carry`; None when it is not read from it."""
    parts: list[object] = []
    cur = key
    while True:
        if isinstance(cur, ast.Attribute):
            parts.append(f".{cur.attr}")
            cur = cur.value
        elif isinstance(cur, ast.Subscript) and isinstance(cur.slice, ast.Constant) and (
                type(cur.slice.value) is int or isinstance(cur.slice.value, str)):
            parts.append(cur.slice.value)
            cur = cur.value
        else:
            break
    if not (isinstance(cur, ast.Name) and cur.id == carry):
        return None
    return tuple(reversed(parts))


def _returned_carry(value: ast.AST | None, scan: bool) -> ast.AST | None:
    if not scan:
        return value
    if isinstance(value, ast.Tuple) and len(value.elts) == 2:
        return value.elts[0]
    return None


def _hands_back(model: KeyFlow, body: FunctionInfo, carry: str, returned: ast.AST | None, path: tuple[object, ...],
                unpacked: dict[str, int], stores: dict[str, int], depth: int) -> bool:
    """Whether the returned carry surely holds, at `path`, the key the body read there."""
    if returned is None or depth > 4:
        return False
    if isinstance(returned, (ast.Tuple, ast.List)):
        if not path or type(path[0]) is not int or path[0] >= len(returned.elts) or any(
                isinstance(e, ast.Starred) for e in returned.elts):
            return False
        element = returned.elts[path[0]]  # type: ignore[index]
        # `key, x = carry` ... `return key, x2`: the name is bound once, by the unpacking (another element
        # handed on, `carry[0]` as is, is not followed)
        return len(path) == 1 and isinstance(element, ast.Name) and unpacked.get(element.id) == path[0]
    if not (isinstance(returned, ast.Name) and returned.id == carry):
        return False
    return _carry_kept(model, body, carry, path, depth)


def _carry_kept(model: KeyFlow, body: FunctionInfo, carry: str, path: tuple[object, ...], depth: int) -> bool:
    """The carry parameter, returned as it is: nothing in the body rebinds it (except a lax loop that keeps the
    place), stores at the path or above it, calls a mutating method on it, or hands it to a function that could
    change it."""
    scopes = model.scopes
    node = body.node
    assert isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
    for n in walk_nodes(node):
        if n is node:
            continue
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            info = scopes.functions.get(n)
            if info is not None and carry in info.local_names:
                continue  # its own `val`
        if isinstance(n, ast.Name) and n.id == carry and not isinstance(n.ctx, ast.Load):
            stmt = scopes.parents.get(n)
            if not (isinstance(stmt, ast.Assign) and _loop_keeps(model, body, stmt.value, carry, path, depth)):
                return False
        elif isinstance(n, (ast.Subscript, ast.Attribute)) and not isinstance(n.ctx, ast.Load):
            place = _carry_path(n, carry)
            if place is not None and place == path[:len(place)]:
                return False  # val["key"] = ..., or a store above it
        elif isinstance(n, ast.Call):
            func = n.func
            place = _carry_path(func.value, carry) if isinstance(func, ast.Attribute) and func.attr in _MUTATORS else None
            if place is not None and place == path[:len(place)]:
                return False  # val.update(...): the place may change (val["perms"].append(...) leaves it)
            handed = [a for a in [*n.args, *(k.value for k in n.keywords)]
                      if isinstance(a, ast.Name) and a.id == carry]
            if handed:
                q = scopes.qualname(func, body) or ""
                if q not in _CARRY_SAFE and q not in _LAX_LOOPS:
                    return False
        elif isinstance(n, (ast.Delete, ast.AugAssign)) and any(
                (p := _carry_path(t, carry)) is not None and p == path[:len(p)]
                for t in (n.targets if isinstance(n, ast.Delete) else [n.target])):
            return False
    return True


def _loop_keeps(model: KeyFlow, body: FunctionInfo, value: ast.AST, carry: str, path: tuple[object, ...],
                depth: int) -> bool:
    """`val = lax.fori_loop(lo, hi, inner, val)` (or while_loop) whose body hands the place back unchanged."""
    if not isinstance(value, ast.Call):
        return False
    q = model.scopes.qualname(value.func, body)
    if q not in ("jax.lax.while_loop", "jax.lax.fori_loop"):
        return False
    body_at, body_kw, carry_at, _, init_at, init_kw = _LAX_LOOPS[q]
    init = _loop_argument(value, init_at, init_kw)
    if not (isinstance(init, ast.Name) and init.id == carry):
        return False
    inner = model.scopes.resolve_function(_loop_argument(value, body_at, body_kw) or value, body)
    if inner is None or isinstance(inner.node, ast.Lambda):
        return False
    positional = [p.arg for p in [*inner.node.args.posonlyargs, *inner.node.args.args]]
    if carry_at >= len(positional) or not isinstance(inner.node.body[-1], ast.Return):
        return False
    name = positional[carry_at]
    returns = [n for n in model.scopes.own_nodes(inner) if isinstance(n, ast.Return)]
    return bool(returns) and all(isinstance(r.value, ast.Name) and r.value.id == name for r in returns) and \
        _carry_kept(model, inner, name, path, depth + 1)
