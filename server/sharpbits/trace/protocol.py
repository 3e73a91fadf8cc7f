"""The wire format between the server and the trace worker.

Each message is one JSON object, UTF-8, preceded by its length as 4 bytes big-endian. Server -> worker on the
worker's stdin, worker -> server on a duplicate of the worker's original stdout (the worker points fd 1 and 2
elsewhere before any user code runs, so nothing a user prints can corrupt a frame).

The worker cannot import sharpbits (it runs in the user's interpreter, possibly on another host), so
`worker.py` carries its own copy of `write_frame`/`read_frame`; keep both copies this small.

Messages:
  worker -> server, once at start:  {"type": "hello", "protocol": VERSION, "ok": bool, "jax": ..., "device": {...},
                                     "error": {...} when jax could not be imported}
  server -> worker:                 {"id": n, "type": "trace" | "ping" | "shutdown", ...}
  worker -> server:                 {"id": n, "type": "ack"} as soon as a request is read (a worker that dies
                                    before acking was idle: the request can be sent again), then
                                    {"id": n, "type": "result", ...}
"""

from __future__ import annotations

import json
import struct
from typing import IO, Any, Literal, TypedDict

# Bump when a request or result record changes shape; worker.py's PROTOCOL must say the same (a test checks).
VERSION = 3

# ---- the one definition of the views and platforms (CLI choices, server defaults, the extension's settings and
# generated TypeScript, the docs: tests/trace/test_contract.py checks they all agree; worker.py keeps a copy)
VIEWS = ("jaxpr", "stablehlo", "hlo", "cost", "timing", "lines", "sharding")
DEFAULT_VIEWS_CLI = ("jaxpr", "lines", "cost", "timing")
PLATFORMS = ("auto", "cpu", "gpu", "cuda", "rocm", "tpu")  # the worker's JAX_PLATFORMS (auto: JAX chooses)
LOWER_FOR_PLATFORMS = ("cpu", "cuda", "rocm", "tpu")  # StableHLO for another platform, lowered on any host

View = Literal["jaxpr", "stablehlo", "hlo", "cost", "timing", "lines", "sharding"]
Platform = Literal["auto", "cpu", "gpu", "cuda", "rocm", "tpu"]


# ---- records. total=False: the worker fills what the requested views need, so most fields are optional.


class CellRange(TypedDict):
    """Where one notebook cell is in a program of concatenated cells: lines first_line..first_line+line_count-1."""

    cell: int  # 1-based among all cells of the notebook, markdown included, as editors number them
    first_line: int
    line_count: int


class TraceRequest(TypedDict):
    """server -> worker: trace one function of one document. For a function defined in a notebook cell, `text` is
    the program made of the code cells up to that cell (IPython syntax masked, so lines stay the cells' lines)
    and `cells` says where each cell is in it; `path` is the notebook's."""

    type: Literal["trace"]
    id: int
    path: str
    text: str
    function: str
    spec: dict[str, Any] | None
    show: list[View] | None
    root: str | None
    cwd: str
    time_budget_s: float
    eager: bool
    lower_for: str | None
    cells: list[CellRange] | None


class Frame(TypedDict):
    line: int
    function: str
    col: int | None


class TraceParams(TypedDict, total=False):
    """editor -> server: the `sharpbits/trace` request's params."""

    uri: str
    function: str
    text: str
    args: str
    show: list[View] | str
    platform: Platform
    lowerFor: str
    timeout: float


class ErrorInfo(TypedDict, total=False):
    type: str
    message: str
    phase: str
    line: int | None
    qualified_type: str
    hint: str
    cause: str
    exit_code: int | None
    col: int | None
    traceback: str
    frames: list[Frame]
    cell: int  # in a notebook: the cell of the line where it was raised (1-based among all cells)
    cell_line: int  # ... and that line in the cell


class DeviceInfo(TypedDict, total=False):
    platform: str
    device_kind: str
    count: int


class RunStats(TypedDict, total=False):
    median_s: float
    mean_s: float
    min_s: float
    max_s: float
    p10_s: float
    p90_s: float
    std_s: float
    n: int


class EagerTimings(TypedDict, total=False):
    first_call_s: float
    run: RunStats
    note: str
    skipped: str


class Timings(TypedDict, total=False):
    module_s: float
    trace_s: float
    lower_s: float
    compile_s: float
    compile_cache: str
    first_call_s: float
    run: RunStats
    eager: EagerTimings


class Equation(TypedDict):
    primitive: str
    line: int | None
    depth: int
    parent: int | None


class JaxprInfo(TypedDict, total=False):
    text: str
    eqn_count: int
    eqn_count_inlined: int
    equations: list[Equation]
    text_lines: list[list[int]]


class MappedOp(TypedDict, total=False):
    text_line: int
    op: str
    line: int | None
    func: str  # StableHLO: the function it is in
    callee: str  # StableHLO: a call's target
    name: str  # optimized HLO: the instruction's name


class CompiledInfo(TypedDict, total=False):
    """StableHLO or optimized HLO, with each op's source line."""

    text: str
    op_count: int
    ops: list[MappedOp]
    lines: dict[str, dict[str, int]]
    lowered_for: str


class MemoryInfo(TypedDict, total=False):
    argument_size_bytes: int
    output_size_bytes: int
    alias_size_bytes: int
    temp_size_bytes: int
    generated_code_size_bytes: int
    peak_memory_bytes: int


class CostInfo(TypedDict, total=False):
    flops: float | None
    transcendentals: float | None
    bytes_accessed: float | None
    raw: dict[str, float]
    memory: MemoryInfo
    cost_error: str
    memory_error: str


class PeakInfo(TypedDict):
    """A device's peak: from the accelerator table, or measured on this CPU by the worker."""

    flops_per_s: float
    bytes_per_s: float
    precision: str
    source: str


class Roofline(TypedDict, total=False):
    """Achieved rates from cost analysis and the median run time, against the device's peak."""

    flops_per_s: float
    bytes_per_s: float
    intensity: float  # flop per byte accessed
    run_s: float
    ridge: float  # the intensity where the peak FLOP/s and the peak bytes/s meet
    bound: Literal["compute", "memory"]
    fraction_of_peak: float  # achieved / peak of the bound resource
    flops_fraction: float
    bytes_fraction: float
    peak: PeakInfo
    note: str


class LineEquations(TypedDict):
    line: int
    equations: int  # jaxpr equations this source line produced (nested jaxprs included)
    primitives: dict[str, int]


class CompileBreakdown(TypedDict, total=False):
    """Where the compile time went: tracing (Python -> jaxpr), lowering (-> StableHLO), XLA compile; and the
    source lines that produced the most equations (what the three grow with)."""

    trace_s: float
    lower_s: float
    compile_s: float
    total_s: float
    cache: str  # "hit": compile_s was a persistent-cache read
    equations: int
    top_lines: list[LineEquations]


class DeviceGrid(TypedDict):
    """Which devices hold which block of a value's first two axes (jax.debug.visualize_array_sharding)."""

    rows: list[list[int]]  # [start, stop) of each block row along axis 0
    cols: list[list[int]]  # ... and each block column along axis 1
    cells: list[list[list[int]]]  # device ids per block


class ShardedValue(TypedDict, total=False):
    name: str  # `x`, `params['w']`, `result[0]`
    shape: list[int]
    dtype: str
    sharding: str  # NamedSharding, SingleDeviceSharding, ...
    spec: str | None  # PartitionSpec, for a NamedSharding
    devices: int
    replicated: bool
    grid: DeviceGrid


class ShardingInfo(TypedDict):
    device_count: int
    arguments: list[ShardedValue]
    results: list[ShardedValue]


class Collective(TypedDict):
    """A collective in the optimized HLO: the bytes of its result, the source line it came from."""

    op: str
    bytes: int
    shape: str
    line: int | None
    text_line: int


class Argument(TypedDict):
    name: str
    static: bool
    spec: str


class Target(TypedDict):
    function: str
    line: int | None


class WorkerInfo(TypedDict, total=False):
    pid: int
    jax: str
    python: str


class SpecInfo(TypedDict):
    source: str
    text: str | None
    line: int | None


class RetraceReason(TypedDict, total=False):
    text: str
    line: int


class Retrace(TypedDict):
    """A function of the document that JAX traced during this trace, and why each retrace happened."""

    function: str
    line: int
    traces: int
    reasons: list[RetraceReason]


class SkippedCell(TypedDict):
    cell: int
    reason: str


class NotebookRun(TypedDict):
    """A trace of a function defined in a notebook cell: which code cells ran first (in order, as "Run All" runs
    them, magics and shell escapes left out) and which were not run at all. Every line in the result is a line of
    the function's cell; a line in another cell is null (or left out where a line is required)."""

    cell: int  # the function's cell (1-based among all cells)
    ran: list[int]
    skipped: list[SkippedCell]
    note: str  # the same, said in words


class TraceResult(TypedDict, total=False):
    """worker -> server -> editor: the answer to one trace (the JSON the CLI prints, the LSP result)."""

    ok: bool
    protocol: int
    phase: str
    error: ErrorInfo
    refused: bool
    needsSpec: bool
    stale: bool
    uri: str
    spec: SpecInfo
    target: Target
    arguments: list[Argument]
    jitted_by_user: bool
    timings: Timings
    jaxpr: JaxprInfo
    stablehlo: CompiledInfo
    hlo: CompiledInfo
    cost: CostInfo
    roofline: Roofline
    compile: CompileBreakdown
    sharding: ShardingInfo
    collectives: list[Collective]
    notes: list[str]
    stdout: str
    retraces: list[Retrace]
    config_restored: list[str]
    round_trip_s: float
    worker: WorkerInfo
    device: DeviceInfo
    notebook: NotebookRun


RECORDS: tuple[type, ...] = (TraceParams, TraceResult)  # roots of the generated TypeScript (everything they reach comes too)
_HEADER = struct.Struct(">I")
MAX_FRAME = 1 << 30


class ProtocolError(Exception):
    """The other end sent something that is not a frame, or closed the channel mid-frame."""


def encode(message: dict[str, Any]) -> bytes:
    body = json.dumps(message, separators=(",", ":"), default=str).encode("utf-8")
    return _HEADER.pack(len(body)) + body


def write_frame(stream: IO[bytes], message: dict[str, Any]) -> None:
    stream.write(encode(message))
    stream.flush()


def _read_exact(stream: IO[bytes], n: int) -> bytes | None:
    chunks, got = [], 0
    while got < n:
        chunk = stream.read(n - got)
        if not chunk:
            if got == 0:
                return None
            raise ProtocolError(f"channel closed after {got} of {n} bytes")
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def read_frame(stream: IO[bytes]) -> dict[str, Any] | None:
    """The next message, or None when the channel closed cleanly between messages."""
    header = _read_exact(stream, _HEADER.size)
    if header is None:
        return None
    (size,) = _HEADER.unpack(header)
    if size > MAX_FRAME:
        raise ProtocolError(f"frame of {size} bytes: not a sharpbits worker speaking (wrong stdout?)")
    body = _read_exact(stream, size)
    if body is None:
        raise ProtocolError("channel closed before the frame body")
    try:
        message = json.loads(body.decode("utf-8"))
    except ValueError as exc:
        raise ProtocolError(f"frame is not JSON: {exc}") from exc
    if not isinstance(message, dict):
        raise ProtocolError("frame is not a JSON object")
    return message
