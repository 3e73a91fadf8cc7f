"""Value kinds: at each use of a name, is the value a JAX array, a NumPy array, a PRNG key, a Python container, a
plain Python value, or unknown? Found by a small forward dataflow over each scope. Rules only warn on kinds they
know: UNKNOWN never produces a finding."""

from __future__ import annotations

import ast
import enum
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sharpbits.analysis.flow import ForwardFlow
from sharpbits.analysis.records import array_annotation, declared_fields, field_annotation, holder_class
from sharpbits.analysis.scopes import FunctionInfo, Scopes
from sharpbits.analysis.syntax import (
    CHILD_FIELDS,
    child_fields_of,
    iter_children,
    parameter_defaults,
    walk_nodes,
)
from sharpbits.analysis.traced import Provenance, TracedCode, TraceSite

if TYPE_CHECKING:
    from sharpbits.analysis.project_index import ProjectView


class Kind(enum.Enum):
    JAX = "jax array"
    JAX_MASK = "jax boolean array"  # a traced comparison or logical result: indexing with it is value-dependent
    NUMPY = "numpy array"
    KEY = "prng key"
    CONTAINER = "python container"
    PYTHON = "python value"
    FUNCTION = "function"
    MODULE = "module"
    JAX_AT = "jax .at indexer"
    REF = "jax mutable reference"  # jax.new_ref(...): written in place with ref[...] = v, by design
    UNKNOWN = "unknown"


# jax.tree.map and its spellings: the function is called once per leaf, with the leaves of the trees.
TREE_MAPS = {"jax.tree.map", "jax.tree_util.tree_map", "jax.tree_map"}

# Functions under jax.numpy that return Python values (static under jit), not arrays.
_JNP_STATIC = {"shape", "ndim", "size", "dtype", "result_type", "issubdtype", "iinfo", "finfo", "isdtype",
               "can_cast", "promote_types", "broadcast_shapes", "iscomplexobj", "isrealobj", "isscalar"}
# Traced arrays of either kind: what most questions mean by "a JAX array".
ARRAYS = frozenset({Kind.JAX, Kind.JAX_MASK})
# jax.numpy functions whose result is a boolean array
BOOL_FUNCS = {
    f"jax.numpy.{name}"
    for name in ("isnan", "isinf", "isfinite", "isposinf", "isneginf", "logical_and", "logical_or", "logical_not",
                 "logical_xor", "isclose", "signbit", "greater", "greater_equal", "less", "less_equal", "equal",
                 "not_equal", "isin", "iscomplex", "isreal")
}
# JAX functions outside jax.numpy that give Python values (ints, device lists, pytree leaves), not arrays.
_JAX_PYTHON_VALUED = {"jax.lax.axis_size", "jax.lax.broadcast_shapes", "jax.device_count", "jax.local_device_count", "jax.process_index",
                      "jax.process_count", "jax.default_backend", "jax.dtypes.canonicalize_dtype",
                      "jax.tree_util.tree_structure", "jax.tree.structure", "jax.core.get_aval"}
_JAX_CONTAINER_VALUED = {"jax.devices", "jax.local_devices", "jax.tree_util.tree_leaves", "jax.tree.leaves",
                         "jax.tree_util.tree_flatten", "jax.tree.flatten", "jax.eval_shape"}
# Transformations that give the gradient of a function (with the structure of the differentiated argument), those
# that give (value, gradient), and those whose results are what the function returns (mapped or compiled).
_GRADIENT_TRANSFORMS = {"jax.grad", "jax.jacfwd", "jax.jacrev", "jax.jacobian", "jax.hessian",
                        "equinox.filter_grad", "flax.nnx.grad"}
_VALUE_AND_GRAD_TRANSFORMS = {"jax.value_and_grad", "equinox.filter_value_and_grad", "flax.nnx.value_and_grad"}
_RESULT_KEEPING_TRANSFORMS = {"jax.vmap", "jax.pmap", "jax.jit", "jax.checkpoint", "jax.remat",
                              "jax.ad_checkpoint.checkpoint", "equinox.filter_jit", "equinox.filter_vmap",
                              "flax.nnx.jit", "flax.nnx.vmap"}
_REF_MAKERS = {"jax.new_ref", "jax.array_ref", "jax.experimental.mutable_array", "jax.ref.new_ref"}
# Methods of a boolean array that keep it boolean.
_MASK_KEEPING_METHODS = {"any", "all", "copy", "reshape", "ravel", "flatten", "squeeze", "transpose", "swapaxes",
                         "block_until_ready"}
# Array attributes and methods that give Python values.
ARRAY_STATIC_ATTRS = {"shape", "ndim", "dtype", "size", "itemsize", "nbytes", "sharding", "weak_type"}
# Counters in optax's states (`ScaleByAdamState.count`, `MultiStepsState.mini_step`, `ApplyIfFiniteState`'s):
# JAX integer arrays, tracers in a jitted step (checked on optax 0.2.8: `if opt_state.mini_step == 0:` after
# `opt.update` in a jitted step raises TracerBoolConversionError)
_OPTAX_STATE_COUNTERS = frozenset({"count", "mini_step", "gradient_step", "notfinite_count", "last_finite",
                                   "total_notfinite"})
_VIEW_ATTRS = {"at", "T", "mT", "real", "imag"}  # array attributes that give arrays
# Layers of the neural-network libraries that, called on an array, return one array (not a cell's `(carry, y)`,
# not Equinox's `BatchNorm`, which returns `(y, state)`, not containers of layers such as `Sequential`).
ARRAY_LAYERS = frozenset({
    "Linear", "Dense", "DenseGeneral", "LinearGeneral", "Einsum", "Conv", "ConvTranspose", "ConvLocal", "Conv1d",
    "Conv2d", "Conv3d", "Conv1D", "Conv2D", "Conv3D", "Conv1DTranspose", "Conv2DTranspose", "Conv3DTranspose",
    "ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d", "Embed", "Embedding", "LayerNorm", "RMSNorm",
    "GroupNorm", "BatchNorm", "Dropout", "MultiHeadAttention", "MultiHeadDotProductAttention", "SelfAttention",
    "MultiheadAttention", "MLP",
})
_LAYER_LIBRARIES = ("flax.nnx.", "flax.linen.", "equinox.nn.", "haiku.", "haiku.nets.")


def is_array_layer(q: str | None) -> bool:
    """`q` names a layer of `ARRAY_LAYERS` in Flax (NNX or linen), Equinox or Haiku."""
    if q is None or "." not in q:
        return False
    library, name = q.rsplit(".", 1)
    return name in ARRAY_LAYERS and f"{library}." in _LAYER_LIBRARIES and not (
        library == "equinox.nn" and name == "BatchNorm")


_ARRAY_PY_METHODS = {"item", "tolist", "tobytes", "__len__", "devices"}
# The methods of jax.Array. A value assumed to be an array (a traced function's parameter) on which another
# method is called is no array but an object pytree.
_ARRAY_METHODS = {
    "all", "any", "argmax", "argmin", "argpartition", "argsort", "astype", "block_until_ready", "choose", "clip",
    "compress", "conj", "conjugate", "copy", "copy_to_host_async", "cumprod", "cumsum", "delete", "device", "devices",
    "diagonal", "dot", "flatten", "is_deleted", "is_fully_addressable", "is_fully_replicated", "item", "max", "mean",
    "min", "nonzero", "prod", "ptp", "ravel", "repeat", "reshape", "round", "searchsorted", "sort", "squeeze", "std",
    "sum", "swapaxes", "take", "to_device", "tobytes", "tolist", "trace", "transpose", "var", "view",
    "addressable_data", "on_device_size_in_bytes", "unsafe_buffer_pointer", "__array__", "__jax_array__", "__len__",
    "__getitem__", "__abs__", "__neg__",
}
# NumPy functions that call the argument's own method when it is no NumPy array (`np.std(x)` is `x.std()`, NumPy's
# `_wrapreduction`/`_wrapfunc`): given a JAX array they return a JAX array, a tracer under jit (checked on
# jax 0.10.2 / NumPy 2: `np.std(h)` in a `jax.checkpoint` body gives a JitTracer).
NUMPY_DELEGATING_ARRAY = frozenset({
    "all", "amax", "amin", "any", "argmax", "argmin", "argsort", "around", "cumprod", "cumsum", "max", "mean", "min",
    "prod", "round", "squeeze", "std", "sum", "transpose", "var", "reshape", "swapaxes", "repeat",
})
_KEY_MAKERS = {"jax.random.key", "jax.random.PRNGKey", "jax.random.split", "jax.random.fold_in",
               "jax.random.wrap_key_data", "jax.random.clone"}
_JAX_ARRAY_MODULES = ("jax.numpy.", "jax.lax.", "jax.nn.", "jax.scipy.", "jax.random.", "jax.image.",
                      "jax.ops.", "jax.numpy.linalg.", "jax.numpy.fft.")
_JAX_ARRAY_FUNCS = {"jax.device_put", "jax.block_until_ready", "jax.pure_callback",
                    # in a Pallas kernel: the grid position (an int32 array of shape (), traced also with
                    # `interpret=True`), and what `pl.load` reads from a ref (`pl.num_programs` is a Python int
                    # for a static grid: not listed)
                    "jax.experimental.pallas.program_id", "jax.experimental.pallas.load"}
# optax's losses: jax.numpy computations on their arguments, each giving one JAX array (per example, or reduced),
# so a tracer inside traced code (checked on optax 0.2.8 under jax.jit: `per_tok[labels != 0]` on
# `softmax_cross_entropy_with_integer_labels(...)` raises NonConcreteBooleanIndexError).
_OPTAX_LOSSES = ("convex_kl_divergence", "cosine_distance", "cosine_similarity", "ctc_loss", "generalized_kl_divergence",
                 "hinge_loss", "huber_loss", "kl_divergence", "kl_divergence_with_log_targets", "l2_loss", "log_cosh",
                 "ntxent", "safe_softmax_cross_entropy", "sigmoid_binary_cross_entropy", "sigmoid_focal_loss",
                 "softmax_cross_entropy", "softmax_cross_entropy_with_integer_labels", "squared_error",
                 "binary_dice_loss", "dice_loss", "multiclass_hinge_loss", "multiclass_perceptron_loss",
                 "multiclass_sparsemax_loss", "perceptron_loss", "poly_loss_cross_entropy", "ranking_softmax_loss",
                 "sparsemax_loss", "triplet_margin_loss")
_JAX_ARRAY_FUNCS |= {f"{lib}.{name}" for lib in ("optax", "optax.losses") for name in _OPTAX_LOSSES}
_PY_BUILTINS_PYTHON = {"len", "int", "float", "bool", "str", "range", "isinstance", "hash", "id", "repr",
                       "enumerate", "zip", "reversed", "min", "max", "sum", "abs", "round"}
_PY_BUILTINS_CONTAINER = {"list", "dict", "tuple", "set", "frozenset", "sorted"}
# Methods that show a parameter is a Python container (dict/list pytree), not an array.
_CONTAINER_METHODS = {"items", "keys", "values", "append", "extend", "get", "update", "pop", "setdefault",
                      "insert", "remove", "popitem", "copy_from"}
# Every public attribute of a JAX array, concrete or traced (`dir(jax.Array)`, of an array and of `core.Tracer`
# on jax 0.10.2, and the tracers' own `primal`/`tangent`/`val`): a value read for any other attribute is no array
JAX_ARRAY_ATTRIBUTES = frozenset({
    "T", "addressable_data", "addressable_shards", "all", "any", "argmax", "argmin", "argpartition", "argsort",
    "astype", "at", "aval", "block_until_ready", "byteswap", "choose", "clip", "clone", "committed", "compress", "conj",
    "conjugate", "copy", "copy_to_host_async", "cumprod", "cumsum", "delete", "device", "device_buffer",
    "device_buffers", "devices", "diagonal", "dimension_as_value", "dot", "dtype", "flat", "flatten", "format",
    "full_lower", "get_referent", "global_shards", "imag", "is_deleted", "is_fully_addressable",
    "is_fully_replicated", "is_ready", "item", "itemsize", "mT", "max", "mean", "min", "nbytes", "ndim", "nonzero",
    "on_device_size_in_bytes", "platform", "prod", "ptp", "ravel", "real", "repeat", "reshape", "round",
    "searchsorted", "shape", "sharding", "size", "sort", "squeeze", "std", "sum", "swapaxes", "take",
    "to_concrete_value", "to_device", "tobytes", "tolist", "trace", "traceback", "transpose", "unsafe_buffer_pointer",
    "var", "view", "weak_type", "primal", "tangent", "val",
})


def _array_attribute(attr: str) -> bool:
    """Whether a JAX array may have the attribute (private and special names: not known, so yes)."""
    return attr in JAX_ARRAY_ATTRIBUTES or attr.startswith("_")


class ValueKinds:
    """The value-kind part of ModuleModel (see model.py)."""

    name_kinds: dict[int, Kind]
    module_env: dict[str, Kind]
    _returns: dict[tuple[int, tuple[tuple[str, str], ...]], tuple[Kind, tuple[Kind, ...] | None] | None]
    _attribute_kinds: dict[str, dict[str, Kind]]

    def __init__(self, scopes: Scopes, traced: TracedCode, project: ProjectView | None = None) -> None:
        """Runs the dataflow of the module and of every function (taking an earlier version's flows where
        `scopes.reusable` has them and everything they read is the same). `project`: the module's window on the
        project index (what classes of other modules define), or None."""
        self.scopes = scopes
        self.traced = traced
        self.project = project
        self.name_kinds = {}  # id(ast.Name load) -> kind at that point
        self.module_env = {}
        self._returns = {}
        self._attribute_kinds = {}
        self._container_names: dict[int, frozenset[str]] = {}
        self._field_names: frozenset[str] | None = None
        self._layer_attributes: dict[str, dict[str, bool]] = {}
        self._imports_layers: bool | None = None
        self._run_dataflow(scopes.reusable.flows if scopes.reusable is not None else None)

    def kind_of(self, node: ast.AST, scope: FunctionInfo | None) -> Kind:
        """The kind of an expression, using the recorded kinds of the names it reads."""
        return _KindEvaluator(self, scope, None).eval(node)

    def kind_at(self, name: ast.Name) -> Kind:
        return self.name_kinds.get(id(name), Kind.UNKNOWN)

    def container_names(self, fn: FunctionInfo) -> frozenset[str]:
        """The names a function's own code uses the way only a container or an optional value is used: unpacked
        (`a, b = name`), iterated (`for x in name`) or compared with `is`/`is not` (`name is None`)."""
        kept = self._container_names.get(id(fn.node))
        if kept is None:
            found: set[str] = set()
            for n in self.scopes.own_nodes(fn):
                if isinstance(n, ast.Assign) and isinstance(n.value, ast.Name) and any(
                        isinstance(t, (ast.Tuple, ast.List)) for t in n.targets):
                    found.add(n.value.id)
                elif isinstance(n, (ast.For, ast.comprehension)) and isinstance(n.iter, ast.Name):
                    found.add(n.iter.id)
                elif isinstance(n, ast.Compare) and any(isinstance(op, (ast.Is, ast.IsNot)) for op in n.ops):
                    found.update(side.id for side in (n.left, *n.comparators) if isinstance(side, ast.Name))
            kept = self._container_names[id(fn.node)] = frozenset(found)
        return kept

    def used_as_array(self, fn: FunctionInfo, name: str) -> bool:
        """Whether a parameter is used the way only an array is: `x @ w`, `x.shape`, `x.T`, `jnp.f(x)`. A
        parameter may otherwise be a pytree (a list of layers), which a loop over it walks, not unrolls."""
        for node in self.scopes.own_nodes(fn):
            if isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult):
                if any(isinstance(side, ast.Name) and side.id == name for side in (node.left, node.right)):
                    return True
            elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == name:
                if node.attr in ARRAY_STATIC_ATTRS or node.attr in ("T", "mT", "at", "astype", "reshape"):
                    return True
            elif isinstance(node, ast.Call) and any(isinstance(a, ast.Name) and a.id == name for a in node.args):
                q = self.scopes.qualname(node.func, fn)
                if q is not None and q.startswith(("jax.numpy.", "jax.lax.", "jax.nn.")):
                    return True
        return False

    def touches_traced(self, statements: list[ast.stmt], scope: FunctionInfo | None) -> bool:
        """Whether running these statements under a trace adds to it: they read a JAX array or key, or call a
        JAX function that makes one. Statements that only do Python work (shapes, axes, pytree structure) or
        work on values of unknown kind do not count."""
        traced_kinds = (Kind.JAX, Kind.JAX_MASK, Kind.KEY, Kind.JAX_AT)
        for stmt in statements:
            for node in walk_nodes(stmt):
                if isinstance(node, ast.Name):
                    if isinstance(node.ctx, ast.Load) and self.kind_at(node) in traced_kinds:
                        parent = self.scopes.parents.get(node)
                        if isinstance(parent, ast.Attribute) and parent.attr in ARRAY_STATIC_ATTRS:
                            continue  # x.shape, x.ndim: static facts, no equation
                        return True
                elif isinstance(node, ast.Call):
                    q = self.scopes.qualname(node.func, scope)
                    if q is not None and q.startswith("jax.") and qualified_call_kind(q) in traced_kinds:
                        return True
        return False
    # ---- value kinds -----------------------------------------------------------------------------------

    def _run_dataflow(self, reusable: FunctionFlows | None = None) -> None:
        """`reusable`: the flows of an earlier version's functions (analysis/reuse.py), taken where everything
        a flow read is the same; the kinds come out the same with or without it."""
        module_flow = _Flow(self, None, {})
        module_flow.run_body(self.scopes.tree.body)
        self.module_env = module_flow.env
        if reusable is not None:
            reusable.begin(self)
        # Functions in definition order; nested functions see their parent's environment at the end of the
        # parent (closures read the latest binding), helpers see the kinds their traced callers pass.
        ordered = sorted(self.scopes.functions.values(), key=lambda f: (_depth(f), _helper_rank(f)))
        final_envs: dict[int, dict[str, Kind]] = {}
        for info in ordered:
            info.param_kinds = self._param_kinds(info)
            closure = final_envs.get(id(info.parent), {}) if info.parent is not None else {}
            if reusable is not None:
                final_envs[id(info)] = reusable.flow(self, info, closure)
            else:
                final_envs[id(info)] = self.function_flow(info, closure, self.name_kinds)
        if reusable is not None:
            reusable.commit(self)
        # a helper called from traced code nested deeper than itself (`jax.vmap(lambda y0, ts: solve(ts, y0))` in a
        # driver) ran before its caller: its parameters now get the kinds that caller passes, and its body runs again
        for info in ordered:
            if _helper_rank(info) and any(_depth(caller) > _depth(info) for caller, _ in self.traced.calls_from_traced(info)):
                kinds = self._param_kinds(info)
                if kinds != info.param_kinds:
                    info.param_kinds = kinds
                    closure = final_envs.get(id(info.parent), {}) if info.parent is not None else {}
                    final_envs[id(info)] = self.function_flow(info, closure, self.name_kinds)

    def function_flow(self, info: FunctionInfo, closure: dict[str, Kind], record: dict[int, Kind],
                      log: list[tuple] | None = None) -> dict[str, Kind]:
        """Runs the dataflow of one function's body, recording the kind at each name read into `record`;
        returns the environment at its end (what nested functions' closures see). `log`: where to append what
        the flow asks of the rest of the module (see `_query_log`), for FunctionFlows below."""
        if log is not None:
            self._query_log = log
            try:
                return self.function_flow(info, closure, record)
            finally:
                self._query_log = None
        flow = _Flow(self, info, {**closure, **info.param_kinds})
        flow.record = record
        if isinstance(info.node, ast.Lambda):
            flow.visit_expr(info.node.body)
        else:
            flow.run_body(info.node.body)
        return flow.env

    # What a function's flow asks of the rest of the module, in order, while `_query_log` is a list (see
    # analysis/reuse.py): module_functions lookups, return_kinds and instance_attribute_kind answers.
    # Queries made while answering one are not logged: they follow from it.
    _query_log: list[tuple] | None = None

    def flow_records(self, fn: FunctionInfo) -> dict[int, Kind]:
        """The kinds the flow of `fn` recorded in this version (id(ast.Name) -> kind), as kept for the next
        version ({} when nothing is kept: an analysis from scratch)."""
        flows = self.scopes.reusable.flows if self.scopes.reusable is not None else None
        return (flows.records(fn.node) if flows is not None else None) or {}

    def log_lookup(self, name: str, fn: FunctionInfo | None) -> None:
        """A flow looked up the module-level function `name` (and found `fn`): logged while a log is kept."""
        if self._query_log is not None:
            self._query_log.append(("lookup", name, fn.node if fn is not None else None))

    def _logged(self, entry: tuple, answer: Callable[[], object]) -> object:
        log = self._query_log
        assert log is not None
        self._query_log = None
        try:
            result = answer()
        finally:
            self._query_log = log
        log.append((*entry, result))
        return result

    def instance_attribute_kind(self, scope: FunctionInfo, attr: str) -> Kind:
        """The kind of `self.attr` in a method: what every `self.attr = value` in the class's methods stores (and
        a class-body field declared `jax.Array`), when they agree and the value's kind shows without knowing any
        name (`jnp.zeros(...)`); else UNKNOWN."""
        if self._query_log is not None:
            return self._logged(("attribute", scope.node, attr),  # type: ignore[return-value]
                                lambda: self._instance_attribute_kind(scope, attr))
        return self._instance_attribute_kind(scope, attr)

    def _instance_attribute_kind(self, scope: FunctionInfo, attr: str) -> Kind:
        method = scope.outermost
        if "." not in method.qualname:
            return Kind.UNKNOWN
        owner = method.qualname.rsplit(".", 1)[0]
        table = self._attribute_kinds.get(owner)
        if table is None:
            table = self._attribute_kinds[owner] = {}
            seen: dict[str, set[Kind]] = {}
            for fn in self._methods_of(owner):
                evaluator = _KindEvaluator(self, fn, {})
                for node in self.scopes.own_nodes(fn):
                    if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                        for target in targets:
                            if (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)
                                    and target.value.id == "self"):
                                kind = evaluator.eval(node.value) if node.value is not None and not isinstance(
                                    node, ast.AugAssign) else Kind.UNKNOWN
                                seen.setdefault(target.attr, set()).add(kind)
            # a field the class body declares `jax.Array` (a dataclass, an Equinox module): `cells: jax.Array =
            # field(default_factory=...)` holds a JAX array, whatever sets it
            cls = self.scopes.module_classes().get(owner)
            for stmt in cls.body if cls is not None else ():
                if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and _declares_jax_array(
                        stmt.annotation):
                    seen.setdefault(stmt.target.id, set()).add(Kind.JAX)
            for name, kinds in seen.items():
                table[name] = kinds.pop() if len(kinds) == 1 else Kind.UNKNOWN
        return table.get(attr, Kind.UNKNOWN)

    def layer_attribute(self, scope: FunctionInfo, attr: str) -> bool:
        """Whether `self.attr`, in a method of a class of this module, is a neural-network layer (`ARRAY_LAYERS`):
        every store of the attribute in the class's methods is `self.attr = <layer>(...)`, and there is one."""
        if self._query_log is not None:
            return self._logged(("layer", scope.node, attr),  # type: ignore[return-value]
                                lambda: self._layer_attribute(scope, attr))
        return self._layer_attribute(scope, attr)

    def _layer_attribute(self, scope: FunctionInfo, attr: str) -> bool:
        method = scope.outermost
        if "." not in method.qualname or method.params[:1] != ["self"]:
            return False
        owner = method.qualname.rsplit(".", 1)[0]
        table = self._layer_attributes.get(owner)
        if table is None:  # every attribute of the class at once: asked per method call on `self`
            table = self._layer_attributes[owner] = {}
            for fn in self._methods_of(owner):
                for node in self.scopes.own_nodes(fn):
                    if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                            and node.value.id == "self" and not isinstance(node.ctx, ast.Load)):
                        assign = self.scopes.parents.get(node)
                        layer = isinstance(assign, ast.Assign) and assign.targets == [node] and isinstance(
                            assign.value, ast.Call) and is_array_layer(self.scopes.qualname(assign.value.func, fn))
                        table[node.attr] = table.get(node.attr, True) and layer
        return table.get(attr, False)

    def imports_layers(self) -> bool:
        """Whether the module imports Flax, Equinox or Haiku (where a layer may be called)."""
        if self._imports_layers is None:
            self._imports_layers = any(q.split(".")[0] in ("flax", "equinox", "haiku")
                                       for q in self.scopes.aliases.values())
        return self._imports_layers

    def record_field_kind(self, scope: FunctionInfo, holder: str, attr: str, traced_holder: bool) -> Kind:
        """The kind of `holder.attr` where `holder` holds an object of a record class of this module
        (analysis/records.py) that declares the field `attr`: JAX when the declaration names a JAX array
        (`obs: jnp.ndarray`, `x: jax.Array`), and, for a holder that is a traced pytree (`traced_holder`: a
        `while_loop` condition's carry, a jitted function's argument), any array-like leaf (`chex.Array`,
        `np.ndarray`): every leaf of a traced pytree is a tracer (checked on jax 0.10.2: `s.err > tol and ...`
        in a `while_loop` condition on a NamedTuple state raises TracerBoolConversionError). UNKNOWN otherwise."""
        if self._query_log is not None:
            return self._logged(("field", scope.node, holder, attr, traced_holder),  # type: ignore[return-value]
                                lambda: self._record_field_kind(scope, holder, attr, traced_holder))
        return self._record_field_kind(scope, holder, attr, traced_holder)

    def _record_field_kind(self, scope: FunctionInfo, holder: str, attr: str, traced_holder: bool) -> Kind:
        fields = self._declared_field_names()
        if attr not in fields:
            return Kind.UNKNOWN
        cls = holder_class(self.scopes, self.traced, holder, scope)
        annotation = field_annotation(self.scopes, cls, attr) if cls is not None else None
        return Kind.JAX if array_annotation(self.scopes, annotation, leaf=traced_holder) else Kind.UNKNOWN

    def _declared_field_names(self) -> frozenset[str]:
        """The names of the fields the module's classes declare (a quick answer for every other attribute)."""
        if self._field_names is None:
            self._field_names = frozenset(name for cls in self.scopes.module_classes().values()
                                          for name in declared_fields(cls))
        return self._field_names

    def _methods_of(self, owner: str) -> list[FunctionInfo]:
        """The methods a top-level class `owner` of the module defines in its body."""
        return [fn for fn in self.scopes.functions.values() if fn.parent is None and fn.qualname.startswith(owner + ".")
                and "." not in fn.qualname[len(owner) + 1:]]

    def carry_elements(self, scope: FunctionInfo, name: str) -> tuple[Kind, ...] | None:
        """The kind of each element of the carry parameter `name` of a `lax.scan`/`fori_loop`/`while_loop`
        body (or `while_loop` condition) when every loop tracing it starts from a tuple or list display of one
        length (`lax.scan(body, (jnp.zeros(n), 0), xs)`): the body gets that structure back with every leaf a
        tracer, a Python number included (checked on jax 0.10.2: `buf, i = carry` then `buf[i] = x` raises
        TypeError, JAX arrays are immutable). A display element stays a container; an element of unknown kind
        stays unknown. None when the name is not such a carry or is rebound in the body."""
        if self._query_log is not None:
            return self._logged(("carry", scope.node, name),  # type: ignore[return-value]
                                lambda: self._carry_elements(scope, name))
        return self._carry_elements(scope, name)

    def _carry_elements(self, info: FunctionInfo, name: str) -> tuple[Kind, ...] | None:
        if isinstance(info.node, ast.Lambda) or any(
                isinstance(n, ast.Name) and n.id == name and not isinstance(n.ctx, ast.Load)
                for n in self.scopes.own_nodes(info)):
            return None
        residuals = self._residual_elements(info, name)
        found = residuals if residuals is not None else self._loop_carry_elements(info, name)
        return None if found is None else self._leaf_evidence(info, name, found)

    def _residual_elements(self, info: FunctionInfo, name: str) -> tuple[Kind, ...] | None:
        """The residuals parameter of a `custom_vjp` backward rule when every `return` of its fwd rule is a pair
        whose second element is a tuple display of one length (`return y, (x, y)`): bwd gets that structure, each
        array of it an array (a tracer without a value where the differentiation is traced). A container stays
        one; anything else (a NumPy array, a Python number) is not known."""
        source = self.traced.residual_source(info)
        positional = [p.arg for p in [*info.node.args.posonlyargs, *info.node.args.args]]  # type: ignore[union-attr]
        if source is None or source[1] >= len(positional) or positional[source[1]] != name:
            return None
        fwd = source[0]
        if isinstance(fwd.node, ast.Lambda):
            return None
        returns = [n for n in self.scopes.own_nodes(fwd) if isinstance(n, ast.Return)]
        found: tuple[Kind, ...] | None = None
        for ret in returns:
            value = ret.value
            if not (isinstance(value, ast.Tuple) and len(value.elts) == 2 and isinstance(value.elts[1], ast.Tuple)
                    and not any(isinstance(e, ast.Starred) for e in value.elts[1].elts)):
                return None
            kinds = tuple(k if k in (Kind.JAX, Kind.JAX_MASK, Kind.KEY, Kind.CONTAINER) else Kind.UNKNOWN
                          for k in (self.kind_of(e, fwd) for e in value.elts[1].elts))
            if found is not None and len(found) != len(kinds):
                return None
            found = kinds if found is None else tuple(a if a is b else Kind.UNKNOWN for a, b in zip(found, kinds, strict=True))
        return found

    def _loop_carry_elements(self, info: FunctionInfo, name: str) -> tuple[Kind, ...] | None:
        direct = [t for t in info.traces if not t.indirect]
        if not direct or any(
                t.provenance is not Provenance.LAX_BODY or not isinstance(t.node, ast.Call) for t in direct):
            return None
        positional = [p.arg for p in [*info.node.args.posonlyargs, *info.node.args.args]]
        found: tuple[Kind, ...] | None = None
        for site in direct:
            call = site.node
            assert isinstance(call, ast.Call)
            caller = self.scopes.enclosing_function(call)
            carry = _loop_carry(self.scopes.qualname(call.func, caller) or "", call, positional)
            if carry is None or carry[0] != name or not isinstance(carry[1], (ast.Tuple, ast.List)) or any(
                    isinstance(e, ast.Starred) for e in carry[1].elts):
                return None
            kinds = tuple(Kind.JAX if self._python_number(e, caller) else _carried_kind(e, self.kind_of(e, caller))
                          for e in carry[1].elts)
            if found is not None and len(found) != len(kinds):
                return None
            found = kinds if found is None else tuple(a if a is b else Kind.UNKNOWN for a, b in zip(found, kinds, strict=True))
        return found

    def _python_number(self, init: ast.AST, scope: FunctionInfo | None) -> bool:
        """A loop's initial element that is a Python float named by a library (`jnp.inf`, `np.nan`, `math.pi`,
        `-jnp.inf`) or spelled `float("inf")`: a leaf of the carry like a literal number, so a tracer in the body
        (checked on jax 0.10.2: `(jnp.abs(delta) > tol) and ...` in a `while_loop` condition whose carry starts
        at `(x0, jnp.inf, 0)` raises TracerBoolConversionError)."""
        if isinstance(init, ast.UnaryOp) and isinstance(init.op, (ast.USub, ast.UAdd)):
            init = init.operand
        if isinstance(init, ast.Call) and isinstance(init.func, ast.Name) and init.func.id == "float" and len(
                init.args) == 1 and isinstance(init.args[0], ast.Constant) and not self._shadowed_name("float", scope):
            return True
        return isinstance(init, ast.Attribute) and self.scopes.qualname(init, scope) in _PYTHON_FLOAT_CONSTANTS

    def _shadowed_name(self, name: str, scope: FunctionInfo | None) -> bool:
        cur = scope
        while cur is not None:
            if name in cur.local_names:
                return True
            cur = cur.parent
        return name in self.scopes.module_functions or name in self.scopes.aliases

    def _leaf_evidence(self, info: FunctionInfo, name: str, found: tuple[Kind, ...]) -> tuple[Kind, ...]:
        """An element of unknown kind that the function unpacks (`lo, hi, i = state`) to a name bound once and
        uses as a number (`hi - lo`, `x / n`, `-x`: operators no container, None or pytree of arrays has) is a
        leaf of the carried pytree, so an array: every leaf of a loop's carry (and of a bwd rule's residuals) is
        one, a traced one where the code is traced (checked on jax 0.10.2: `(hi - lo > tol) and ...` in a
        `while_loop` condition raises TracerBoolConversionError whatever `lo` and `hi` were passed as). Not when
        the name is also tested against None (`if lo is not None:`: the element may be None, the arithmetic not
        run)."""
        if Kind.UNKNOWN not in found:
            return found
        own = list(self.scopes.own_nodes(info))
        unpacked: list[list[str | None]] = []
        for n in own:
            if (isinstance(n, ast.Assign) and isinstance(n.value, ast.Name) and n.value.id == name
                    and len(n.targets) == 1 and isinstance(n.targets[0], (ast.Tuple, ast.List))
                    and len(n.targets[0].elts) == len(found)):
                unpacked.append([e.id if isinstance(e, ast.Name) else None for e in n.targets[0].elts])
        if not unpacked:
            return found
        stores: dict[str, int] = {}
        numeric: set[str] = set()
        tested: set[str] = set()
        for n in own:
            if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load):
                stores[n.id] = stores.get(n.id, 0) + 1
            elif isinstance(n, ast.BinOp) and isinstance(n.op, _NUMERIC_ONLY_OPS):
                sides = (n.left,) if isinstance(n.op, ast.Mod) else (n.left, n.right)  # "%d of %d" % pair
                numeric.update(side.id for side in sides if isinstance(side, ast.Name))
            elif isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.USub) and isinstance(n.operand, ast.Name):
                numeric.add(n.operand.id)
            elif isinstance(n, ast.Compare) and any(isinstance(op, (ast.Is, ast.IsNot)) for op in n.ops):
                tested.update(side.id for side in (n.left, *n.comparators) if isinstance(side, ast.Name))
        leaves = {i for names in unpacked for i, t in enumerate(names)
                  if t is not None and t in numeric and t not in tested and stores.get(t) == 1}
        return tuple(Kind.JAX if k is Kind.UNKNOWN and i in leaves else k for i, k in enumerate(found))

    def return_kinds(self, fn: FunctionInfo, args: dict[str, Kind]) -> tuple[Kind, tuple[Kind, ...] | None] | None:
        """The kind a function returns for these argument kinds (and, when every `return` gives a tuple of one
        length, the kind of each element), from a dry run of its body; None when it cannot be told."""
        if self._query_log is not None:
            return self._logged(("returns", fn.node, dict(args)),  # type: ignore[return-value]
                                lambda: self._return_kinds(fn, args))
        return self._return_kinds(fn, args)

    def _return_kinds(self, fn: FunctionInfo, args: dict[str, Kind]) -> tuple[Kind, tuple[Kind, ...] | None] | None:
        memo_key = (id(fn), tuple(sorted((k, v.value) for k, v in args.items())))
        if memo_key in self._returns:
            return self._returns[memo_key]
        self._returns[memo_key] = None  # a recursive call cannot be told
        if len(self._returns) > 2000:
            return None  # bounded work on generated code
        env = {p: Kind.UNKNOWN for p in fn.params}
        env.update({p: k for p, k in args.items() if p in env})
        flow = _Flow(self, fn, env, record={})
        flow.run_body(fn.node.body)  # type: ignore[arg-type]
        results = flow.returns or []
        if not results:
            return None
        kind = results[0][0]
        if any(k is not kind for k, _ in results):
            kind = Kind.UNKNOWN
        shapes = {len(e) if e is not None else -1 for _, e in results}
        elements = None
        if len(shapes) == 1 and -1 not in shapes:
            columns = zip(*(e for _, e in results if e is not None), strict=True)
            elements = tuple(c[0] if all(k is c[0] for k in c) else Kind.UNKNOWN for c in columns)
        self._returns[memo_key] = (kind, elements)
        return self._returns[memo_key]

    def _param_kinds(self, info: FunctionInfo) -> dict[str, Kind]:
        """The kind of each parameter on entry. For a function no transformation traces, it follows from the
        function's node alone (annotations, defaults, how the body uses it): kept per node across versions."""
        if info.traces or id(info) in self.traced.pallas_kernels():  # (a kernel: because of a call elsewhere)
            return self._parameter_kinds(info)
        # never changed once made: FunctionInfo.param_kinds is replaced, not updated
        return self.scopes.syntax_fact("untraced parameter kinds", info.node, self._parameter_kinds, info)

    def _parameter_kinds(self, info: FunctionInfo) -> dict[str, Kind]:
        kinds: dict[str, Kind] = {}
        a = info.node.args
        defaults = parameter_defaults(a)
        evidence, written_whole = self.scopes.syntax_fact("parameter evidence", info.node, _parameter_evidence, self, info)
        helper_calls = self.traced.calls_from_traced(info)
        directly_traced = any(not t.indirect for t in info.traces)
        passed_through = self.traced.passed_through_params(info) if directly_traced else set()
        if any(t.statics_unknown for t in info.traces):
            directly_traced = False  # static_argnums=<a variable>: which parameters are traced is not known
        unmapped = _unmapped_everywhere(info)
        containers = self._container_carries(info)
        kernel = id(info) in self.traced.pallas_kernels()
        for p in info.param_nodes:
            name = p.arg
            kind = Kind.UNKNOWN
            if p is a.vararg or p is a.kwarg or name in ("self", "cls"):
                kind = Kind.CONTAINER if (p is a.vararg or p is a.kwarg) else Kind.UNKNOWN
            elif name in info.static_params:
                kind = Kind.PYTHON
            elif kernel and (name not in defaults or _is_none(defaults[name])):
                # a Pallas kernel's inputs, outputs and scratch (`o_ref=None`: one passed only for some calls):
                # `o_ref[...] = v` is its store
                kind = Kind.REF
            elif name in evidence or name in containers:
                kind = Kind.CONTAINER
            elif info.traces and self._own_item_assignment(p.annotation):  # (untraced: kept per node, see above)
                kind = Kind.UNKNOWN  # `image: Image`, a class of this module with its own `__setitem__`: no array
            elif _annotation_kind(p.annotation) is not None:
                kind = _annotation_kind(p.annotation) or Kind.UNKNOWN
            elif name not in defaults and _declares_jax_array(p.annotation):
                kind = Kind.JAX  # `x: jax.Array` with no default: the caller hands a JAX array
            elif name in defaults and not _is_none(defaults[name]):
                kind = Kind.PYTHON if isinstance(defaults[name], ast.Constant) else Kind.UNKNOWN
            elif directly_traced and name not in passed_through and name not in unmapped:
                kind = Kind.JAX_MASK if self._passed_masks(info, name) else Kind.JAX
            elif info.traced and name not in defaults and self.traced.optax_hooked(info):
                kind = Kind.JAX  # optax calls it with the step count, or with the updates and the state
            elif info.traced and helper_calls and name not in unmapped:
                kind = self._helper_param_kind(info, name, helper_calls)
            elif info.traced and not directly_traced:
                kind = self._tree_map_leaf_kind(info, name)
            if kind is Kind.JAX and name in written_whole and not self._passed_arrays(info, name):
                kind = Kind.REF  # written whole (`p[...] += 1`), and no caller is seen passing an array it made
            kinds[name] = kind
        return kinds

    def _passed_masks(self, info: FunctionInfo, name: str) -> bool:
        """Every value this module passes to the traced parameter `name` (at calls of the function by its name,
        and no default) is a boolean mask made from arrays: a comparison of a JAX array (`x > 1`, `tokens != 0`), a
        `jnp.isnan(x)`-like test, or a name bound once to one (checked on jax 0.10.2: `x[mask]` in the jitted
        function raises NonConcreteBooleanIndexError for `f(x, x > 1)`)."""
        if name in parameter_defaults(info.node.args):  # type: ignore[union-attr]
            return False
        values = self.traced.argument_values(info, name)
        return bool(values) and all(self._mask_value(v) for v in values)

    def _mask_value(self, value: ast.AST) -> bool:
        scope = self.scopes.enclosing_function(value)
        if isinstance(value, ast.Name):
            value = self.traced.bound_once(value.id, scope)  # type: ignore[assignment]
            if value is None:
                return False
        if isinstance(value, ast.Compare) and len(value.ops) == 1 and isinstance(
                value.ops[0], (ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Eq, ast.NotEq)):
            return any(self._array_construction(side, scope) for side in (value.left, value.comparators[0]))
        if isinstance(value, ast.Call):
            return self.scopes.qualname(value.func, scope) in BOOL_FUNCS and bool(value.args) and self._array_construction(
                value.args[0], scope)
        return False

    def _array_construction(self, node: ast.AST, scope: FunctionInfo | None, depth: int = 0) -> bool:
        """`jnp.arange(4.0)`, `jnp.array([...])`, arithmetic on one, or a name bound once (in `scope` or at module
        level) to one: a JAX array, from the syntax alone (the caller's kinds are not known while these are)."""
        if depth > 3:
            return False
        if isinstance(node, ast.BinOp):
            return self._array_construction(node.left, scope, depth + 1) or self._array_construction(
                node.right, scope, depth + 1)
        if isinstance(node, ast.Name):
            local = scope is not None and self.scopes.is_local(node.id, scope)
            value = self.traced.bound_once(node.id, scope)
            return value is not None and self._array_construction(value, scope if local else None, depth + 1)
        if isinstance(node, ast.Call):
            q = self.scopes.qualname(node.func, scope) or ""
            return q.startswith(("jax.numpy.", "jax.random.")) and qualified_call_kind(q) in ARRAYS
        return False

    def defaulted_jit_params(self, info: FunctionInfo) -> set[str]:
        """Parameters of a function that `jax.jit` (and nothing else) traces directly that have a Python number
        or bool as default, are not static and are never rebound in its body. Their kind is the default's (a
        call that leaves them out gives JAX nothing to trace), but a call that passes one hands the trace a
        tracer: jit traces every argument given for a non-static parameter, Python numbers included."""
        direct = [t for t in info.traces if not t.indirect]
        if isinstance(info.node, ast.Lambda) or not direct or any(
                t.transform != "jax.jit" or t.statics_unknown for t in direct):
            return set()
        if any(t.foreign_positions for t in direct):
            return set()  # jax.jit(model.apply) of hk.transform(f): no call's arguments are f's by position
        a = info.node.args
        defaults = parameter_defaults(a)
        found = {name for name, d in defaults.items() if name not in info.static_params and _python_number(d)}
        if not found:
            return set()
        found -= self.traced.passed_through_params(info)
        found -= {n.id for n in self.scopes.own_nodes(info) if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del))}
        if found:
            passed = self._passed_to_local_wrappers(info, direct)
            if passed is not None:
                found &= passed
        return found

    def _passed_to_local_wrappers(self, info: FunctionInfo, direct: list[TraceSite]) -> set[str] | None:
        """The parameters that some call of a jit wrapper of `info` passes, when every direct jit of it is a
        wrapper whose calls are all in sight: `jax.jit(f, ...)(args)`, or `g = jax.jit(f, ...)` bound to a name
        local to a function that only calls it (`g(args)`; never returned, passed on or stored). A parameter no
        such call passes keeps its Python default in every trace. None when a wrapper may be called elsewhere (a
        decorator, a module-level or escaping wrapper), wraps something else (`partial(f, ...)`, a bound method) or
        a call spreads `*args`/`**kwargs`."""
        positional = [p.arg for p in [*info.node.args.posonlyargs, *info.node.args.args]]
        passed: set[str] = set()
        parents = self.scopes.parents
        for site in direct:
            node = site.node
            if not isinstance(node, ast.Call) or parents.get(node) is None or not node.args or not isinstance(
                    node.args[0], ast.Name):
                return None  # a decorator, or `jax.jit(self.f)`/`jax.jit(partial(f, ...))` whose calls' arguments shift
            parent = parents[node]
            if isinstance(parent, ast.Call) and parent.func is node:
                calls = [parent]
            else:
                scope = self.scopes.enclosing_function(node)
                if scope is None or not (isinstance(parent, ast.Assign) and len(parent.targets) == 1
                                         and isinstance(parent.targets[0], ast.Name)):
                    return None
                name = parent.targets[0].id
                if name not in scope.local_names:
                    return None
                loads = [n for n in walk_nodes(scope.node) if isinstance(n, ast.Name) and n.id == name
                         and isinstance(n.ctx, ast.Load)]  # nested functions' reads too: a closure may call it
                calls = []
                for load in loads:
                    call = parents.get(load)
                    if not (isinstance(call, ast.Call) and call.func is load):
                        return None  # the wrapper escapes: returned, passed on or stored
                    calls.append(call)
            for call in calls:
                if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
                    return None
                passed.update(positional[:len(call.args)])
                passed.update(k.arg for k in call.keywords if k.arg is not None)
        return passed

    def kind_when_passed(self, node: ast.AST, scope: FunctionInfo, passed: set[str]) -> Kind:
        """The kind of an expression of `scope` when the parameters `passed` are arrays (see
        `defaulted_jit_params`) and it reads no other local name (UNKNOWN if it does)."""
        reads = {n.id for n in walk_nodes(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
        if any(name not in passed and self.scopes.is_local(name, scope) for name in reads):
            return Kind.UNKNOWN
        return _KindEvaluator(self, scope, dict.fromkeys(passed, Kind.JAX)).eval(node)

    def _own_item_assignment(self, annotation: ast.AST | None) -> bool:
        """Whether an annotation names a class defined at the top of this module that defines `__setitem__`: its
        objects are written through their own item assignment (`image[bounds] += stamp`), never an array's."""
        if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):  # "DoubleDouble"
            try:
                annotation = ast.parse(annotation.value, mode="eval").body
            except SyntaxError:
                return False
        if not isinstance(annotation, (ast.Name, ast.Attribute)):
            return False
        if self._item_assigning_classes is None:
            self._item_assigning_classes = {s.name for s in self.scopes.tree.body if isinstance(s, ast.ClassDef) and any(
                isinstance(m, ast.FunctionDef) and m.name == "__setitem__" for m in s.body)}
        if isinstance(annotation, ast.Name) and annotation.id in self._item_assigning_classes:
            return True
        # a class of another module of the project (or of an installed package), read through the project index
        project = self.project
        if project is None or (isinstance(annotation, ast.Name) and annotation.id in self.scopes.module_classes()):
            return False
        qualified = project.qualified(annotation)
        return qualified is not None and not qualified.startswith(("jax.", "numpy.")) and project.item_assigning(qualified)

    _item_assigning_classes: set[str] | None = None

    def _container_carries(self, info: FunctionInfo) -> set[str]:
        """The carry parameter of a `lax.fori_loop`/`while_loop`/`scan` body when every loop that traces the
        function starts it from a Python container (`lax.fori_loop(0, n, body, [acc0, acc1])`): the carry keeps
        the structure of its initial value, so the body gets a list (or dict, tuple) of arrays, whose items it
        may rebind (`acc[0] += ...`), never one array."""
        # A jit decorator on the body says nothing of the carry's structure: jit passes on the pytree it is given.
        direct = [t for t in info.traces if not t.indirect and (
            t.provenance is Provenance.LAX_BODY or t.node not in getattr(info.node, "decorator_list", ()))]
        if not direct or isinstance(info.node, ast.Lambda):
            return set()
        positional = [p.arg for p in [*info.node.args.posonlyargs, *info.node.args.args]]
        found: set[str] | None = None
        for site in direct:
            call = site.node
            if site.provenance is not Provenance.LAX_BODY or not isinstance(call, ast.Call):
                return set()
            carry = _loop_carry(self.scopes.qualname(call.func, self.scopes.enclosing_function(call)) or "", call,
                                positional)
            if carry is None:
                return set()
            param, init = carry
            if self.kind_of(init, self.scopes.enclosing_function(call)) is not Kind.CONTAINER:
                return set()
            found = {param} if found is None else found & {param}
        return found or set()

    def _passed_arrays(self, info: FunctionInfo, name: str) -> bool:
        """Whether this module calls `info` and every value it passes to parameter `name` is a JAX array the caller
        made (a caller's own parameter is only assumed to be an array, and may be the reference handed on)."""
        values = self.traced.argument_values(info, name)
        for value in values:
            scope = self.scopes.enclosing_function(value)
            if isinstance(value, ast.Name) and scope is not None and value.id in scope.params:
                return False
            if self.kind_of(value, scope) not in ARRAYS:
                return False
        return bool(values)

    def _tree_map_leaf_kind(self, info: FunctionInfo, name: str) -> Kind:
        """A parameter of a function of traced code that `jax.tree.map(fn, tree, *rest)` calls leaf by leaf (a
        lambda written there, or a local def passed only there): its i-th parameter gets the leaves of the i-th
        tree, JAX arrays when every such tree is one (inside jit every leaf of a traced argument is a tracer:
        `jax.tree.map(lambda g: np.clip(g, -1, 1), grads)` raises TracerArrayConversionError on jax 0.10.2)."""
        positional = [p.arg for p in [*info.node.args.posonlyargs, *info.node.args.args]]
        if name not in positional:
            return Kind.UNKNOWN
        i = positional.index(name)
        found: set[Kind] = set()
        for call in self.tree_map_calls(info):
            if any(isinstance(a, ast.Starred) for a in call.args[: i + 2]) or i + 1 >= len(call.args):
                return Kind.UNKNOWN
            found.add(self.kind_of(call.args[i + 1], self.scopes.enclosing_function(call)))
        return Kind.JAX if found == {Kind.JAX} else Kind.UNKNOWN

    def tree_map_calls(self, info: FunctionInfo) -> list[ast.Call]:
        """The `jax.tree.map(fn, ...)` calls that map `info` (a lambda written as their first argument, or a
        local def whose every use in its scope is as one); none when it is used otherwise."""
        def is_tree_map(call: ast.AST | None) -> bool:
            return isinstance(call, ast.Call) and self.scopes.qualname(
                call.func, self.scopes.enclosing_function(call)) in TREE_MAPS
        if isinstance(info.node, ast.Lambda):
            parent = self.scopes.parents.get(info.node)
            return [parent] if is_tree_map(parent) and parent.args[0] is info.node else []  # type: ignore[union-attr,list-item]
        if info.parent is None:
            return []
        uses = [n for n in self.scopes.own_nodes(info.parent) if isinstance(n, ast.Name) and n.id == info.name
                and isinstance(n.ctx, ast.Load)]
        calls: list[ast.Call] = []
        for use in uses:
            parent = self.scopes.parents.get(use)
            if not (is_tree_map(parent) and parent.args[0] is use):  # type: ignore[union-attr]
                return []
            calls.append(parent)  # type: ignore[arg-type]
        return calls

    def _helper_param_kind(self, info: FunctionInfo, name: str, calls: list[tuple[FunctionInfo, ast.Call]]) -> Kind:
        """A helper's parameter is a JAX array when every traced call site passes one there."""
        params = [p.arg for p in [*info.node.args.posonlyargs, *info.node.args.args]]
        seen: set[Kind] = set()
        for caller, call in calls:
            arg: ast.AST | None = None
            positional = params
            if info.name == "__call__" and params[:1] == ["self"] and isinstance(call.func, ast.Name):
                # `layer(x)`, an object of the class called: its arguments start after `self`
                if name == "self":
                    return Kind.UNKNOWN
                positional = params[1:]
            if name in positional and positional.index(name) < len(call.args):
                arg = call.args[positional.index(name)]
                if any(isinstance(a, ast.Starred) for a in call.args[: positional.index(name) + 1]):
                    return Kind.UNKNOWN
            for kw in call.keywords:
                if kw.arg == name:
                    arg = kw.value
            if arg is None:
                return Kind.UNKNOWN
            seen.add(self.kind_of(arg, caller))
        return seen.pop() if len(seen) == 1 else Kind.UNKNOWN


# Binary operators that no Python container, None or pytree of arrays supports (lists and tuples have + and *).
_NUMERIC_ONLY_OPS = (ast.Sub, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow, ast.MatMult)

# The loops whose body carries a value: qualified name -> (index of the carry among the body's parameters,
# position and keyword of the initial value in the call).
_CARRYING_LOOPS: dict[str, tuple[int, int, str]] = {
    "jax.lax.fori_loop": (1, 3, "init_val"),
    "jax.lax.while_loop": (0, 2, "init_val"),
    "jax.lax.scan": (0, 1, "init"),
}


def _loop_carry(q: str, call: ast.Call, positional: list[str]) -> tuple[str, ast.AST] | None:
    """(the body's carry parameter, the loop's initial value) for a carrying loop `call` tracing a body with
    these positional parameters."""
    spec = _CARRYING_LOOPS.get(q)
    if spec is None:
        return None
    index, position, keyword = spec
    init = call.args[position] if position < len(call.args) else next(
        (kw.value for kw in call.keywords if kw.arg == keyword), None)
    if init is None or isinstance(init, ast.Starred) or index >= len(positional):
        return None
    return positional[index], init


# Python floats that libraries name: in a loop's initial carry they are leaves, like a literal number.
_PYTHON_FLOAT_CONSTANTS = {f"{lib}.{name}" for lib in ("jax.numpy", "numpy", "math")
                           for name in ("inf", "nan", "pi", "e", "euler_gamma", "tau")}


def _carried_kind(init: ast.AST, kind: Kind) -> Kind:
    """What one element of a loop's initial tuple is inside the body: a tracer for an array or a Python number
    (the carry's leaves are traced), the same container for a container, else unknown."""
    if kind in (Kind.JAX_MASK, Kind.KEY, Kind.CONTAINER):
        return kind
    if kind in (Kind.JAX, Kind.NUMPY) or (isinstance(init, ast.Constant) and type(init.value) in (int, float, bool)):
        return Kind.JAX
    return Kind.UNKNOWN


def loop_initial_value(q: str, call: ast.Call) -> ast.AST | None:
    """The initial value of a `lax.fori_loop`/`while_loop` call, whose result has its structure."""
    if q not in ("jax.lax.fori_loop", "jax.lax.while_loop"):
        return None
    spec = _CARRYING_LOOPS[q]
    init = call.args[spec[1]] if spec[1] < len(call.args) else next(
        (kw.value for kw in call.keywords if kw.arg == spec[2]), None)
    return None if isinstance(init, ast.Starred) else init


def _unmapped_everywhere(info: FunctionInfo) -> set[str]:
    """Parameters that every transformation tracing the function directly passes through unbatched (vmap's
    `in_axes=None`): they hold whatever the caller passes, a concrete value when the caller is eager."""
    direct = [t for t in info.traces if not t.indirect]
    if not direct:
        return set()
    positional = [p.arg for p in [*info.node.args.posonlyargs, *info.node.args.args]]
    common = set.intersection(*(set(t.unmapped_argnums) for t in direct))
    return {positional[i] for i in common if i < len(positional)}


def _depth(info: FunctionInfo) -> int:
    d, cur = 0, info.parent
    while cur is not None:
        d, cur = d + 1, cur.parent
    return d


def _helper_rank(info: FunctionInfo) -> int:
    # Directly traced functions first, so helpers see the kinds their callers pass.
    if not info.traced:
        return 0
    return 1 if any(t.provenance is Provenance.CALLED_FROM for t in info.traces) else 0


def _python_number(node: ast.AST) -> bool:
    """A literal number or bool: `True`, `0`, `0.5`, `-1.0`."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        node = node.operand
    return isinstance(node, ast.Constant) and isinstance(node.value, (int, float))


def _is_none(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def _is_bool_dtype(node: ast.AST, model: ValueKinds, scope: FunctionInfo | None) -> bool:
    return (isinstance(node, ast.Name) and node.id == "bool") or model.scopes.qualname(node, scope) in (
        "jax.numpy.bool_", "numpy.bool_", "jax.numpy.bool")


# Words in a class name that may stand for an array type (`Array`, `ArrayLike`, `Tensor`, `PRNGKey`, `Scalar`).
_ARRAY_LIKE_WORDS = ("array", "tensor", "scalar", "numeric", "number", "key", "like", "leaf", "tree", "any", "float",
                     "int", "bool", "real", "complex", "shaped", "data", "value")


def _union_members(annotation: ast.AST) -> list[ast.AST]:
    """The members of `A | B`, `Optional[A]` (A and None), `Union[A, B]`; [] for any other annotation."""
    if isinstance(annotation, ast.BinOp) and isinstance(annotation.op, ast.BitOr):
        return [annotation.left, annotation.right]
    if isinstance(annotation, ast.Subscript) and isinstance(annotation.value, (ast.Name, ast.Attribute)):
        head = annotation.value.id if isinstance(annotation.value, ast.Name) else annotation.value.attr
        if head == "Optional":
            return [annotation.slice, ast.Constant(None)]
        if head == "Union" and isinstance(annotation.slice, ast.Tuple):
            return list(annotation.slice.elts)
    return []


def _optional_object(annotation: ast.AST) -> bool:
    """`Provider | None`, `Optional[Provider]`: None or an object of a named class that is no array type. A
    truth test of such a parameter (`overrides or default`) only tells None from the object, which has no
    array truth value, also when the object is a pytree of traced arrays."""
    members = _union_members(annotation)
    if len(members) != 2 or sum(_is_none(m) for m in members) != 1:
        return False
    (cls,) = [m for m in members if not _is_none(m)]
    if not isinstance(cls, (ast.Name, ast.Attribute)):
        return False  # Float[Array, "n"] | None, a string annotation: unknown
    name = cls.id if isinstance(cls, ast.Name) else cls.attr
    return name[:1].isupper() and not any(word in name.lower() for word in _ARRAY_LIKE_WORDS)


def names_a_dtype(annotation: ast.AST | None) -> bool:
    """`jnp.dtype`, `DTypeLike`, `np.dtype | None`, `Optional[DTypeLike]` (see _DTYPE_ANNOTATIONS)."""
    if annotation is None:
        return False
    named = [m for m in _union_members(annotation) or [annotation] if not _is_none(m)]
    return bool(named) and all(
        (m.id if isinstance(m, ast.Name) else m.attr if isinstance(m, ast.Attribute) else None) in _DTYPE_ANNOTATIONS
        for m in named)


def _declares_jax_array(annotation: ast.AST | None) -> bool:
    """The annotation is spelled `jax.Array` (from the node alone, as the untraced parameter kinds are kept per
    node): not `jnp.ndarray`, `ArrayLike` or a union, which admit NumPy arrays and Python numbers."""
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        return annotation.value == "jax.Array"
    return (isinstance(annotation, ast.Attribute) and annotation.attr == "Array"
            and isinstance(annotation.value, ast.Name) and annotation.value.id == "jax")


# Annotations that name a dtype (`jnp.dtype`, NumPy's `DTypeLike`, JAX's `DTypeLike`): `jit` cannot trace a dtype or
# a dtype's name (a call that passes one raises TypeError before tracing, checked on jax 0.10.2), so a parameter so
# annotated holds its default or a Python value: `output_dtype or x.dtype` asks nothing of a tracer
_DTYPE_ANNOTATIONS = frozenset({"dtype", "DType", "DTypeLike"})


def _annotation_kind(annotation: ast.AST | None) -> Kind | None:
    if annotation is None:
        return None
    if names_a_dtype(annotation):
        return Kind.PYTHON
    if _optional_object(annotation):
        return Kind.UNKNOWN  # None or an object: not known to be an array, so unknown, which never warns
    if isinstance(annotation, ast.Subscript) and isinstance(annotation.value, (ast.Name, ast.Attribute)):
        head_name = annotation.value.id if isinstance(annotation.value, ast.Name) else annotation.value.attr
        if head_name == "Bool":  # jaxtyping's Bool[Array, "..."]
            return Kind.JAX_MASK
    head = annotation.value if isinstance(annotation, ast.Subscript) else annotation
    name = head.attr if isinstance(head, ast.Attribute) else head.id if isinstance(head, ast.Name) else None
    if name in {"dict", "Dict", "list", "List", "tuple", "Tuple", "Sequence", "Mapping", "MutableMapping",
                "Iterable", "set", "Set"}:
        return Kind.CONTAINER
    if name in {"str", "Callable", "type"}:
        return Kind.PYTHON
    if name in {"Ref", "ArrayRef", "MutableArray"}:
        return Kind.REF
    return None


def _parameter_evidence(model: ValueKinds, info: FunctionInfo) -> tuple[set[str], set[str]]:
    """Two facts from a function's own nodes, in one pass: the parameters used like Python containers (`p.items()`,
    `p["w"]`, `**p`, `for k, v in p`), and those written whole through `p[...] = v` or `p[...] += v`: that is how
    a mutable reference is written (`jax.new_ref`, a flax `nnx.Variable`, which `jit` passes through as a
    reference), never how array code updates an array; such a parameter is a reference, updated in place by
    design. Both follow from the function's own nodes alone."""
    params = set(info.params)
    container: set[str] = set()
    whole: set[str] = set()
    # `{k: f(p[k]) for k in p}`: a name indexed by what iterating it gives is a mapping (iterating an array gives
    # its rows, no index of it): (the iterated parameter, the loop variable) pairs, and (parameter, index) reads
    iterated: set[tuple[str, str]] = set()
    indexed: set[tuple[str, str]] = set()
    # names read for an attribute no JAX array has (`species.get_position()`): what iterating or indexing a
    # parameter gives is no array there, so the parameter is no array either (a list or dict of objects)
    objects: set[str] = set()
    Name, Subscript, Constant = ast.Name, ast.Subscript, ast.Constant  # local names: the loop is hot
    for node in model.scopes.own_nodes(info):
        cls = type(node)
        if (cls is ast.comprehension or cls is ast.For) and type(node.iter) is Name and (  # type: ignore[attr-defined]
                type(node.target) is Name and node.iter.id in params):  # type: ignore[attr-defined]
            iterated.add((node.iter.id, node.target.id))  # type: ignore[attr-defined]
            continue
        if cls is ast.Attribute:
            value = node.value  # type: ignore[attr-defined]
            if type(value) is Name and value.id in params and node.attr in _CONTAINER_METHODS:  # type: ignore[attr-defined]
                container.add(value.id)
            elif not _array_attribute(node.attr):  # type: ignore[attr-defined]
                if type(value) is Name:
                    objects.add(value.id)
                elif type(value) is Subscript and type(value.value) is Name and value.value.id in params and (
                        type(value.slice) is Name):
                    container.add(value.value.id)  # `particles[i].update_position()`
        elif cls is Subscript:
            value, index = node.value, node.slice  # type: ignore[attr-defined]
            if type(value) is Name and value.id in params and type(index) is Constant and isinstance(index.value, str):
                container.add(value.id)
            elif type(value) is Name and type(index) is Name and value.id in params:
                indexed.add((value.id, index.id))
        elif cls is ast.keyword:
            if node.arg is None and type(node.value) is Name:  # type: ignore[attr-defined]
                container.add(node.value.id)  # type: ignore[attr-defined]
        elif cls is ast.Starred:  # `f(p, *batch)`: a tuple or list of arguments
            if type(node.value) is Name and type(model.scopes.parents.get(node)) is ast.Call:  # type: ignore[attr-defined]
                container.add(node.value.id)  # type: ignore[attr-defined]
        elif cls is ast.Dict:
            container.update(v.id for k, v in zip(node.keys, node.values, strict=True)  # type: ignore[attr-defined]
                             if k is None and type(v) is Name)
        elif cls is ast.BoolOp or cls is ast.IfExp:
            container.update(_defaulted_to_container(node))
        elif cls is ast.Assign or cls is ast.AugAssign:
            for target in node.targets if cls is ast.Assign else [node.target]:  # type: ignore[attr-defined]
                if (type(target) is Subscript and type(target.value) is Name and type(target.slice) is Constant
                        and target.slice.value is Ellipsis):
                    whole.add(target.value.id)
    container.update(param for param, _ in iterated & indexed)
    container.update(param for param, target in iterated if target in objects and target not in params)
    return container & params, whole & params


_ACCUMULATING_OPS = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow, ast.MatMult, ast.FloorDiv, ast.Mod)


def _accumulators(loop: ast.For | ast.AsyncFor | ast.While) -> set[str]:
    """The names a loop's body binds only by folding a value into them: `total += v`, `total = total + v` (or
    `v * total`), never otherwise (functions and classes defined in the body do not count)."""
    folded: set[str] = set()
    other: set[str] = set()
    stack: list[ast.AST] = [*loop.body, *loop.orelse]
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
            (folded if isinstance(node.op, _ACCUMULATING_OPS) else other).add(node.target.id)
            stack.append(node.value)
            continue
        if (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
                and isinstance(node.value, ast.BinOp) and isinstance(node.value.op, _ACCUMULATING_OPS)
                and any(isinstance(side, ast.Name) and side.id == node.targets[0].id
                        for side in (node.value.left, node.value.right))):
            folded.add(node.targets[0].id)
            stack.append(node.value)
            continue
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            other.add(node.id)
        stack.extend(ast.iter_child_nodes(node))
    return folded - other


CONTAINER_DISPLAYS = (ast.Dict, ast.List, ast.Tuple, ast.Set, ast.DictComp, ast.ListComp, ast.SetComp)


def _defaulted_to_container(node: ast.AST) -> list[str]:
    """Names whose truth test falls back to a Python container: `p or {}`, `p or []`, `p if p else ()`. What
    stands in for a missing `p` is of its type, so `p` is a container (or None), whose truth value is Python's,
    never an array's (which has none under jit)."""
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or):
        if any(isinstance(v, CONTAINER_DISPLAYS) or (isinstance(v, ast.Call) and isinstance(v.func, ast.Name)
                                                     and v.func.id in _PY_BUILTINS_CONTAINER) for v in node.values[1:]):
            return [node.values[0].id] if isinstance(node.values[0], ast.Name) else []
    elif isinstance(node, ast.IfExp) and isinstance(node.test, ast.Name) and isinstance(node.body, ast.Name) and (
            node.body.id == node.test.id and isinstance(node.orelse, CONTAINER_DISPLAYS)):
        return [node.test.id]
    return []


class _KindEvaluator:
    def __init__(self, model: ValueKinds, scope: FunctionInfo | None, env: dict[str, Kind] | None) -> None:
        self.model = model
        self.scope = scope
        self.env = env

    def name(self, node: ast.Name) -> Kind:
        if self.env is None:
            return self.model.name_kinds.get(id(node), Kind.UNKNOWN)
        if node.id in self.env:
            return self.env[node.id]
        if self.scope is not None and self.model.scopes.is_local(node.id, self.scope):
            return Kind.MODULE if self.model.scopes.local_import(node.id, self.scope) else Kind.UNKNOWN
        if node.id in self.model.scopes.aliases:
            return Kind.MODULE
        return self.model.module_env.get(node.id, Kind.UNKNOWN)

    def eval(self, node: ast.AST) -> Kind:
        if isinstance(node, ast.Name):
            return self.name(node)
        if isinstance(node, (ast.Constant, ast.JoinedStr)):
            return Kind.PYTHON
        if isinstance(node, (ast.List, ast.Tuple, ast.Dict, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp)):
            return Kind.CONTAINER
        if isinstance(node, ast.BinOp):
            left, right = self.eval(node.left), self.eval(node.right)
            if isinstance(node.op, (ast.BitAnd, ast.BitOr, ast.BitXor)) and Kind.JAX_MASK in (left, right) and (
                    {left, right} <= {Kind.JAX_MASK, Kind.PYTHON}):
                return Kind.JAX_MASK  # (x > 0) & valid
            return arith(left, right)
        if isinstance(node, ast.UnaryOp):
            k = self.eval(node.operand)
            if k is Kind.JAX_MASK and isinstance(node.op, (ast.USub, ast.UAdd)):
                return Kind.JAX
            return Kind.PYTHON if isinstance(node.op, ast.Not) and k is Kind.PYTHON else k
        if isinstance(node, ast.Compare):
            kinds = [self.eval(node.left), *(self.eval(c) for c in node.comparators)]
            if _none_equality(node) and kinds[0] in ARRAYS:
                # `x != None`: a JAX array's __eq__/__ne__ return NotImplemented for None, so Python falls back
                # to identity and gives a bool (also on a tracer, under jit)
                return Kind.PYTHON
            if not ARRAYS.isdisjoint(kinds) and not any(isinstance(op, (ast.Is, ast.IsNot, ast.In, ast.NotIn))
                                                        for op in node.ops):
                return Kind.JAX_MASK
            if Kind.NUMPY in kinds:
                return Kind.NUMPY
            return Kind.PYTHON if all(k is Kind.PYTHON for k in kinds) else Kind.UNKNOWN
        if isinstance(node, ast.IfExp):
            return merge(self.eval(node.body), self.eval(node.orelse))
        if isinstance(node, ast.NamedExpr):
            return self.eval(node.value)
        if isinstance(node, ast.Attribute):
            return self.attribute(node)
        if isinstance(node, ast.Subscript):
            if isinstance(node.value, ast.Attribute) and node.value.attr == "at" and self.eval(
                    node.value.value) is Kind.REF:
                return Kind.REF  # ref.at[:, :64]: a view of the same memory, stored through like the ref
            base = self.eval(node.value)
            if base in (Kind.JAX, Kind.JAX_MASK, Kind.NUMPY, Kind.KEY, Kind.JAX_AT):
                return base
            return Kind.JAX if base is Kind.REF else Kind.UNKNOWN  # ref[...]: the array the reference holds
        if isinstance(node, ast.Call):
            return self.call(node)
        if isinstance(node, ast.Lambda):
            return Kind.FUNCTION
        return Kind.UNKNOWN

    def attribute(self, node: ast.Attribute) -> Kind:
        if self.model.scopes.qualname(node, self.scope) is not None:
            return Kind.UNKNOWN  # e.g. jnp.pi, jnp.float32: module attributes
        if isinstance(node.value, ast.Name) and node.value.id == "self" and self.scope is not None:
            return self.model.instance_attribute_kind(self.scope, node.attr)
        base = self.eval(node.value)
        if isinstance(node.value, ast.Name) and base in (Kind.UNKNOWN, Kind.JAX) and self.scope is not None and (
                node.attr not in ARRAY_STATIC_ATTRS and node.attr not in _ARRAY_METHODS and node.attr not in _VIEW_ATTRS):
            # a field of a record class of the module (`state.err` with `err: jnp.ndarray` declared)
            field = self.model.record_field_kind(self.scope, node.value.id, node.attr, base is Kind.JAX)
            if field is not Kind.UNKNOWN:
                return field
        if node.attr in _OPTAX_STATE_COUNTERS and isinstance(node.value, ast.Name) and self._optax_state(node.value):
            return Kind.JAX
        if base in (Kind.JAX, Kind.JAX_MASK, Kind.NUMPY):
            if node.attr in ARRAY_STATIC_ATTRS:
                return Kind.PYTHON
            if node.attr == "at":
                return Kind.JAX_AT if base in ARRAYS else Kind.UNKNOWN
            if node.attr in ("T", "mT", "real", "imag"):
                return base
        return Kind.UNKNOWN

    def call(self, node: ast.Call) -> Kind:
        if self._calls_a_layer(node.func):  # nnx.Linear(...)(x), `dense(x)`, `self.proj(x)` on an array
            return Kind.JAX if any(self.eval(a) in ARRAYS for a in node.args) else Kind.UNKNOWN
        if isinstance(node.func, ast.Call):  # jax.value_and_grad(f)(x): what the transformed function returns
            result = self._transformed_returns(node)
            return result[0] if result is not None else Kind.UNKNOWN
        q = self.model.scopes.qualname(node.func, self.scope)
        if q is not None:
            if q in BOOL_FUNCS:  # jnp.isnan(x): a mask when it is given a traced array
                return Kind.JAX_MASK if any(self.eval(a) in ARRAYS for a in node.args) else qualified_call_kind(q)
            if q == "jax.lax.psum" and node.args and isinstance(node.args[0], ast.Constant) and isinstance(
                    node.args[0].value, int):
                return Kind.PYTHON  # psum(1, axis): the number of devices along the axis, a Python int
            init = loop_initial_value(q, node)
            if init is not None and self.eval(init) is Kind.CONTAINER:
                return Kind.CONTAINER  # a loop's result has the structure of its carry: here a Python container
            if q == "jax.lax.map" and self._maps_to_containers(node):
                return Kind.CONTAINER  # lax.map(f, xs) has the structure f returns: here a list or dict of them
            if (q.startswith("numpy.") and q.rsplit(".", 1)[1] in NUMPY_DELEGATING_ARRAY and node.args
                    and self.eval(node.args[0]) in ARRAYS):
                return Kind.JAX  # np.std(x) calls x.std(): on a JAX array (a tracer under jit) a JAX array
            return qualified_call_kind(q)
        func = node.func
        if isinstance(func, ast.Name):
            if func.id in _PY_BUILTINS_CONTAINER and not self._shadowed(func.id):
                return Kind.CONTAINER
            if func.id in _PY_BUILTINS_PYTHON and not self._shadowed(func.id):
                args = [self.eval(a) for a in node.args]
                if func.id in ("min", "max", "abs", "sum", "round") and not ARRAYS.isdisjoint(args):
                    return Kind.JAX
                if func.id in ("min", "max", "sum") and len(node.args) == 1 and _folds_jax_calls(node.args[0], self):
                    return Kind.JAX  # sum(jnp.sum(g * g) for g in leaves): a fold of arrays is an array
                return Kind.PYTHON
            returned = self._helper_returns(node)
            if returned is None and self._optax_schedule(func):
                return Kind.JAX  # lr = schedule(step): an optax schedule computes its value with jax.numpy
            if returned is None and self._wrapped_call_on_tracers(node, func):
                return Kind.JAX  # `out = fn(*args)` in a decorator's wrapper that jit traces
            return returned[0] if returned is not None else Kind.UNKNOWN
        if isinstance(func, ast.Attribute):
            recv = self.eval(func.value)
            if recv is Kind.JAX_AT:  # x.at[i].set(v)
                return Kind.JAX if func.attr in ("set", "add", "multiply", "mul", "divide", "min", "max",
                                                 "power", "subtract", "apply", "get") else Kind.UNKNOWN
            if recv is Kind.JAX_MASK or (recv is Kind.JAX and func.attr == "astype"):
                if func.attr in _ARRAY_PY_METHODS:
                    return Kind.PYTHON
                if func.attr == "astype":
                    return Kind.JAX_MASK if node.args and _is_bool_dtype(node.args[0], self.model, self.scope) else Kind.JAX
                return Kind.JAX_MASK if func.attr in _MASK_KEEPING_METHODS else Kind.JAX
            if recv in ARRAYS and func.attr in ARRAY_STATIC_ATTRS:
                return Kind.UNKNOWN  # `u0.ndim()`: an array's ndim is not callable, so u0 is some other pytree
            if recv is Kind.REF and func.attr in ("bitcast", "reshape", "transpose"):
                return Kind.REF  # a ref view of another type or shape: the same memory
            if recv is Kind.JAX and func.attr not in _ARRAY_METHODS:
                # a method jax.Array lacks (`model.number_of_links()`, `data.valid(model)`): the value is some other
                # pytree (an object whose methods may well read static fields), so what it returns is unknown
                return Kind.UNKNOWN
            if recv in (Kind.JAX, Kind.NUMPY):
                return Kind.PYTHON if func.attr in _ARRAY_PY_METHODS else recv
        return Kind.UNKNOWN

    def _optax_state(self, holder: ast.Name) -> bool:
        """`holder` was last bound, earlier in its function, as the state an optax transformation's `update`
        returns (`updates, opt_state = opt.update(grads, opt_state, params)`, `opt` bound once to `optax.*(...)`):
        a pytree of JAX arrays (its counters included)."""
        if self.scope is None or isinstance(self.scope.node, ast.Lambda):
            return False
        last: ast.Name | None = None
        for n in self.model.scopes.own_nodes(self.scope):
            if (isinstance(n, ast.Name) and n.id == holder.id and not isinstance(n.ctx, ast.Load)
                    and (n.lineno, n.col_offset) < (holder.lineno, holder.col_offset)
                    and (last is None or (n.lineno, n.col_offset) > (last.lineno, last.col_offset))):
                last = n
        unpacked = self.model.scopes.parents.get(last) if last is not None else None
        assign = self.model.scopes.parents.get(unpacked) if isinstance(unpacked, ast.Tuple) else None
        if not (isinstance(assign, ast.Assign) and assign.targets == [unpacked] and isinstance(assign.value, ast.Call)
                and isinstance(assign.value.func, ast.Attribute) and assign.value.func.attr == "update"
                and isinstance(assign.value.func.value, ast.Name)):
            return False
        transformation = self.model.traced.bound_once(assign.value.func.value.id, self.scope)
        return isinstance(transformation, ast.Call) and (
            self.model.scopes.qualname(transformation.func, self.scope) or "").startswith("optax.")

    def _calls_a_layer(self, func: ast.AST) -> bool:
        """`func` is a layer of a neural-network library (`ARRAY_LAYERS`): built right there (`hk.Embed(...)(x)`),
        bound once in the scope (`dense = nn.Dense(4)` in a linen `@nn.compact` method), or stored on `self` by every
        store of the attribute in the class (`self.proj = nnx.Linear(...)`). Called on an array it returns one."""
        if not self.model.imports_layers():
            return False
        if isinstance(func, ast.Call):
            return is_array_layer(self.model.scopes.qualname(func.func, self.scope))
        if isinstance(func, ast.Name) and self.scope is not None and func.id in self.scope.local_names:
            value = self.model.traced.bound_once(func.id, self.scope)
            return isinstance(value, ast.Call) and is_array_layer(self.model.scopes.qualname(value.func, self.scope))
        if (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self"
                and self.scope is not None):
            return self.model.layer_attribute(self.scope, func.attr)
        return False

    def _wrapped_call_on_tracers(self, node: ast.Call, func: ast.Name) -> bool:
        """`fn(*args)` in a wrapper a decorator defines and returns (`def deco(fn): def wrapper(*args): out =
        fn(*args) ...; return wrapper`), where a transformation traces the wrapper (`@jax.jit` above the
        decorator) and the call hands on the wrapper's own arguments: the decorated function runs on tracers
        and returns what it computes from them."""
        scope = self.scope
        if scope is None or not scope.abstract or scope.parent is None or isinstance(scope.node, ast.Lambda):
            return False
        decorator = scope.parent
        if func.id not in decorator.params or func.id in scope.local_names or isinstance(decorator.node, ast.Lambda):
            return False
        returns = [n.value for n in self.model.scopes.own_nodes(decorator) if isinstance(n, ast.Return)]
        if not returns or not all(isinstance(r, ast.Name) and r.id == scope.name for r in returns):
            return False
        vararg = scope.node.args.vararg.arg if scope.node.args.vararg is not None else None  # type: ignore[union-attr]
        return any((isinstance(a, ast.Starred) and isinstance(a.value, ast.Name) and a.value.id == vararg)
                   or (isinstance(a, ast.Name) and a.id in scope.params and self.eval(a) in ARRAYS)
                   for a in node.args)

    def _optax_schedule(self, func: ast.Name) -> bool:
        """`func` is bound once to an optax schedule (`optax.cosine_decay_schedule(...)`, `optax.linear_schedule`,
        `optax.warmup_cosine_decay_schedule`, `optax.exponential_decay`, ...): called with a step count, it returns
        a JAX array computed with jax.numpy (a tracer when the count is one, or inside jit; checked on optax 0.2.8).
        Not `constant_schedule`, which returns its value as given, nor `join_schedules`, which returns what the
        schedules it joins return."""
        value = self.model.traced.bound_once(func.id, self.scope)
        if not isinstance(value, ast.Call):
            return False
        scope = self.scope if self.scope is not None and self.model.scopes.is_local(func.id, self.scope) else None
        q = self.model.scopes.qualname(value.func, scope) or ""
        name = q.rsplit(".", 1)[-1]
        return q.startswith("optax.") and (name.endswith("_schedule") or name == "exponential_decay") and (
            name != "constant_schedule")

    def _maps_to_containers(self, node: ast.Call) -> bool:
        """Whether the function `lax.map` maps returns a Python container whose items are not all arrays (a list
        built by `append`, a list of lists, a dict): the result has that structure, with the arrays stacked at its
        leaves, so `result[i]` is an item of the container, not a row of an array. A lambda that only calls a
        function (`lambda s: f(s, grid)`) maps to what that function returns."""
        f = node.args[0] if node.args else next((kw.value for kw in node.keywords if kw.arg == "f"), None)
        scope = self.scope
        for _ in range(3):  # a few lambdas deep
            target = self.model.scopes.resolve_function(f, scope) if f is not None else None
            if isinstance(f, ast.Name):  # what a module-level name finds, for reusing this flow in the next version
                self.model.log_lookup(f.id, self.model.scopes.module_functions.get(f.id))
            if target is None and isinstance(f, ast.Name) and scope is not None:
                # `fn = lambda s: per_sample(s, grid)` bound once in this scope, then `lax.map(fn, xs)`
                bound = [n.value for n in self.model.scopes.own_nodes(scope) if isinstance(n, ast.Assign)
                         and any(isinstance(t, ast.Name) and t.id == f.id for t in n.targets)]
                if len(bound) == 1 and isinstance(bound[0], ast.Lambda):
                    target = self.model.scopes.functions.get(bound[0])
            if target is None:
                return False
            if not isinstance(target.node, ast.Lambda):
                break
            body = target.node.body
            if isinstance(body, CONTAINER_DISPLAYS):
                return not isinstance(body, ast.Tuple) or not all(
                    _KindEvaluator(self.model, target, {}).eval(e) in ARRAYS for e in body.elts)
            if not isinstance(body, ast.Call):
                return False
            f, scope = body.func, target
        else:
            return False
        returned = self.model.return_kinds(target, {})
        if returned is None or returned[0] is not Kind.CONTAINER:
            return False
        return returned[1] is None or not all(k in ARRAYS for k in returned[1])

    def call_elements(self, node: ast.Call) -> tuple[Kind, ...] | None:
        """The kinds of the tuple a helper of this module returns at this call (`mean, var = stats(x)`), or a
        transformation of one (`loss, grads = jax.value_and_grad(f)(w, x)`)."""
        if isinstance(node.func, ast.Call):
            returned = self._transformed_returns(node)
        elif (found := self._decorating_gradient(node)) is not None:
            if any(isinstance(a, ast.Starred) for a in node.args):
                return None
            returned = self._differentiated_returns(found[0].transform, found[1], node)
        else:
            returned = self._helper_returns(node) if isinstance(node.func, ast.Name) else None
        return returned[1] if returned is not None else None

    def _transformed_returns(self, node: ast.Call) -> tuple[Kind, tuple[Kind, ...] | None] | None:
        """What `T(f, ...)(args)` gives, for a JAX transformation T called on the spot: the results of a
        transformation are arrays when the function's are (inside traced code they are tracers like any other
        value computed there). Gradients have the structure of the differentiated argument (an array when it is
        one); `value_and_grad` gives (the value, a scalar array, and the gradient); `vmap`/`jit`/`checkpoint`
        give what the function returns for these argument kinds."""
        inner = node.func
        assert isinstance(inner, ast.Call)
        transform = self.model.traced.transform_of(inner.func, self.scope)
        if transform is None or not inner.args or any(isinstance(a, ast.Starred) for a in node.args):
            return None
        q = transform.transform
        keywords = {kw.arg: kw.value for kw in inner.keywords if kw.arg is not None}
        if q in _RESULT_KEEPING_TRANSFORMS:
            target = self.model.scopes.resolve_function(inner.args[0], self.scope)
            if target is None and (method := self.model.traced.bound_method(inner.args[0], self.scope)) is not None:
                return self._bound_returns_for(method, node)  # jax.vmap(self.loss_one)(w, xs): `self` bound
            if target is None or isinstance(target.node, ast.Lambda) or any(k.arg is None for k in node.keywords):
                return None
            return self._returns_for(target, node)
        return self._differentiated_returns(q, keywords, node)

    def _differentiated_returns(self, q: str, keywords: dict[str, ast.expr],
                                node: ast.Call) -> tuple[Kind, tuple[Kind, ...] | None] | None:
        """What a gradient transformation `q` (with these keywords) of a function gives when called by `node`:
        spelled on the spot (`jax.value_and_grad(f, has_aux=True)(w, x)`) or through a decorated helper
        (`@eqx.filter_value_and_grad def compute_loss(...)`, then `loss, grads = compute_loss(model, x, y)`)."""
        has_aux = keywords.get("has_aux")
        aux = has_aux is not None and not (isinstance(has_aux, ast.Constant) and has_aux.value is False)
        if q in _GRADIENT_TRANSFORMS or q in _VALUE_AND_GRAD_TRANSFORMS:
            argnums = keywords.get("argnums")
            index = 0 if argnums is None else argnums.value if isinstance(argnums, ast.Constant) else None
            if not isinstance(index, int) or isinstance(index, bool) or not -len(node.args) <= index < len(node.args):
                grad = Kind.UNKNOWN  # a tuple of gradients, or an argument passed by keyword
            else:
                grad = Kind.JAX if self.eval(node.args[index]) in ARRAYS else Kind.UNKNOWN
            if q in _GRADIENT_TRANSFORMS:
                return (Kind.CONTAINER, (grad, Kind.UNKNOWN)) if aux else (grad, None)
            # the value of a differentiated function is a real scalar array; with has_aux, a (value, aux) pair
            value = Kind.CONTAINER if aux else Kind.JAX
            return Kind.CONTAINER, (value, grad)
        return None

    def aux_value_kind(self, node: ast.AST | None) -> Kind | None:
        """With `has_aux=True`, `(loss, aux), grads = jax.value_and_grad(f, has_aux=True)(w, x)`: the kind of
        `loss`, the differentiated function's value (a real scalar array; a tracer inside traced code, checked on
        jax 0.10.2). None when `node` is no such call."""
        if not isinstance(node, ast.Call):
            return None
        if isinstance(node.func, ast.Call):
            transform = self.model.traced.transform_of(node.func.func, self.scope)
            keywords = {kw.arg: kw.value for kw in node.func.keywords if kw.arg is not None}
        else:
            found = self._decorating_gradient(node)
            if found is None:
                return None
            transform, keywords = found
        if transform is None or transform.transform not in _VALUE_AND_GRAD_TRANSFORMS:
            return None
        has_aux = keywords.get("has_aux")
        if has_aux is None or (isinstance(has_aux, ast.Constant) and has_aux.value is False):
            return None
        return Kind.JAX

    def _decorating_gradient(self, node: ast.Call) -> tuple[TraceSite, dict[str, ast.expr]] | None:
        """A call of a module function decorated by a gradient transformation (`@eqx.filter_value_and_grad`,
        `@partial(jax.value_and_grad, has_aux=True)`): the transformation and its keywords."""
        if not isinstance(node.func, ast.Name) or self._shadowed_locally(node.func.id):
            return None
        fn = self.model.scopes.module_functions.get(node.func.id)
        self.model.log_lookup(node.func.id, fn)
        if fn is None or isinstance(fn.node, ast.Lambda) or "." in fn.qualname:
            return None
        for dec in fn.node.decorator_list:  # type: ignore[union-attr]
            site = self.model.traced.transform_of(dec, None)
            if site is None or not (site.transform in _GRADIENT_TRANSFORMS or site.transform in _VALUE_AND_GRAD_TRANSFORMS):
                continue
            keywords: dict[str, ast.expr] = {}
            if isinstance(dec, ast.Call):
                keywords = {kw.arg: kw.value for kw in dec.keywords if kw.arg is not None}
            return site, keywords
        return None

    def _helper_returns(self, node: ast.Call) -> tuple[Kind, tuple[Kind, ...] | None] | None:
        """What a plain function of this module returns when called with these arguments, from its body."""
        func = node.func
        assert isinstance(func, ast.Name)
        if self._shadowed_locally(func.id):
            return None
        fn = self.model.scopes.module_functions.get(func.id)
        self.model.log_lookup(func.id, fn)
        if fn is None or "." in fn.qualname or isinstance(fn.node, ast.Lambda) or any(
                isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
            return None
        return self._returns_for(fn, node)

    def _returns_for(self, fn: FunctionInfo, call: ast.Call) -> tuple[Kind, tuple[Kind, ...] | None] | None:
        """What `fn` (a def) returns when `call`'s arguments (no `*args`/`**kwargs`) are bound to its parameters."""
        positional = [p.arg for p in [*fn.node.args.posonlyargs, *fn.node.args.args]]  # type: ignore[union-attr]
        if len(call.args) > len(positional):
            return None
        args = {name: self.eval(a) for name, a in zip(positional, call.args, strict=False)}
        args.update({k.arg: self.eval(k.value) for k in call.keywords if k.arg in fn.params})
        return self.model.return_kinds(fn, args)

    def _bound_returns_for(self, fn: FunctionInfo, call: ast.Call) -> tuple[Kind, tuple[Kind, ...] | None] | None:
        """What the method `fn` returns when called through `self.fn` with `call`'s arguments: they bind to the
        parameters after `self`, which stays of unknown kind."""
        positional = [p.arg for p in [*fn.node.args.posonlyargs, *fn.node.args.args]][1:]  # type: ignore[union-attr]
        if len(call.args) > len(positional) or any(isinstance(a, ast.Starred) for a in call.args) or any(
                k.arg is None for k in call.keywords):
            return None
        args = {name: self.eval(a) for name, a in zip(positional, call.args, strict=False)}
        args.update({k.arg: self.eval(k.value) for k in call.keywords if k.arg in fn.params[1:]})
        return self.model.return_kinds(fn, args)

    def _shadowed_locally(self, name: str) -> bool:
        return (self.env is not None and name in self.env and self.env[name] is not Kind.FUNCTION) or (
            self.scope is not None and self.model.scopes.is_local(name, self.scope))

    def _shadowed(self, name: str) -> bool:
        if self.env is not None and name in self.env:
            return True
        return name in self.model.module_env


def _folds_jax_calls(arg: ast.AST, evaluator: _KindEvaluator) -> bool:
    """`(jnp.f(...) for ...)` / `[jnp.f(...) for ...]`: each element an array made by a JAX function (known from
    the function alone, not from the comprehension's own variables)."""
    if not isinstance(arg, (ast.GeneratorExp, ast.ListComp)) or not isinstance(arg.elt, ast.Call):
        return False
    q = evaluator.model.scopes.qualname(arg.elt.func, evaluator.scope)
    return q is not None and qualified_call_kind(q) in ARRAYS


def qualified_call_kind(q: str) -> Kind:
    if q in _KEY_MAKERS:
        return Kind.KEY
    if q in _REF_MAKERS:
        return Kind.REF
    if q in _JAX_PYTHON_VALUED:
        return Kind.PYTHON
    if q in _JAX_CONTAINER_VALUED:
        return Kind.CONTAINER
    if q.startswith("jax.numpy.") and q.rsplit(".", 1)[1] in _JNP_STATIC:
        return Kind.PYTHON
    if q.startswith(_JAX_ARRAY_MODULES) or q in _JAX_ARRAY_FUNCS:
        return Kind.JAX
    if q.startswith("numpy."):
        tail = q.rsplit(".", 1)[1]
        if q.startswith("numpy.random.") and tail in ("default_rng", "RandomState", "Generator", "seed"):
            return Kind.UNKNOWN
        if tail in ("shape", "ndim", "size", "dtype", "isscalar", "iinfo", "finfo", "result_type"):
            return Kind.PYTHON
        return Kind.NUMPY
    return Kind.UNKNOWN


def arith(a: Kind, b: Kind) -> Kind:
    a, b = (Kind.JAX if k is Kind.JAX_MASK else k for k in (a, b))  # arithmetic on a mask gives numbers
    if Kind.JAX in (a, b):
        return Kind.JAX if Kind.CONTAINER not in (a, b) else Kind.UNKNOWN
    if Kind.NUMPY in (a, b):
        return Kind.NUMPY if {a, b} <= {Kind.NUMPY, Kind.PYTHON} else Kind.UNKNOWN
    if a is b and a in (Kind.PYTHON, Kind.CONTAINER):
        return a
    return Kind.UNKNOWN


def merge(a: Kind, b: Kind) -> Kind:
    if a is b:
        return a
    return Kind.JAX if {a, b} == ARRAYS else Kind.UNKNOWN


def merge_envs(a: dict[str, Kind], b: dict[str, Kind]) -> dict[str, Kind]:
    out = dict(a)
    for name, kind in b.items():
        out[name] = merge(out[name], kind) if name in out else kind
    return out


_COMPREHENSIONS = frozenset({ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp})


class _Flow(ForwardFlow[dict[str, Kind]]):
    """Forward dataflow of value kinds through one scope's statements, recording the kind at each name read.
    A dry run (for a helper's return kind at one call site) records into a dict of its own and collects the
    kinds its `return` statements give. The state is the environment (name -> kind), also kept as `self.env`
    while a statement runs (the expression evaluator reads it); kinds never end a path (a `return` does not
    make what follows unreached)."""

    def __init__(self, model: ValueKinds, scope: FunctionInfo | None, env: dict[str, Kind],
                 record: dict[int, Kind] | None = None) -> None:
        self.model = model
        self.scope = scope
        self.env = env
        self.record = model.name_kinds if record is None else record
        self.returns: list[tuple[Kind, tuple[Kind, ...] | None]] | None = None if record is None else []

    def run_body(self, body: list[ast.stmt]) -> None:
        """Runs a scope's statements from `self.env`; `self.env` is then the environment at their end."""
        after = self.run_block(body, self.env)
        assert after is not None  # kinds never end a path
        self.env = after

    def kind(self, node: ast.AST) -> Kind:
        return _KindEvaluator(self.model, self.scope, self.env).eval(node)

    def visit_expr(self, node: ast.AST | None) -> None:
        """Records the kind of every name read in an expression (not inside nested lambdas/comprehensions'
        own variables, which get their own handling)."""
        if node is None:
            return
        stack = [node]
        record = self.record
        evaluator = _KindEvaluator(self.model, self.scope, self.env)
        env = evaluator.env  # (changed in place only, by comprehensions: the evaluator reads the same dict)
        child_fields, AST, Name, Load = CHILD_FIELDS, ast.AST, ast.Name, ast.Load
        while stack:
            cur = stack.pop()
            cls = type(cur)
            if cls is Name:
                if type(cur.ctx) is Load:  # type: ignore[attr-defined]
                    # a name bound in the flow: `evaluator.name`'s first answer, without a call per name
                    kind = env.get(cur.id) if env is not None else None  # type: ignore[attr-defined]
                    record[id(cur)] = kind if kind is not None else evaluator.name(cur)  # type: ignore[arg-type]
                continue
            if cls is ast.Lambda:
                continue  # analysed as its own function
            if cls in _COMPREHENSIONS:
                self._comprehension(cur)  # type: ignore[arg-type]
                continue
            fields = child_fields.get(cls)
            if fields is None:
                fields = child_fields_of(cls)
            for name in fields:  # iter_children (syntax.py) inlined: the children, in its order
                value = getattr(cur, name, None)
                if type(value) is list:
                    for item in value:
                        if isinstance(item, AST):
                            stack.append(item)
                elif isinstance(value, AST):
                    stack.append(value)

    def _comprehension(self, node: ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp) -> None:
        saved = dict(self.env)
        for gen in node.generators:
            self.visit_expr(gen.iter)
            self._bind_loop_target(gen.target, gen.iter, self._iter_kind(gen.iter))
            for cond in gen.ifs:
                self.visit_expr(cond)
        if isinstance(node, ast.DictComp):
            self.visit_expr(node.key)
            self.visit_expr(node.value)
        else:
            self.visit_expr(node.elt)
        self.env.clear()
        self.env.update(saved)

    def _bind_loop_target(self, target: ast.AST, iterable: ast.AST, kind: Kind) -> None:
        """`for i, x in enumerate(xs)`: `i` is a Python int whatever `xs` is (enumerate counts in Python), `x` an
        item of `xs`; any other target gets the kind of the iterable's items."""
        if (isinstance(target, (ast.Tuple, ast.List)) and len(target.elts) == 2 and isinstance(iterable, ast.Call)
                and isinstance(iterable.func, ast.Name) and iterable.func.id == "enumerate"
                and "enumerate" not in self.model.scopes.aliases
                and not (self.scope is not None and self.model.scopes.is_local("enumerate", self.scope))
                and len(iterable.args) == 1 and not isinstance(iterable.args[0], ast.Starred)
                and not any(isinstance(e, ast.Starred) for e in target.elts)):
            self.bind(target.elts[0], Kind.PYTHON)
            self.bind(target.elts[1], self._iter_kind(iterable.args[0]))
            return
        self.bind(target, kind)

    def _iter_kind(self, iterable: ast.AST) -> Kind:
        k = self.kind(iterable)
        if k in (Kind.JAX, Kind.JAX_MASK, Kind.NUMPY, Kind.KEY):
            return k  # rows of an array, keys of a split
        if isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Name) and iterable.func.id == "range":
            return Kind.PYTHON
        return Kind.UNKNOWN

    def bind(self, target: ast.AST, kind: Kind, value: ast.AST | None = None) -> None:
        if isinstance(target, ast.Name):
            self.env[target.id] = kind
        elif isinstance(target, (ast.Tuple, ast.List)):
            values = value.elts if isinstance(value, (ast.Tuple, ast.List)) else None
            elements = _KindEvaluator(self.model, self.scope, self.env).call_elements(value) if isinstance(
                value, ast.Call) else None
            if elements is None and isinstance(value, ast.Name) and self.scope is not None and (
                    value.id in self.scope.params):
                elements = self.model.carry_elements(self.scope, value.id)  # buf, i = carry
            if elements is not None and len(elements) == len(target.elts) and not any(
                    isinstance(e, ast.Starred) for e in target.elts):
                for t, k in zip(target.elts, elements, strict=True):  # mean, var = stats(x)
                    self.bind(t, k)
                first = target.elts[0]
                if isinstance(first, (ast.Tuple, ast.List)) and len(first.elts) == 2 and not isinstance(
                        first.elts[0], ast.Starred) and (value_kind := _KindEvaluator(
                        self.model, self.scope, self.env).aux_value_kind(value)) is not None:
                    self.bind(first.elts[0], value_kind)  # (loss, aux), grads = value_and_grad(f, has_aux=True)(...)
            elif values is not None and len(values) == len(target.elts) and not any(
                isinstance(e, ast.Starred) for e in target.elts
            ):
                for t, v in zip(target.elts, values, strict=True):
                    self.bind(t, self.kind(v), v)
            else:
                # rows of an array, keys of a split; `(x,), (t,) = primals, tangents` in a custom_jvp rule: the
                # elements of a traced tuple are tracers, as `primals[0]` is
                elt_kind = kind if kind in (Kind.KEY, Kind.JAX, Kind.JAX_MASK) and not any(
                    isinstance(e, ast.Starred) for e in target.elts) else Kind.UNKNOWN
                # but an element the function itself treats as a container (unpacks, iterates, tests against
                # None) is a subtree of a pytree parameter, not a leaf: jcm's `if freezing_k:` on a scan slice's
                # element that is None or a tuple it unpacks later
                containers = self.model.container_names(self.scope) if (
                    elt_kind in (Kind.JAX, Kind.JAX_MASK) and self.scope is not None) else frozenset()
                for t in target.elts:
                    self.bind(t, Kind.UNKNOWN if isinstance(t, ast.Name) and t.id in containers else elt_kind, None)
        elif isinstance(target, ast.Starred):
            self.bind(target.value, Kind.CONTAINER)
        else:  # attribute or subscript store: reads its base
            self.visit_expr(target)

    # ---- the transfer functions (flow.py) ----------------------------------------------------------------

    def copy(self, state: dict[str, Kind]) -> dict[str, Kind]:
        return dict(state)

    def join(self, a: dict[str, Kind] | None, b: dict[str, Kind] | None) -> dict[str, Kind] | None:
        if a is None:
            return b
        if b is None:
            return a
        return merge_envs(a, b)

    def converged(self, entry: dict[str, Kind], after_first_pass: dict[str, Kind] | None) -> bool:
        assert after_first_pass is not None
        return merge_envs(entry, after_first_pass) == after_first_pass  # the first iteration changed no kind

    def test(self, stmt: ast.If, state: dict[str, Kind]) -> None:
        self.env = state
        self.visit_expr(stmt.test)

    def loop_head(self, stmt: ast.For | ast.AsyncFor | ast.While, state: dict[str, Kind]) -> object:
        if isinstance(stmt, ast.While):
            return None
        self.env = state
        self.visit_expr(stmt.iter)
        return self._iter_kind(stmt.iter)

    def loop_entry(self, stmt: ast.For | ast.AsyncFor | ast.While, state: dict[str, Kind], head: object) -> None:
        self.env = state
        if isinstance(stmt, ast.While):
            self.visit_expr(stmt.test)
        else:
            assert isinstance(head, Kind)
            self._bind_loop_target(stmt.target, stmt.iter, head)

    def loop_exit(self, stmt: ast.For | ast.AsyncFor | ast.While, entry: dict[str, Kind],
                  after_body: dict[str, Kind] | None) -> dict[str, Kind] | None:
        """An accumulator that starts from a Python number and adds arrays on each pass of a `for` loop
        (`total = 0.0; for g in leaves: total += jnp.sum(g * g)`) is an array after the loop: the loop is taken
        to run at least once, as such loops over a model's leaves or layers do."""
        joined = self.join(entry, after_body)
        if joined is None or after_body is None or not isinstance(stmt, (ast.For, ast.AsyncFor)):
            return joined
        grown = [name for name, kind in after_body.items() if kind in ARRAYS and entry.get(name) is Kind.PYTHON]
        if grown:
            accumulators = self.model.scopes.syntax_fact("loop accumulators", stmt, _accumulators, stmt)
            for name in grown:
                if name in accumulators:
                    joined[name] = after_body[name]
        return joined

    def with_item(self, stmt: ast.With | ast.AsyncWith, item: ast.withitem, state: dict[str, Kind]) -> None:
        self.env = state
        self.visit_expr(item.context_expr)
        if item.optional_vars is not None:
            self.bind(item.optional_vars, Kind.UNKNOWN)

    def subject(self, stmt: ast.Match, state: dict[str, Kind]) -> None:
        self.env = state
        self.visit_expr(stmt.subject)

    def case_entry(self, case: ast.match_case, state: dict[str, Kind]) -> None:
        self.env = state
        self.visit_expr(case.guard)

    def after_match(self, before: dict[str, Kind], cases: dict[str, Kind] | None) -> dict[str, Kind] | None:
        return merge_envs(before, cases or {})  # no case may match

    def handler_entry(self, before: dict[str, Kind], after_body: dict[str, Kind] | None,
                      so_far: dict[str, Kind] | None) -> dict[str, Kind]:
        assert so_far is not None
        return merge_envs(before, so_far)

    def handler_bind(self, handler: ast.ExceptHandler, state: dict[str, Kind]) -> None:
        if handler.name:
            state[handler.name] = Kind.UNKNOWN

    def simple(self, stmt: ast.stmt, state: dict[str, Kind]) -> dict[str, Kind] | None:
        self.env = state
        if isinstance(stmt, ast.Assign):
            self.visit_expr(stmt.value)
            kind = self.kind(stmt.value)
            for target in stmt.targets:
                if not isinstance(target, ast.Name):
                    self.visit_expr(target)
            for target in stmt.targets:
                self.bind(target, kind, stmt.value)
        elif isinstance(stmt, ast.AnnAssign):
            self.visit_expr(stmt.value)
            if stmt.value is not None:
                self.bind(stmt.target, self.kind(stmt.value), stmt.value)
            elif not isinstance(stmt.target, ast.Name):
                self.visit_expr(stmt.target)
        elif isinstance(stmt, ast.AugAssign):
            self.visit_expr(stmt.value)
            self.visit_expr(stmt.target if not isinstance(stmt.target, ast.Name) else None)
            if isinstance(stmt.target, ast.Name):
                load = ast.Name(id=stmt.target.id, ctx=ast.Load())
                self.env[stmt.target.id] = arith(self.kind(load), self.kind(stmt.value))
        elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for deco in stmt.decorator_list:
                self.visit_expr(deco)
            for default in [*stmt.args.defaults, *(d for d in stmt.args.kw_defaults if d is not None)]:
                self.visit_expr(default)
            self.env[stmt.name] = Kind.FUNCTION
        elif isinstance(stmt, ast.ClassDef):
            for deco in stmt.decorator_list:
                self.visit_expr(deco)
            self.env[stmt.name] = Kind.UNKNOWN
        elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
            for alias in stmt.names:
                self.env[(alias.asname or alias.name).split(".")[0]] = Kind.MODULE
        elif isinstance(stmt, ast.Delete):
            for target in stmt.targets:
                if isinstance(target, ast.Name):
                    self.env.pop(target.id, None)
                else:
                    self.visit_expr(target)
        else:  # Expr, Return, Raise, Assert, ...: only reads
            for child in iter_children(stmt):
                self.visit_expr(child)
            if isinstance(stmt, ast.Return) and self.returns is not None:
                value = stmt.value
                elements = tuple(self.kind(e) for e in value.elts) if isinstance(value, ast.Tuple) and not any(
                    isinstance(e, ast.Starred) for e in value.elts) else None
                self.returns.append((self.kind(value) if value is not None else Kind.PYTHON, elements))
        return self.env


# ---- reuse between versions of a document (IncrementalAnalysis, analysis/reuse.py) -----------------------------
#
# Each function's value-kind dataflow (the kind at each name it reads, its environment at the end), by function
# node. A flow is taken again when its inputs are the same: the same node, parameter kinds and closure, the same
# module-level kinds and imports, and the same answers, asked in the same order, to what it asked of other
# functions (which function a name calls, what a helper returns for these argument kinds, what `self.attr`
# holds: the query log of `function_flow`). Those questions are asked again, in order, before a flow is taken:
# answering them is what a fresh build does at that point (they fill the same memo tables), so what comes later
# sees the same state. An edit inside a helper changes what its callers were told: they run again.


@dataclass
class _KeptFlow:
    node: ast.AST  # the function's node (kept alive: the records are keyed by the ids of nodes under it)
    param_kinds: dict[str, Kind]
    closure: dict[str, Kind]
    queries: list[tuple]  # what it asked of the rest of the module, in order, with the answers
    records: dict[int, Kind]  # id(ast.Name) -> kind, as the flow recorded them
    final_env: dict[str, Kind]


class FunctionFlows:
    """The dataflow of each function of the last version (see the module docstring)."""

    def __init__(self) -> None:
        self._flows: dict[int, _KeptFlow] = {}  # id(function node) -> its flow in the last version
        self._next: dict[int, _KeptFlow] = {}
        self._module: tuple[dict[str, Kind], dict[str, str]] | None = None  # module_env and aliases it saw
        self._same_module = False
        self.reused = 0  # flows taken again (for tests and benchmarks)
        self.run = 0  # flows run

    def begin(self, model: ValueKinds) -> None:
        """A new version's dataflow starts (its module-level kinds are known)."""
        self._same_module = self._module == (model.module_env, model.scopes.aliases)
        self._next = {}

    def commit(self, model: ValueKinds) -> None:
        """The dataflow finished: its flows are what the next version compares with."""
        self._flows, self._next = self._next, {}
        self._module = (dict(model.module_env), dict(model.scopes.aliases))

    def flow(self, model: ValueKinds, info: FunctionInfo, closure: dict[str, Kind]) -> dict[str, Kind]:
        """What `model.function_flow(info, closure, model.name_kinds)` does, from the last version's flow when
        everything it read is the same."""
        old = self._flows.get(id(info.node))
        if (old is not None and self._same_module and old.node is info.node and old.param_kinds == info.param_kinds
                and old.closure == closure and _same_answers(model, old.queries)):
            model.name_kinds.update(old.records)
            self._next[id(info.node)] = old
            self.reused += 1
            return old.final_env
        log: list[tuple] = []
        records: dict[int, Kind] = {}
        final_env = model.function_flow(info, closure, records, log)
        model.name_kinds.update(records)
        self._next[id(info.node)] = _KeptFlow(info.node, dict(info.param_kinds), dict(closure), log, records, final_env)
        self.run += 1
        return final_env

    def records(self, node: ast.AST) -> dict[int, Kind] | None:
        """The kinds the flow of this function node recorded in the version whose dataflow last finished."""
        flow = self._flows.get(id(node))
        return flow.records if flow is not None and flow.node is node else None


def _same_answers(model: ValueKinds, queries: list[tuple]) -> bool:
    """Asks the questions again, in order, and stops at the first answer that differs. Each one asked is one the
    flow, run again, would ask at this point with these arguments (the earlier answers being the same)."""
    for query in queries:
        what = query[0]
        if what == "lookup":
            _, name, node = query
            fn = model.scopes.module_functions.get(name)
            if (fn.node if fn is not None else None) is not node:
                return False
            continue
        fn = model.scopes.functions.get(query[1])  # type: ignore[arg-type]
        if fn is None:
            return False
        answer: object
        if what == "layer":
            answer = model.layer_attribute(fn, query[2])
            if answer != query[3]:
                return False
            continue
        if what == "field":
            answer = model.record_field_kind(fn, query[2], query[3], query[4])
            if answer != query[5]:
                return False
            continue
        if what == "returns":
            answer = model.return_kinds(fn, query[2])
        elif what == "carry":
            answer = model.carry_elements(fn, query[2])
        else:
            answer = model.instance_attribute_kind(fn, query[2])
        if answer != query[3]:
            return False
    return True


def _none_equality(node: ast.Compare) -> bool:
    """`x == None` / `x != None` (one comparison, the literal None on the right)."""
    return (len(node.ops) == 1 and isinstance(node.ops[0], (ast.Eq, ast.NotEq))
            and isinstance(node.comparators[0], ast.Constant) and node.comparators[0].value is None)
