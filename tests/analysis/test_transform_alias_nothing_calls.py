"""Issue 22 (round 28, jaxhps's adaptive down passes): `vmapped_f = jax.vmap(f, in_axes=(0, 0, 0))` at module level
in a private module, its name spelled nowhere else in the module or the project, traces nothing: a transformation
traces its function when the transformed callable is called, and nothing calls this one. `f`'s own calls pass
Python ints (confirmed under JAX below: the direct call slices with them; the alias, were it called, maps its
keyword sizes and raises). Called from another module, read in its own module, or defined in a public module (a
package's interface, which users call), the alias keeps tracing `f`."""

from pathlib import Path

import jax
import jax.numpy as jnp
import pytest

from tests.analysis.small_projects import findings_in_project, no_shared_index  # noqa: F401 (autouse fixture)

IMPL = '''\
import jax
import jax.numpy as jnp


def down(bdry, n_a: int, n_b: int):
    return [bdry[0][:n_a], bdry[1][n_b:]]


def down_pass(bdry, tree):
    return [down(bdry, n_a=a, n_b=b) for a, b in tree]


vmapped_down = jax.vmap(down, in_axes=(0,), out_axes=0)
'''
SLICES = [("dynamic-shape", 6), ("dynamic-shape", 6)]


def _found(root: Path, files: dict[str, str], target: str) -> list[tuple[str, int]]:
    return sorted(f for f in findings_in_project(root, files, target) if f[0] == "dynamic-shape")


def test_an_alias_nothing_calls_in_a_private_module_traces_nothing(tmp_path: Path) -> None:
    assert _found(tmp_path / "a", {"_impl.py": IMPL, "api.py": "from pkg._impl import down_pass\n"}, "_impl.py") == []


def test_an_alias_another_module_calls_still_traces(tmp_path: Path) -> None:
    api = "from pkg._impl import vmapped_down\n\n\ndef run(b, n):\n    return vmapped_down(b, n_a=n, n_b=n)\n"
    assert _found(tmp_path / "b", {"_impl.py": IMPL, "api.py": api}, "_impl.py") == SLICES


def test_an_alias_read_in_its_own_module_still_traces(tmp_path: Path) -> None:
    impl = IMPL + "\n\ndef batched(b, n):\n    return vmapped_down(b, n_a=n, n_b=n)\n"
    assert _found(tmp_path / "c", {"_impl.py": impl}, "_impl.py") == SLICES


def test_an_alias_named_in_all_still_traces(tmp_path: Path) -> None:
    impl = '__all__ = ["down_pass", "vmapped_down"]\n' + IMPL
    assert _found(tmp_path / "d", {"_impl.py": impl}, "_impl.py") == [("dynamic-shape", 7), ("dynamic-shape", 7)]


def test_an_alias_of_a_public_module_still_traces(tmp_path: Path) -> None:
    assert _found(tmp_path / "e", {"impl.py": IMPL}, "impl.py") == SLICES


def test_under_jax_the_direct_call_works_and_the_alias_would_raise() -> None:
    bdry = [jnp.arange(6.0), jnp.arange(6.0)]
    out = [bdry[0][:2], bdry[1][3:]]  # down(bdry, n_a=2, n_b=3), untransformed: Python ints slice
    assert [o.shape for o in out] == [(2,), (3,)]

    def down(bdry, n_a, n_b):
        return [bdry[0][:n_a], bdry[1][n_b:]]

    batched = [jnp.ones((2, 6)), jnp.ones((2, 6))]
    vmapped = jax.vmap(down, in_axes=(0,), out_axes=0)
    with pytest.raises(IndexError, match="Slice entries must be static"):
        vmapped(batched, n_a=jnp.array([2, 2]), n_b=jnp.array([3, 3]))


def test_what_other_files_spell_follows_their_edits_not_the_asking_files(tmp_path: Path) -> None:
    """The answer is kept while the private module itself is edited (each keystroke there would read every
    project file again), and asked again when another file's text changes."""
    from sharpbits.analysis.project_index import ProjectIndex

    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    impl, api = pkg / "_impl.py", pkg / "api.py"
    impl.write_text(IMPL)
    api.write_text("from pkg._impl import down_pass\n")
    index = ProjectIndex([tmp_path])
    index.update(impl, IMPL)
    index.update(api, api.read_text())
    assert index.named_elsewhere("vmapped_down", str(impl)) is False
    index.update(impl, IMPL + "\n# typing here\n")
    assert ("vmapped_down", str(impl.absolute()), True) in index._named  # kept: only the asking file changed
    api.write_text("from pkg._impl import vmapped_down\n")  # saved, and fed as the server feeds a saved file
    index.update(api, api.read_text())
    assert index.named_elsewhere("vmapped_down", str(impl)) is True  # another file now spells it


def test_a_public_module_is_not_read_again_for_its_aliases(tmp_path: Path) -> None:
    """Which modules are private is asked before the module's names are counted: the count read every name of the
    module, on every keystroke, in public modules with module-level `jax.jit` aliases (a 5,000-line file's
    keystroke-to-squiggles went from 1.0x to 10x `ast.parse`: bench/typing_speed.py)."""
    import ast

    from sharpbits.analysis.model import ModuleModel
    from sharpbits.analysis.project_index import ProjectIndex

    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    index = ProjectIndex([tmp_path])
    for name in ("impl.py", "_impl.py"):
        (pkg / name).write_text(IMPL)
        index.update(pkg / name, IMPL)
        model = ModuleModel(ast.parse(IMPL), project=index.view(pkg / name, ast.parse(IMPL)))
        assert (model.traced._name_counts is None) == (name == "impl.py")
