"""Tracing a function defined in a notebook cell.

What runs is what "Run All" would have run by the time the function's cell ran: the code cells above it and the
cell itself, in order, as one program (`sharpbits.notebooks.build_program` with `RUN_MAGICS`: magics, shell
escapes and `%timeit` / `%%timeit` are left out, `%time` statements and `%%time` bodies run; a cell magic such
as `%%bash` or a cell that does not parse leaves its cell out). Masking keeps every line where it was, so the
worker's lines are program lines, and `in_cell` turns them into the lines of the function's cell (a line in
another cell, e.g. a helper defined above, becomes null, or is left out where the record needs a line).

Standard library only (no jax): the language server imports this.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sharpbits.notebooks import RUN_MAGICS, NotebookProgram, build_program
from sharpbits.trace.protocol import CellRange, NotebookRun, SkippedCell, TraceResult, equation_counts


@dataclass
class CellTraceSource:
    """The program a trace of a function in cell `cell` runs, and how its lines map to cells."""

    path: str  # the notebook's file (the worker runs the program under this name, in its folder)
    cell: int  # the function's cell: 0-based index among all cells
    program: NotebookProgram
    skipped: list[tuple[int, str]]  # (cell index, why it was not run)

    @property
    def text(self) -> str:
        return self.program.text

    def ran(self) -> list[int]:
        """0-based indices of the cells that run."""
        left_out = {index for index, _ in self.skipped}
        return [c.cell for c in self.program.cells if c.cell not in left_out]

    def cell_ranges(self) -> list[CellRange]:
        """The cell map sent to the worker (the cells that run; 1-based cell numbers)."""
        ran = set(self.ran())
        return [CellRange(cell=c.cell + 1, first_line=c.first_line, line_count=c.line_count)
                for c in self.program.cells if c.cell in ran]

    def run_record(self) -> NotebookRun:
        ran = [i + 1 for i in self.ran()]
        skipped: list[SkippedCell] = [{"cell": i + 1, "reason": why} for i, why in self.skipped]
        note = f"ran cells {_numbers(ran)} of the notebook in order before tracing (magics and shell escapes left out)"
        if skipped:
            note += "; not run: " + ", ".join(f"cell {s['cell']} ({s['reason']})" for s in skipped)
        return NotebookRun(cell=self.cell + 1, ran=ran, skipped=skipped, note=note)

    def to_cell_line(self, line: Any) -> int | None:
        """A program line -> the line in the function's cell; None for a line in another cell (or no line)."""
        if not isinstance(line, int):
            return None
        located = self.program.locate(line)
        if located is None or located[0].cell != self.cell:
            return None
        return located[1]


def _numbers(cells: list[int]) -> str:
    return ", ".join(map(str, cells)) if cells else "none"


def cell_trace_source(sources: list[tuple[int, str]], cell: int, path: str) -> CellTraceSource:
    """`sources`: the notebook's code cells as (index among all cells, text) in order; `cell`: the function's."""
    program = build_program([(i, s) for i, s in sources if i <= cell], path, code_magics=RUN_MAGICS)
    skipped = [(c.cell, c.masked.skipped) for c in program.cells if c.masked.skipped is not None]
    broken = {(f.cell or 1) - 1 for f in program.syntax_errors}
    skipped += [(c.cell, "does not parse") for c in program.cells if c.cell in broken]
    return CellTraceSource(path, cell, program, sorted(skipped))


def in_cell(result: TraceResult, source: CellTraceSource) -> TraceResult:
    """The worker's result (program lines) with every line in the function's cell's coordinates."""
    at = source.to_cell_line
    out: dict[str, Any] = dict(result)
    out["notebook"] = source.run_record()
    if isinstance(out.get("target"), dict):
        out["target"] = {**out["target"], "line": at(out["target"].get("line"))}
    if isinstance(out.get("spec"), dict):
        out["spec"] = {**out["spec"], "line": at(out["spec"].get("line"))}
    error = out.get("error")
    if isinstance(error, dict) and "line" in error:
        line = error.get("line")
        error = {**error, "line": at(line)}
        if isinstance(error.get("frames"), list):
            error["frames"] = [{**f, "line": at(f.get("line"))} for f in error["frames"] if at(f.get("line"))]
        if error["line"] is None and isinstance(line, int):  # raised in another cell: say which
            if "cell" not in error:  # the worker names it from the cell map; a result from elsewhere may not
                located = source.program.locate(line)
                if located is not None:
                    error["cell"], error["cell_line"] = located[0].cell + 1, located[1]
            if "cell" in error:
                error["message"] = f"{error.get('message', '')} (cell {error['cell']}, line {error['cell_line']})"
        out["error"] = error
    jaxpr = out.get("jaxpr")
    if isinstance(jaxpr, dict):
        jaxpr = dict(jaxpr)
        if "equations" in jaxpr:
            jaxpr["equations"] = [{**e, "line": at(e.get("line")), "call_line": at(e.get("call_line"))}
                                  if "call_line" in e else {**e, "line": at(e.get("line"))}
                                  for e in jaxpr["equations"]]
            if "eqns" in jaxpr:  # recounted in the cell's lines (the function is in its cell: nothing moves out)
                jaxpr.update(equation_counts(jaxpr["equations"]))
        if isinstance(jaxpr.get("function_lines"), list):
            first, last = (at(n) for n in jaxpr["function_lines"])
            if first is None or last is None:
                del jaxpr["function_lines"]
            else:
                jaxpr["function_lines"] = [first, last]
        if "text_lines" in jaxpr:
            jaxpr["text_lines"] = [[t, at(line)] for t, line in jaxpr["text_lines"] if at(line) is not None]
        out["jaxpr"] = jaxpr
    for key in ("stablehlo", "hlo"):
        compiled = out.get(key)
        if isinstance(compiled, dict):
            compiled = dict(compiled)
            if "ops" in compiled:
                compiled["ops"] = [{**op, "line": at(op.get("line"))} for op in compiled["ops"]]
            if "lines" in compiled:
                compiled["lines"] = {str(at(int(k))): v for k, v in compiled["lines"].items()
                                     if k.isdigit() and at(int(k)) is not None}
            out[key] = compiled
    compile_ = out.get("compile")
    if isinstance(compile_, dict) and "top_lines" in compile_:
        out["compile"] = {**compile_, "top_lines": [{**t, "line": at(t["line"])} for t in compile_["top_lines"]
                                                    if at(t.get("line")) is not None]}
    if isinstance(out.get("findings"), list):
        out["findings"] = [{**f, "line": at(f.get("line"))} for f in out["findings"]]
    if isinstance(out.get("collectives"), list):
        out["collectives"] = [{**c, "line": at(c.get("line"))} for c in out["collectives"]]
    if isinstance(out.get("retraces"), list):
        retraces = []
        for r in out["retraces"]:
            if at(r.get("line")) is None:
                continue
            reasons = []
            for reason in r.get("reasons") or []:
                reason = dict(reason)
                if "line" in reason:
                    mapped = at(reason["line"])
                    if mapped is None:
                        del reason["line"]
                    else:
                        reason["line"] = mapped
                reasons.append(reason)
            retraces.append({**r, "line": at(r["line"]), "reasons": reasons})
        out["retraces"] = retraces
    out["notes"] = [*(out.get("notes") or []), out["notebook"]["note"]]
    return out  # type: ignore[return-value]
