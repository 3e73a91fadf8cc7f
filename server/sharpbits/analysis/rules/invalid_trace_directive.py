"""SB002 invalid-trace-directive: a `# sharpbits: trace(...)` comment the tracer cannot read.

The directive gives a function's example inputs for `sharpbits trace` and the editor's Trace lens. One that does
not parse was silent until a trace failed (and the editor then asked for inputs as if there were none): it is a
finding at its line, with the parser's own message, the same parser the trace uses (trace/specs.py, `ast` only).
"""

from __future__ import annotations

import ast
import re
from typing import ClassVar

from sharpbits.analysis.rules.base import Invalid, Rule, RuleContext
from sharpbits.analysis.syntax import walk_nodes
from sharpbits.trace.specs import DIRECTIVE, SpecError, parse_spec

# a comment line that means to be a directive: `# sharpbits: trace` with anything after it
_MEANT = re.compile(r"^(?P<indent>\s*)(?P<comment>#\s*sharpbits:\s*trace\b.*?)\s*$")


class InvalidTraceDirective(Rule):
    code = "SB002"
    name = "invalid-trace-directive"
    severity = "warning"
    messages: ClassVar[dict[str, str]] = {
        "unreadable": "this trace directive cannot be read: {problem}",
        "shape": "not a trace directive: write `# sharpbits: trace(x=f32[8], n=3)` (one call, closed on this line)",
    }
    summary = "A `# sharpbits: trace(...)` comment whose example inputs the tracer cannot read."
    why = """
`# sharpbits: trace(x=f32[1000,10], n=3)` above a function gives `sharpbits trace` and the editor's Trace lens
its example inputs, in jaxpr's notation. A directive that does not parse (a missing bracket, a dtype that does not
exist, `**kwargs`, an argument given twice) used to be noticed only when a trace failed, far from the comment. The
finding carries the parser's message; it is the same parser the trace uses, and it only reads the comment (`ast`,
nothing runs).
"""
    example = """
import jax

# sharpbits: trace(x=f32[1000,10)
@jax.jit
def f(x):
    return x * 2
"""
    use_instead = """
import jax

# sharpbits: trace(x=f32[1000,10])
@jax.jit
def f(x):
    return x * 2
"""
    fix_safety = """
No fix is offered: which inputs were meant is the author's to say. The finding's message is the parser's, and
`sharpbits trace --help` lists the notation.
"""
    VALID: ClassVar[list[str]] = [
        "import jax\n# sharpbits: trace(x=f32[8], n=3)\n@jax.jit\ndef f(x, n):\n    return x * n\n",
        "import jax\n@jax.jit\n# sharpbits: trace(x=f32[8])\ndef f(x):\n    return x\n",
        "s = '# sharpbits: trace(x=f32[8'\n",  # in a string, not a comment
        "# sharpbits: noqa: SB201\nx = 1\n",  # another sharpbits comment
    ]
    INVALID: ClassVar[list[Invalid]] = [
        Invalid("import jax\n# sharpbits: trace(x=f32[8)\n@jax.jit\ndef f(x):\n    return x\n"),
        Invalid("import jax\n# sharpbits: trace(x=f32[8], x=i32[])\n@jax.jit\ndef f(x):\n    return x\n"),
        Invalid("import jax\n# sharpbits: trace x=f32[8]\n@jax.jit\ndef f(x):\n    return x\n"),
    ]

    def check(self, ctx: RuleContext) -> None:
        if "sharpbits" not in ctx.source.text:
            return  # most files: no line to look at (the walk for string lines below is most of this rule's time)
        lines = ctx.source.text.splitlines()
        strings: set[int] | None = None  # walked for only when a line looks like a directive
        for number, line in enumerate(lines, 1):
            meant = _MEANT.match(line)
            if meant is None:
                continue
            if strings is None:
                strings = _string_lines(ctx.tree)
            if number in strings:
                continue
            comment = meant.group("comment")
            found = DIRECTIVE.search(comment)
            if found is None:
                message = self.message("shape")
            else:
                try:
                    parse_spec(found.group("spec"))
                    continue
                except SpecError as exc:
                    message = self.message("unreadable", problem=str(exc))
            start = len(meant.group("indent"))
            node = ast.Pass(lineno=number, col_offset=len(line[:start].encode("utf-8")), end_lineno=number,
                            end_col_offset=len(line[:start + len(comment)].encode("utf-8")))
            ctx.report(node, message)


def _string_lines(tree: ast.Module) -> set[int]:
    """The lines inside multi-line string literals (a `#` there is text, not a comment)."""
    inside: set[int] = set()
    for node in walk_nodes(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, (str, bytes)):
            end = node.end_lineno or node.lineno
            inside.update(range(node.lineno + 1, end + 1))
    return inside
