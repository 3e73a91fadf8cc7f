"""A matmul-heavy jitted function for `sharpbits trace` on an accelerator (helper-notes' gpu_check.sh runs it):
the reply shows the device kind, the trace/lower/compile/steady-state timings, XLA's cost, and the roofline
(a large matmul is compute-bound; its percent of peak must stay at or under 100%).

    PYTHONPATH=server python3 -m sharpbits trace examples/gpu/matmul_roofline.py::mlp_block
    PYTHONPATH=server python3 -m sharpbits trace examples/gpu/matmul_roofline.py::mlp_block_bf16
"""

import jax


# sharpbits: trace(x=f32[4096,4096], w1=f32[4096,4096], w2=f32[4096,4096])
@jax.jit
def mlp_block(x, w1, w2):
    # two 4096³ matmuls: 2·2·4096³ ≈ 275 Gflop over about 256 MiB moved, ~1000 flop per byte: compute-bound
    h = jax.nn.gelu(x @ w1)
    return h @ w2


# sharpbits: trace(x=bf16[4096,4096], w1=bf16[4096,4096], w2=bf16[4096,4096])
@jax.jit
def mlp_block_bf16(x, w1, w2):
    # the same in bfloat16: the tensor cores' bf16 peak is the roofline's ceiling
    h = jax.nn.gelu(x @ w1)
    return h @ w2
