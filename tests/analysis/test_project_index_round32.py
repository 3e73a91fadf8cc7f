"""Round 32's classes that need more than one module (a labelled pair cannot be one file): a test that imports its
package under the name it had before its release renamed the folder (jaxopensimplexnoise's tests import
`JaxOpenSimplexNoise.simplex_noise4d`, the module that turns x64 on at import). Each project was run under JAX on
CPU when written: the bug twins give float32, the clean ones do not."""

from pathlib import Path

from tests.analysis.small_projects import findings_in_folder, no_shared_index  # noqa: F401 (autouse fixture)

NOISE = '''\
import jax
import jax.numpy as jnp

jax.config.update("jax_enable_x64", True)


def noise(seed, x):
    return jnp.sin(x * seed)
'''

PLAIN = '''\
import jax.numpy as jnp


def noise(seed, x):
    return jnp.sin(x * seed)
'''

TEST = '''\
import jax.numpy as jnp
from JaxNoise.simplex import noise


def test_noise():
    x = jnp.array(0.5, dtype=jnp.float64)
    assert noise(3, x).dtype == jnp.float64
'''


def _float64_lines(root: Path, files: dict[str, str], target: str) -> list[int]:
    return [f.line for f in findings_in_folder(root, files, target) if f.rule == "float64-without-x64"]


def test_an_import_spelled_with_other_capitals_reaches_the_module_that_enables_x64(tmp_path):
    """`JaxNoise.simplex` is the project's `jaxnoise/simplex.py` (the one file so spelled): importing it turns x64 on,
    so the test's float64 is 64-bit. A module of that name that does not enable x64 leaves the finding."""
    assert _float64_lines(tmp_path / "a", {"jaxnoise/simplex.py": NOISE, "tests/test_noise.py": TEST},
                          "tests/test_noise.py") == []
    assert _float64_lines(tmp_path / "b", {"jaxnoise/simplex.py": PLAIN, "tests/test_noise.py": TEST},
                          "tests/test_noise.py") == [6]


def test_two_files_so_spelled_leave_the_import_unknown(tmp_path):
    """With `jaxnoise/simplex.py` and `JAXNOISE/simplex.py` both there, the import names neither for sure: the
    finding stays (only one that enables x64 would silence it)."""
    files = {"jaxnoise/simplex.py": NOISE, "JAXNOISE/simplex.py": PLAIN, "tests/test_noise.py": TEST}
    assert _float64_lines(tmp_path, files, "tests/test_noise.py") == [6]
