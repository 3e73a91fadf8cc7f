"""The hot paths stay lean: `sharpbits check` and the language server's per-keystroke path import neither jax
nor libcst (fixes import libcst lazily; only the trace worker imports jax)."""

import subprocess
import sys

CODE = "import jax.numpy as jnp\nx = jnp.zeros(3)\ny = x + 1\n"


def imported_modules(*args: str) -> set[str]:
    script = (
        "import sys, runpy\n"
        f"sys.argv = ['sharpbits', *{list(args)!r}]\n"
        "try:\n    runpy.run_module('sharpbits', run_name='__main__')\nexcept SystemExit:\n    pass\n"
        "print('\\n'.join(sorted(sys.modules)), file=sys.stderr)\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    return set(out.stderr.split())


def test_check_imports_neither_jax_nor_libcst(tmp_path):
    path = tmp_path / "m.py"
    path.write_text(CODE)
    modules = imported_modules("check", str(path))
    assert "sharpbits.analysis.engine" in modules
    assert not {m for m in modules if m.split(".")[0] in ("jax", "jaxlib", "libcst", "pygls", "numpy")}


def test_analysis_path_of_the_server_imports_neither(tmp_path):
    script = (
        "import sys\nfrom sharpbits.lsp import server\nfrom sharpbits.analysis.engine import analyze\n"
        f"analyze({CODE!r}, 'm.py')\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('jax', 'jaxlib', 'libcst')))\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr
