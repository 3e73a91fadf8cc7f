"""A multi-device check re-runs its own file in a child process whose environment turns x64 on
(`dict(os.environ, JAX_ENABLE_X64="1")`, beside XLA_FLAGS): JAX reads the variable at import, so the
child, which alone runs the JAX code, computes in 64 bits."""
import os
import subprocess
import sys


def test_in_child():
    env = dict(os.environ, JAX_PLATFORMS="cpu", JAX_ENABLE_X64="1")
    proc = subprocess.run([sys.executable, __file__, "--child"], env=env, capture_output=True, text=True)
    assert proc.returncode == 0 and "int64" in proc.stdout, proc.stdout + proc.stderr
    print(proc.stdout.strip())


def run_validation():
    import jax.numpy as jnp

    start = jnp.asarray(3, dtype=jnp.int64)
    assert start.dtype == jnp.int64, start.dtype
    print(start.dtype)


if __name__ == "__main__":
    if sys.argv[1:] == ["--child"]:
        run_validation()
    else:
        test_in_child()
