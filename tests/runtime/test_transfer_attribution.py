"""SB604 counts the reads the user's code makes, not JAX's own: `jax.jacobian` of a jitted function reprs its
arguments for debug info (a device-to-host read per call, found by bench/runtime_recall.py on optax's tests), while
the user's own `repr`/f-string of an array in a loop is still a transfer at their line."""

from __future__ import annotations

from pathlib import Path

from tests.runtime.helpers import by_code, line_of, sharpbits_run, write


def test_a_read_jax_makes_for_its_own_debug_info_is_not_the_users(tmp_path: Path):
    program = write(tmp_path, "prog.py", """
import jax
import jax.numpy as jnp


@jax.jit
def g(key, x):
    zs = jax.random.normal(key, (1000, 3))
    return jnp.mean(jax.vmap(lambda z: jnp.sin(x + z))(zs), 0)


key = jax.random.key(0)
x = jnp.array([0.3, 0.4, 0.5])
for _ in range(12):
    jax.jacobian(g, argnums=1)(key, x)  # jacobian
for _ in range(12):
    text = f"{x}"  # format
""")
    proc, findings = sharpbits_run(tmp_path, program)
    assert proc.returncode == 0, proc.stderr
    assert [f["line"] for f in by_code(findings, "SB604")] == [line_of(program, "format")]
