"""What a trace measured, handed back to the rules: a rule whose finding is about cost (an unrolled loop) can
confirm or correct it with the measured figures, and report what static analysis could not see.

The language server builds `Measured` from its trace results and asks `engine.confirm_with_traces`; the rules
answer with `TraceConfirmations`. The server never needs to know which rule measures what.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sharpbits.findings import Finding, Severity


@dataclass(frozen=True)
class Measured:
    """One traced function (lines of the analysed text) and what its trace measured."""

    function: str  # qualname
    line: int  # the `def` line
    end_line: int
    loops: tuple[tuple[int, int], ...]  # (first line, last line) of each for/while loop in it (TracedFunction.loops)
    equation_lines: tuple[int | None, ...]  # the source line of every jaxpr equation (None: not in this text)
    compile_s: float | None  # tracing + lowering + XLA compile, when measured


@dataclass(frozen=True)
class Confirmation:
    """A finding confirmed by a trace: the measured severity (None: unchanged), a note for its message
    (`trace: unrolled into ...`) and the figures the editor receives as `data.traceConfirmed`."""

    severity: Severity | None
    note: str
    function: str
    equations: int
    compile_share_s: float | None

    def data(self) -> dict[str, object]:
        return {"function": self.function, "equations": self.equations, "compileShareSeconds": self.compile_share_s}


@dataclass
class TraceConfirmations:
    """`confirmed`: index in the analysis result's findings -> its confirmation. `found`: findings only the trace
    shows (their message already carries the measured figures), each with its confirmation."""

    confirmed: dict[int, Confirmation] = field(default_factory=dict)
    found: list[tuple[Finding, Confirmation]] = field(default_factory=list)

    def update(self, other: TraceConfirmations) -> None:
        self.confirmed.update(other.confirmed)
        self.found.extend(other.found)
