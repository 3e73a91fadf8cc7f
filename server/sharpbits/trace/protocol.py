"""The one definition of the trace protocol: the worker's wire format and every record that crosses a boundary.

Each message is one JSON object, UTF-8, preceded by its length as 4 bytes big-endian. Server -> worker on the
worker's stdin, worker -> server on a duplicate of the worker's original stdout (the worker points fd 1 and 2
elsewhere before any user code runs, so nothing a user prints can corrupt a frame).

The worker imports this module too: it runs in the user's interpreter (possibly on another host) where sharpbits
is not installed, so the client ships this file's source with the worker's (client.BOOTSTRAP runs it first, as
the module `__sharpbits_protocol__`). Keep it standard library only, and parseable by Python 3.8.

Messages (each a record below):
  server -> worker, once at start:  ConfigMessage
  worker -> server, once at start:  Hello (its `protocol` is VERSION; the client refuses any other)
  server -> worker:                 TraceRequest | PingRequest | ShutdownRequest
  worker -> server:                 Ack as soon as a request is read (a worker that dies before acking was idle:
                                    the request can be sent again), then WorkerResult, which carries VERSION too
  client -> caller:                 TraceResult (TraceClient.trace derives it from the WorkerResult: source maps,
                                    roofline, compile breakdown), PingResult, WorkerStatus
  editor <-> server:                REQUESTS (LSP requests) and COMMANDS (workspace/executeCommand), mirrored in
                                    extension/src/tracing/protocol.generated.ts by schema.py
"""

from __future__ import annotations

import json
import struct
from collections.abc import Callable, Mapping
from typing import IO, Any, Literal, TypedDict

# Bump when a record changes shape. The worker sends it in its Hello and in every WorkerResult; the client refuses
# a worker that says another (see client.py: a ProtocolMismatch error).
VERSION = 5

# ---- the one definition of the views and platforms (CLI choices, server defaults, the extension's settings and
# generated TypeScript, the docs: tests/trace/test_contract.py checks they all agree)
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
    check_key_reuse: bool  # trace under jax.debug_key_reuse: a reuse becomes a finding, the trace goes on


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
    """What went wrong. `type`: the exception's class name for errors of the traced code (`TypeError`,
    `TracerBoolConversionError`, ...), else one of CLIENT_ERRORS (said by the client) or of the server's own
    (`InvalidParams`, `SpecNeeded`, `WorkspaceNotTrusted`, `TracingDisabled`)."""

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
    stderr_tail: str  # WorkerCrashed / WorkerStartError: the last lines the worker wrote to its stderr


# Errors the client says itself (ErrorInfo.type), whatever the traced code did.
ClientError = Literal["WorkerStartError", "WorkerCrashed", "Timeout", "Cancelled", "ProtocolError",
                      "ProtocolMismatch"]
CLIENT_ERRORS: tuple[str, ...] = ("WorkerStartError", "WorkerCrashed", "Timeout", "Cancelled", "ProtocolError",
                                  "ProtocolMismatch")


def client_error(type_: ClientError, message: str, phase: str | None = None) -> ErrorInfo:
    """An error the client says (not the traced code): typed, with the phase it happened in."""
    error: ErrorInfo = {"type": type_, "message": message}
    if phase is not None:
        error["phase"] = phase
    return error


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
    noisy: bool  # the runs spread widely (p90 - p10 above half the median): the machine was busy


class EagerTimings(TypedDict, total=False):
    first_call_s: float
    run: RunStats
    note: str
    skipped: str


class Timings(TypedDict, total=False):
    module_s: float  # the document's module body (module-level code runs before every trace)
    trace_s: float
    lower_s: float
    compile_s: float  # XLA compile alone; on a persistent-cache hit, the time to read the cached executable
    compile_cache: Literal["hit", "miss"]
    first_call_s: float
    run: RunStats
    eager: EagerTimings


class _EquationBase(TypedDict):
    primitive: str
    line: int | None  # the innermost frame in the document (a helper's equation: the helper's line)
    depth: int
    parent: int | None


class Equation(_EquationBase, total=False):
    # the line of the traced function it is counted at: the innermost frame inside the function's own lines, so a
    # helper's or a transformation's (value_and_grad, vmap, a nested jit) equations count at the calling line;
    # None when no frame is in the function (then it counts in JaxprInfo.eqns_outside)
    call_line: int | None


class LineEquations(TypedDict):
    line: int
    equations: int  # jaxpr equations this source line produced (nested jaxprs included)
    primitives: dict[str, int]


class JaxprInfo(TypedDict, total=False):
    """The jaxpr and THE equation count. `eqns` is the one figure every view shows (lens, hover, inlay hints,
    listing, compile breakdown): every equation of the jaxpr and of every jaxpr nested in it (jit/pjit, scan,
    cond and while bodies, custom_jvp/vjp), the equations that hold a nested jaxpr included; one entry of
    `equations` each. `by_line` splits it over the traced function's lines (Equation.call_line), and
    sum(by_line) + eqns_outside == eqns."""

    text: str
    eqns: int
    eqns_top_level: int  # equations of the outermost jaxpr only
    eqns_leaves: int  # equations after inlining: every equation that holds a nested jaxpr replaced by its body
    eqns_outside: int  # equations with no frame inside the traced function's lines
    by_line: list[LineEquations]  # sorted by line
    function_lines: list[int]  # [first, last]: the traced function's lines (decorators included)
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
    # "xla": XLA's cost analysis; "jaxpr": XLA's figure left out the matrix products (on GPU a product handed to
    # cuBLAS is a custom call of 0 flops), so `flops` is the jaxpr's product count (`xla_flops` kept)
    flops_source: str
    xla_flops: float | None
    matmul_flops: float
    # "arguments+output": the arguments read and outputs written once (a floor), where XLA could not count the
    # bytes (-1) or counted fewer while handing products to cuBLAS/cuDNN; absent: XLA's figure
    bytes_source: str
    transcendentals: float | None
    bytes_accessed: float | None
    raw: dict[str, float]
    memory: MemoryInfo
    cost_error: str
    memory_error: str


class _PeakBase(TypedDict):
    flops_per_s: float
    bytes_per_s: float
    precision: str
    source: str


class PeakInfo(_PeakBase, total=False):
    """A device's peak: from the accelerator table, or measured on this CPU by the worker. `memory`: which memory
    `bytes_per_s` is the bandwidth of: "main" (DRAM/HBM) or "cache" (a working set that fits in the CPU's
    last-level cache is compared with the cache's bandwidth)."""

    memory: Literal["main", "cache"]


class Roofline(TypedDict, total=False):
    """Achieved rates from cost analysis and the median run time, against the device's peak."""

    flops_per_s: float
    bytes_per_s: float
    intensity: float  # flop per byte accessed
    run_s: float
    ridge: float  # the intensity where the peak FLOP/s and the peak bytes/s meet
    bound: Literal["compute", "memory"]
    fraction_of_peak: float  # achieved / peak of the bound resource, at most 1 (see above_peak)
    flops_fraction: float  # at most 1
    bytes_fraction: float  # at most 1
    peak: PeakInfo
    working_set_bytes: float  # arguments + outputs + temporaries (memory analysis), else the bytes accessed
    cache_resident: bool  # the working set fits in the CPU's last-level cache: compared with the cache bandwidth
    above_peak: bool  # the achieved rate exceeded the peak figure: the fractions are capped at 1, see note
    note: str


class CompileBreakdown(TypedDict, total=False):
    """Where the compile time went: tracing (Python -> jaxpr), lowering (-> StableHLO), XLA compile; and the
    source lines that produced the most equations (what the three grow with)."""

    trace_s: float
    lower_s: float
    compile_s: float
    total_s: float
    cache: Literal["hit", "miss"]  # "hit": compile_s was a persistent-cache read, not an XLA compile
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


class ModuleRun(TypedDict, total=False):
    """The document's module body, which runs before every trace (imports, module-level code): how long it took
    and what it printed. It runs as the module `name` (not "__main__"), so an `if __name__ == "__main__":` block
    never runs during a trace: `main_block` says the document has one (it was skipped)."""

    seconds: float
    output: str  # stdout and stderr of the module body (the traced call's own output is TraceResult.stdout)
    name: str
    main_block: bool


class TraceFinding(TypedDict, total=False):
    """Something the trace found at a line without stopping: today a PRNG key reused (jax.debug_key_reuse),
    traced again without the check so that the jaxpr and figures still come back."""

    code: Literal["key-reuse"]
    type: str  # the exception the check raised: KeyReuseError
    message: str
    line: int | None
    col: int | None
    cell: int  # in a notebook: the cell of the line (1-based among all cells) ...
    cell_line: int  # ... and the line in that cell


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
    stdout: str  # what the traced code printed (module body included; ModuleRun.output has the body's alone)
    module: ModuleRun
    findings: list[TraceFinding]
    retraces: list[Retrace]
    config_restored: list[str]
    round_trip_s: float
    worker: WorkerInfo
    device: DeviceInfo
    notebook: NotebookRun



def equation_counts(equations: list[Equation]) -> JaxprInfo:
    """`eqns` (every equation at every depth), `by_line` (per line of the traced function, from each equation's
    call_line) and `eqns_outside`: the one place these are counted (the worker; notebook.in_cell again after
    mapping the lines to a cell's)."""
    by_line: dict[int, dict[str, int]] = {}
    outside = 0
    for eqn in equations:
        line = eqn.get("call_line")
        if isinstance(line, int):
            prims = by_line.setdefault(line, {})
            prims[eqn["primitive"]] = prims.get(eqn["primitive"], 0) + 1
        else:
            outside += 1
    rows: list[LineEquations] = [{"line": line, "equations": sum(prims.values()),
                                  "primitives": dict(sorted(prims.items(), key=lambda kv: (-kv[1], kv[0])))}
                                 for line, prims in sorted(by_line.items())]
    return {"eqns": len(equations), "by_line": rows, "eqns_outside": outside}


# ---- worker <-> client (the frames; client.py and worker.py build and read these, nothing else does)


class ConfigMessage(TypedDict):
    """server -> worker, the first frame: how to start (the JAX platform, the persistent cache, the memory limit)."""

    type: Literal["config"]
    platform: str
    cache_dir: str | None
    memory_limit_mb: int | None
    warmup: bool


class PingRequest(TypedDict):
    type: Literal["ping"]
    id: int


class ShutdownRequest(TypedDict):
    type: Literal["shutdown"]


class Ack(TypedDict):
    """worker -> server as soon as a request is read: from here on, a fault is the request's."""

    type: Literal["ack"]
    id: int | None


class MemoryLimit(TypedDict, total=False):
    """The worker's RLIMIT_DATA: set (bytes, from the setting or the default), off, or why it could not be set."""

    rlimit_data_bytes: int
    source: str
    in_use_bytes: int
    warning: str
    off: bool
    error: str


class Hello(TypedDict, total=False):
    """worker -> server once at start: JAX imported (ok) or why not (error)."""

    type: Literal["hello"]
    protocol: int
    ok: bool
    pid: int
    python: str
    executable: str
    platform_requested: str
    import_s: float
    jax: str
    numpy: str
    device: DeviceInfo
    ready_s: float
    memory_limit: MemoryLimit
    cache_warning: str
    error: ErrorInfo


class BandwidthPoint(TypedDict):
    """The best bytes/s of a jitted `x * 1.5` whose input and output together are `working_set_bytes`."""

    working_set_bytes: int
    bytes_per_s: float


class MeasuredPeak(TypedDict, total=False):
    """This CPU's attainable FLOP/s and bytes/s (the roofline's peak on a CPU), measured once per host and device
    kind and kept in a file of the cache folder, so that every worker on the machine uses the same figures."""

    flops_per_s: float
    bytes_per_s: float  # main memory: streaming a working set far larger than the caches
    bandwidth: list[BandwidthPoint]  # by working set, smallest first (the last one: main memory)
    cache_bytes: int  # the last-level cache's size (0: unknown)
    source: str  # the machine and how it was measured (roofline.py says "measured on this CPU once per machine")
    measure_s: float
    cached: bool  # read from `file` (measured earlier), not measured by this worker
    host: str
    device_kind: str
    measured_at: float  # Unix time
    file: str


class WorkerResult(TypedDict, total=False):
    """worker -> server: the answer to one request. For a trace, the fields the worker can fill itself (the same
    records as TraceResult's) plus the raw texts the client maps to source lines (`stablehlo_debug_text`,
    `hlo_text`) and the CPU peak the roofline needs; TraceClient turns it into a TraceResult. For a ping: ok, pid."""

    type: Literal["result"]
    id: int | None
    protocol: int
    ok: bool
    pid: int
    phase: str
    error: ErrorInfo
    target: Target
    arguments: list[Argument]
    jitted_by_user: bool
    timings: Timings
    jaxpr: JaxprInfo
    stablehlo_debug_text: str  # lowered.as_text(debug_info=True): locations still in
    lowered_for: str
    hlo_text: str  # compiled.as_text(): metadata still in
    cost: CostInfo
    sharding: ShardingInfo
    notes: list[str]
    stdout: str
    module: ModuleRun
    findings: list[TraceFinding]
    retraces: list[Retrace]
    config_restored: list[str]
    measured_peak: MeasuredPeak


class PingResult(TypedDict, total=False):
    """TraceClient.ping(): the worker's pid, or why it did not answer."""

    ok: bool
    pid: int
    round_trip_s: float
    error: ErrorInfo


# ---- editor <-> server, beyond the trace itself


class Refusal(TypedDict):
    """Why the server refuses to trace now (the one gate: untrusted workspace, tracing off)."""

    type: str
    message: str


class WorkerStatus(TypedDict, total=False):
    """TraceClient.status(), and the reply of sharpbits/traceWorkerStatus and sharpbits/traceWorkerRestart (which
    add `enabled` and `refused`). `busy`: a trace is running in the worker."""

    state: Literal["stopped", "starting", "ready", "busy", "failed"]
    enabled: bool
    refused: Refusal
    interpreter: str
    platform: str
    launch_prefix: list[str]
    restarts: int
    pid: int
    jax: str
    device: DeviceInfo
    python: str
    ready_s: float
    memory_limit: MemoryLimit
    error: ErrorInfo


class TraceTarget(TypedDict):
    """A function of a document (a notebook cell's uri for a function defined in a cell)."""

    uri: str
    function: str


class TraceCommandArgs(TraceTarget, total=False):
    """workspace/executeCommand `sharpbits.trace`'s argument (what the Trace CodeLens carries, plus a spec)."""

    args: str


class _Ok(TypedDict):
    ok: bool


class TraceCommandResult(_Ok, total=False):
    """The reply of the `sharpbits.trace` command (the Trace CodeLens): what the editor says about the trace. The
    full result stays on the server, stored for the document version it traced (the views read it)."""

    needsSpec: bool
    summary: str  # `jaxpr 14 eqns · compile 38 ms · run 12.1 µs (min 11.9 µs, 200 runs) · cpu`
    error: ErrorInfo | None
    device: DeviceInfo | None
    note: str  # a function in a notebook cell: which cells ran first
    refused: bool
    stale: bool  # the document changed while it was traced: nothing stored


class TracedFunctionsParams(TypedDict):
    uri: str


class TracedFunction(TypedDict):
    """A function of the document that runs under a JAX transformation (what the Trace CodeLens sits on)."""

    function: str
    line: int
    endLine: int
    reason: str


class RunCommandArgs(TypedDict, total=False):
    """workspace/executeCommand `sharpbits.runWithSharpbits`'s argument: the document to run (`PYTHON FILE` with the
    trace interpreter), or `command`, an argv to run instead (`${file}` in it becomes the document's path), in the
    workspace folder, under `sharpbits run`; `timeout` in seconds."""

    uri: str
    command: list[str]
    timeout: float


class RunCount(TypedDict):
    """The findings of one code in a run: how many, and how many times they were seen in all."""

    code: str
    rule: str
    findings: int
    seen: int


class RunCommandResult(_Ok, total=False):
    """The reply of `sharpbits.runWithSharpbits`. `ok`: the program ran and its report came back (whatever its exit
    status). The findings are published as diagnostics (source `sharpbits (runtime)`, "seen at runtime: N times")
    and kept until the file changes at their line; `files` are the documents (uris) that have some."""

    refused: bool
    error: ErrorInfo | None
    exitCode: int
    findings: int
    counts: list[RunCount]
    files: list[str]
    summary: str  # `3 runtime findings (SB201: 2, SB601: 1) · exit 0 · 4.2 s`
    notes: list[str]
    output: str  # the last lines of the program's stdout and stderr
    seconds: float


class NoParams(TypedDict):
    """A request without parameters."""


# The custom LSP requests: method -> (params, reply). `sharpbits/trace` is the one way an editor asks for a trace
# result (Show jaxpr / StableHLO / HLO, other editors): the server answers from the result it stored for the
# document's current version when that holds the views asked for, and traces (and stores) only otherwise.
REQUESTS: dict[str, tuple[Any, Any]] = {
    "sharpbits/trace": (TraceParams, TraceResult),
    "sharpbits/tracedFunctions": (TracedFunctionsParams, list[TracedFunction]),
    "sharpbits/traceWorkerStatus": (NoParams, WorkerStatus),
    "sharpbits/traceWorkerRestart": (NoParams, WorkerStatus),
}
# workspace/executeCommand: command -> (its one argument, reply)
COMMANDS: dict[str, tuple[Any, Any]] = {
    "sharpbits.trace": (TraceCommandArgs, TraceCommandResult),
    "sharpbits.runWithSharpbits": (RunCommandArgs, RunCommandResult),
}

# roots of the generated TypeScript besides REQUESTS and COMMANDS (everything they reach comes too)
RECORDS: tuple[type, ...] = (TraceParams, TraceResult, TraceTarget)
_HEADER = struct.Struct(">I")
MAX_FRAME = 1 << 30


class ProtocolError(Exception):
    """The other end sent something that is not a frame, or closed the channel mid-frame."""


def encode(message: Mapping[str, Any], default: Callable[[Any], Any] = str) -> bytes:
    """One frame. `default`: what to make of a value JSON has no type for (the worker turns NumPy scalars into
    numbers; anything else becomes its str)."""
    body = json.dumps(message, separators=(",", ":"), default=default).encode("utf-8")
    return _HEADER.pack(len(body)) + body


def write_frame(stream: IO[bytes], message: Mapping[str, Any], default: Callable[[Any], Any] = str) -> None:
    stream.write(encode(message, default))
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
