"""A multi-device check re-runs its own file in a child process with XLA_FLAGS in its environment but not
JAX_ENABLE_X64: nothing turns x64 on in the child either, so the int64 offsets it asks for are int32."""
import os
import subprocess
import sys


def test_in_child():
    env = dict(os.environ, JAX_PLATFORMS="cpu", XLA_FLAGS="--xla_force_host_platform_device_count=2")
    proc = subprocess.run([sys.executable, __file__, "--child"], env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    print(proc.stdout.strip())


def run_validation():
    import jax.numpy as jnp

    start = jnp.asarray(3, dtype=jnp.int64)  # expect: float64-without-x64
    if start.dtype != jnp.int64:
        print(f"SHARP BIT: the offset is {start.dtype}")


if __name__ == "__main__":
    if sys.argv[1:] == ["--child"]:
        run_validation()
    else:
        test_in_child()
