"""SB105 float64-without-x64: asking JAX for 64-bit values in a program that never enables x64."""

from __future__ import annotations

import ast

from sharpbits.analysis.execution import Execution
from sharpbits.analysis.model import ARRAYS, FunctionInfo, ModuleModel
from sharpbits.analysis.records import holder_class, unreplaced_default
from sharpbits.analysis.rules.base import Invalid, Rule, RuleContext
from sharpbits.analysis.x64_reach import enabled_outside

_WIDE = ("float64", "int64", "uint64", "complex128", "double", "cdouble", "longlong", "ulonglong")
_WIDE_TYPES = {f"{m}.{t}" for m in ("jax.numpy", "numpy") for t in _WIDE}
_WIDE_STRINGS = {"float64", "int64", "uint64", "complex128", "f8", "i8", "u8", "c16", "double", "<f8", "<i8"}
# Attributes that set, read or take from the command line the x64 flag.
_FLAG_ATTRIBUTES = {"jax_enable_x64", "enable_x64", "x64_enabled", "config_with_absl", "parse_flags_with_absl"}
# jax.numpy constructors whose dtype can be given by position -> that position.
_DTYPE_POSITION = {"jax.numpy.array": 1, "jax.numpy.asarray": 1, "jax.numpy.zeros": 1, "jax.numpy.ones": 1,
                   "jax.numpy.empty": 1, "jax.numpy.full": 2, "jax.numpy.zeros_like": 1, "jax.numpy.ones_like": 1,
                   "jax.numpy.full_like": 2, "jax.numpy.empty_like": 1, "jax.lax.convert_element_type": 1}


_DTYPE_TAILS = {q.rsplit(".", 1)[1] for q in (*_WIDE_TYPES, *_DTYPE_POSITION)} | {"astype"}


def _may_ask_for_a_dtype(call: ast.AST) -> bool:
    """From the call's syntax alone: `NAME(...)` (the name may be an imported `float64` or `zeros`), or
    `X.attr(...)` with a `dtype=` keyword or an attribute that names a wide type, a constructor taking a dtype,
    or `astype`."""
    func = call.func  # type: ignore[attr-defined]
    return isinstance(func, ast.Name) or (isinstance(func, ast.Attribute) and (
        func.attr in _DTYPE_TAILS or any(kw.arg == "dtype" for kw in call.keywords)))  # type: ignore[attr-defined]


def enables_x64(model: ModuleModel, text: str | None = None) -> bool:
    """Whether the module enables (or even mentions) x64: `jax.config.update("jax_enable_x64", ...)`,
    `jax.config.jax_enable_x64 = ...`, `os.environ["JAX_ENABLE_X64"] = ...` (or the variable as a keyword of an
    environment: `dict(os.environ, JAX_ENABLE_X64="1")` handed to a child run), `jax.enable_x64()` (also
    `jax.experimental.enable_x64()`), or takes JAX flags from the command line (`jax.config.config_with_absl()`).
    A module that reads the flag is x64-aware too, so any mention counts (silence is the safe side).
    `text`: the module's source; every such mention spells `x64`/`X64` or `absl` there, so a text with none of
    them is answered without looking at its nodes."""
    if text is not None and "x64" not in text and "X64" not in text and "absl" not in text and "precision" not in text:
        return False
    for node in model.scopes.nodes(ast.Constant):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.lower() in (
                "jax_enable_x64", "--jax_enable_x64"):
            return True
    for node in model.scopes.nodes(ast.Attribute):
        if isinstance(node, ast.Attribute) and node.attr in _FLAG_ATTRIBUTES:
            return True
    for node in model.scopes.nodes(ast.keyword):  # an environment built with the variable as a keyword:
        # `dict(os.environ, JAX_ENABLE_X64="1")` for a child run, `os.environ.update(JAX_ENABLE_X64="1")`
        if isinstance(node, ast.keyword) and node.arg is not None and node.arg.lower() == "jax_enable_x64":
            return True
    if any(isinstance(n, ast.Name) and n.id == "enable_x64" for n in model.scopes.nodes(ast.Name)) or any(
            a.endswith(".enable_x64") for a in model.scopes.import_targets()):
        return True
    # brainstate's environment sets the flag with its precision (brainstate 0.5.4 `environ._set_jax_precision`:
    # `jax_enable_x64` is on for 64): `environ.context(precision=64)`, `environ.set(precision=64)`,
    # `environ.set_precision(64)`
    if not any(a.startswith("brainstate") for a in model.scopes.import_targets()):
        return False
    for call in model.scopes.nodes(ast.Call):
        q = model.scopes.qualname(call.func, model.scopes.enclosing_function(call)) or ""  # type: ignore[attr-defined]
        if q in _BRAINSTATE_PRECISION and (q.endswith("set_precision") or any(
                k.arg == "precision" for k in call.keywords)):  # type: ignore[attr-defined]
            return True
    return False


_BRAINSTATE_PRECISION = {"brainstate.environ.context", "brainstate.environ.set", "brainstate.environ.set_precision"}


def is_program(model: ModuleModel, path: str) -> bool:
    """Whether the module is where a program starts (`if __name__ == "__main__":`, or a notebook), so it
    decides whether x64 is on; a library module cannot know what its users enable."""
    if path.endswith(".ipynb"):
        return True
    for stmt in model.tree.body:
        if isinstance(stmt, ast.If) and isinstance(stmt.test, ast.Compare):
            sides = [stmt.test.left, *stmt.test.comparators]
            if any(isinstance(s, ast.Name) and s.id == "__name__" for s in sides) and any(
                    isinstance(s, ast.Constant) and s.value == "__main__" for s in sides):
                return True
    return False


def _wide_dtype(model: ModuleModel, node: ast.AST, scope: FunctionInfo | None, field: bool = True) -> str | None:
    """The spelling of a 64-bit dtype (`jnp.float64`, `np.int64`, `"float64"`, `jnp.dtype("float64")`), also as
    the default of a class field read through an object of the class (`cfg.dtype`, see `_field_default`)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in _WIDE_STRINGS:
        return repr(node.value)
    q = model.scopes.qualname(node, scope)
    if q in _WIDE_TYPES:
        return ast.unparse(node)
    if isinstance(node, ast.Call) and model.scopes.qualname(node.func, scope) in ("jax.numpy.dtype", "numpy.dtype") and (
            node.args and _wide_dtype(model, node.args[0], scope) is not None):
        return ast.unparse(node)
    default = _field_default(model, node, scope) if field else None  # cfg.dtype with `dtype: Any = jnp.float64`
    if default is not None:
        return _wide_dtype(model, default, None, field=False)
    project = model.project
    if project is not None and isinstance(node, (ast.Name, ast.Attribute)) and (
            scope is None or not isinstance(node, ast.Name) or not model.scopes.is_local(node.id, scope)):
        qualified = project.qualified(node)  # `settings.DTYPE`, `DTYPE` imported from the project's settings module
        if qualified is not None and project.wide_dtype(qualified):
            return ast.unparse(node)
    return None


def _field_default(model: ModuleModel, node: ast.AST, scope: FunctionInfo | None) -> ast.expr | None:
    """`cfg.dtype` with `cfg` an object of a record class of this module (analysis/records.py: `self` in its
    method, a parameter annotated with the class, passed `C(...)` by every call site or reading only its fields, a
    name bound once to `C(...)`) whose class body gives the field a 64-bit default that nothing in the module can
    replace. The default, or None."""
    if not (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)):
        return None
    cls = holder_class(model.scopes, model.traced, node.value.id, scope)
    if cls is None:
        return None
    return unreplaced_default(model.scopes, cls, node.attr,
                              lambda default: _wide_dtype(model, default, None, field=False) is not None)


class Float64WithoutX64(Rule):
    code = "SB105"
    name = "float64-without-x64"
    severity = "warning"
    messages = {
        "no-x64": (
            "`{dtype}` silently gives 32-bit values: {where} never enables `jax_enable_x64`; enable it at start-up or ask for 32 bits"
        ),
    }
    summary = ("Flags requests for 64-bit JAX values (`dtype=jnp.float64`, `.astype(jnp.float64)`, "
               "`jnp.float64(...)`, int64, complex128) in a program that never enables `jax_enable_x64`.")
    why = """
By default JAX computes in 32 bits: unless `jax_enable_x64` is on, `jnp.zeros(3, dtype=jnp.float64)`,
`x.astype(jnp.float64)` and `jnp.float64(1.0)` silently give **float32** (int64 gives int32, complex128 gives
complex64). JAX issues a UserWarning, but it points into JAX's own source rather than your line, and results
that need double precision (ill-conditioned solves, long sums, likelihoods) quietly lose it.

The flag is global and must be set where the program starts, before any array is created:
`jax.config.update("jax_enable_x64", True)` or `JAX_ENABLE_X64=1` in the environment. So the rule warns in a
module that is a program (it has `if __name__ == "__main__":`, or is a notebook) and never mentions the flag. In a
library module it reports at `info`: whether its users enable x64 cannot be known from the module; so it does for
a function of a program module that nothing the module runs reaches (its library part, called from elsewhere). A
module that mentions the flag at all (sets it, reads it, uses `jax.experimental.enable_x64()`, sets brainstate's
precision (`brainstate.environ.context(precision=64)`, which turns the flag on), or builds the environment
of a child run of itself with it, `dict(os.environ, JAX_ENABLE_X64="1")`) is trusted. NumPy's
own float64 (`np.zeros(3, dtype=np.float64)`) is not JAX's concern and is never flagged.

The flag is one for the whole process, so it may be turned on outside the module: by a module of the project that
the module imports (at module level, directly or through other project modules), or by a package the module belongs
to (importing `pkg.sub.mod` runs `pkg/__init__.py` first), which turns it on when imported, also through a function
or class it calls at import (`configure_jax_runtime()` defined in another module of the package, `_config =
JAXConfig()`), or, for a test, by a `conftest.py` in its folder or above (at import, `JAX_ENABLE_X64` set in
`os.environ`, in a `pytest_configure` hook or an `autouse` fixture). All are read statically; a value a setting
decides (`jax.config.update("jax_enable_x64", precision == "float64")`) may turn it on, so the rule is silent there;
a module that enables x64 but is not imported on the way to the code does not count. An import that spells a module of the project with other capitals (a test importing
`JaxOpenSimplexNoise.simplex_noise4d` for the released folder `jaxopensimplexnoise/`) means the one file so
spelled, when there is exactly one.

The dtype may be named elsewhere: a record field's default (`dtype: Any = jnp.float64` of a dataclass, a flax
module attribute, read through `cfg.dtype` when `cfg` holds an object of the class) or a module-level name another
module of the project binds once to a 64-bit dtype (`from simcfg.settings import DTYPE`, `settings.DTYPE`).
"""
    example = """
import jax
import jax.numpy as jnp

def main():
    x = jnp.linspace(0.0, 1.0, 1000, dtype=jnp.float64)
    print(jnp.sum(x ** 2))

if __name__ == "__main__":
    main()
"""
    use_instead = """
import jax
import jax.numpy as jnp

jax.config.update("jax_enable_x64", True)

def main():
    x = jnp.linspace(0.0, 1.0, 1000, dtype=jnp.float64)
    print(jnp.sum(x ** 2))

if __name__ == "__main__":
    main()
"""
    fix_safety = """
No fix is offered. Enabling x64 is a decision for the whole program (it doubles memory and changes every default
dtype, also in code far from this line), and asking for float32 instead changes the precision the author asked
for; both are changes of behaviour, and neither is mechanical.
"""
    VALID = [
        # a test re-runs its own file in a child whose environment turns x64 on: the JAX code runs there
        "import os\nimport subprocess\nimport sys\nimport jax.numpy as jnp\ndef check():\n"
        "    print(jnp.asarray(3, dtype=jnp.int64).dtype)\ndef test_child():\n"
        "    subprocess.run([sys.executable, __file__], env=dict(os.environ, JAX_ENABLE_X64='1'), check=True)\n"
        "if __name__ == '__main__':\n    check()\n",
        # the program enables x64
        "import jax\nimport jax.numpy as jnp\njax.config.update('jax_enable_x64', True)\n"
        "x = jnp.zeros(3, dtype=jnp.float64)\nif __name__ == '__main__':\n    print(x)\n",
        # through `from jax import config`, and the environment variable
        "import os\nos.environ['JAX_ENABLE_X64'] = '1'\nimport jax.numpy as jnp\nx = jnp.ones(3).astype(jnp.float64)\n"
        "if __name__ == '__main__':\n    print(x)\n",
        # the enable_x64 context
        # brainstate's environment turns the flag on for precision 64
        "import brainstate\nimport jax.numpy as jnp\ndef test_times():\n"
        "    with brainstate.environ.context(precision=64):\n        t = jnp.arange(3, dtype=jnp.float64)\n"
        "    return t\nif __name__ == '__main__':\n    test_times()\n",
        "import jax.numpy as jnp\nfrom jax.experimental import enable_x64\nwith enable_x64():\n"
        "    x = jnp.float64(1.0)\nif __name__ == '__main__':\n    print(x)\n",
        # NumPy float64 is not JAX's concern
        "import numpy as np\nx = np.zeros(3, dtype=np.float64).astype(np.float64)\nif __name__ == '__main__':\n"
        "    print(x)\n",
        # a float64 field default replaced where the object is built
        "from dataclasses import dataclass\nfrom typing import Any\nimport jax.numpy as jnp\n@dataclass\n"
        "class Config:\n    dtype: Any = jnp.float64\ndef make(cfg: Config):\n    return jnp.zeros(3, dtype=cfg.dtype)\n"
        "if __name__ == '__main__':\n    print(make(Config(dtype=jnp.float32)))\n",
        # float32 asked for, and dtype comparisons
        "import jax.numpy as jnp\ndef f(x):\n    return x.dtype == jnp.float64\nif __name__ == '__main__':\n"
        "    print(f(jnp.zeros(3, dtype=jnp.float32)))\n",
    ]
    INVALID = [
        Invalid("import jax.numpy as jnp\nx = jnp.zeros(3, dtype=jnp.float64)\nif __name__ == '__main__':\n    print(x)\n"),
        # the child run's environment sets other variables, not the flag: int32 there too
        Invalid("import os\nimport subprocess\nimport sys\nimport jax.numpy as jnp\ndef check():\n"
                "    print(jnp.asarray(3, dtype=jnp.int64).dtype)\ndef test_child():\n"
                "    subprocess.run([sys.executable, __file__], env=dict(os.environ, JAX_PLATFORMS='cpu'), check=True)\n"
                "if __name__ == '__main__':\n    check()\n"),
        Invalid("import jax.numpy as jnp\ndef f(x):\n    return jnp.asarray(x).astype('float64')\n"
                "if __name__ == '__main__':\n    print(f(1.0))\n"),
        Invalid("import jax.numpy as jnp\nimport numpy as np\nx = jnp.array([1, 2], np.int64)\ny = jnp.float64(2.0)\n"
                "if __name__ == '__main__':\n    print(x, y)\n", count=2),
        # the float64 default of a dataclass field, read through its object
        Invalid("from dataclasses import dataclass\nfrom typing import Any\nimport jax.numpy as jnp\n@dataclass\n"
                "class Config:\n    dtype: Any = jnp.float64\ndef make(cfg: Config):\n    return jnp.zeros(3, dtype=cfg.dtype)\n"
                "if __name__ == '__main__':\n    print(make(Config()))\n"),
        # a library module cannot know what its users enable: info
        Invalid("import jax.numpy as jnp\ndef f(x):\n    return jnp.asarray(x, dtype=jnp.float64)\n", severity="info"),
        # a program module's library function that its own code never runs: info, like a library's (ripplegw)
        Invalid("import jax.numpy as jnp\ndef read(path):\n    return jnp.asarray([1.0], dtype=jnp.float64)\n"
                "def fetch():\n    print('downloading')\nif __name__ == '__main__':\n    fetch()\n", severity="info"),
    ]

    def check(self, ctx: RuleContext) -> None:
        model = ctx.model
        if not any(v.split(".")[0] == "jax" for v in model.scopes.import_targets()):
            return
        if enables_x64(model, ctx.source.text):
            return
        program = is_program(model, ctx.source.path)
        unreached = model.fact(Execution).unreached_functions() if program else set()
        outside: list[bool] = []  # asked once, at the first request: x64 enabled by an import or a conftest
        for node in model.scopes.candidates("dtype requests", (ast.Call,), _may_ask_for_a_dtype):
            assert isinstance(node, ast.Call)
            scope = model.scopes.enclosing_function(node)
            # in a program, the library functions its own code never runs are reported like a library's
            severity = None if program and (scope is None or scope.outermost.qualname not in unreached) else "info"
            q = model.scopes.qualname(node.func, scope)
            asked: ast.AST | None = None
            if q in _WIDE_TYPES and q.startswith("jax."):  # jnp.float64(1.0)
                asked = node.func
            elif q is not None and q.startswith("jax."):
                candidates = [kw.value for kw in node.keywords if kw.arg == "dtype"]
                position = _DTYPE_POSITION.get(q)
                if position is not None and len(node.args) > position:
                    candidates.append(node.args[position])
                asked = next((c for c in candidates if _wide_dtype(model, c, scope) is not None), None)
            elif (isinstance(node.func, ast.Attribute) and node.func.attr == "astype" and node.args
                  and model.kinds.kind_of(node.func.value, scope) in ARRAYS):
                asked = node.args[0] if _wide_dtype(model, node.args[0], scope) is not None else None
            if asked is None:
                continue
            if not outside:
                outside.append(model.project is not None and enabled_outside(model.project, model.tree) is not None)
            if outside[0]:
                return
            spelling = _wide_dtype(model, asked, scope) or ast.unparse(asked)
            where = "this program" if severity is None else "this module"
            ctx.report(
                asked,  # the dtype the user wrote: what to change
                self.message("no-x64", dtype=spelling, where=where),
                severity=severity,  # type: ignore[arg-type]
            )
