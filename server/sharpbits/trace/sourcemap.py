"""StableHLO and optimized HLO back to the document's lines. Pure text parsing (no jax), server side.

StableHLO (`lowered.as_text(debug_info=True)`): ops end in `loc(#locN)`; the `#locN = loc(...)` table at the end
holds file locations `"file":L:C`, name locations `"name"(#locM)`, `callsite(#callee at #caller)` chains and
`fused[...]` lists. An op's line is the innermost frame in the document.

Optimized HLO (`compiled.as_text()`): header tables FileNames, FunctionNames, FileLocations, StackFrames, and
ops carry `metadata={... stack_frame_id=N}`. A frame's parent is printed one higher than its id
(`parent_frame_id=1` means none), verified on jax 0.10.2.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from typing import Any, cast

from sharpbits.trace.protocol import Collective, CompiledInfo, MappedOp

Frame = tuple[str, int, int]  # file, line, column

_LOC_DEF = re.compile(r"^#(?P<name>loc\d*)\s*=\s*loc\((?P<body>.*)\)\s*$")
_OP_LOC = re.compile(r"\s+loc\((?P<body>(?:[^()]|\((?:[^()]|\([^()]*\))*\))*)\)(?P<tail>\s*\{?\s*)$")
_FILE_LOC = re.compile(r'^"(?P<file>(?:[^"\\]|\\.)*)":(?P<line>\d+):(?P<col>\d+)')
_NAME_LOC = re.compile(r'^"(?P<name>(?:[^"\\]|\\.)*)"\s*(?:\((?P<child>.*)\))?$')
_CALLSITE = re.compile(r"^callsite\((?P<callee>.+?)\s+at\s+(?P<caller>.+)\)$")
_REF = re.compile(r"^#(loc\d*)$")
_SHLO_OP = re.compile(r"^\s*(?:(?:%[\w#:.\-]+\s*,\s*)*%[\w#:.\-]+\s*=\s*)?\"?(?P<op>[a-z_][\w]*\.[\w.]+|call|return)\b")


def _same(a: str, b: str) -> bool:
    return a == b or os.path.abspath(a) == os.path.abspath(b)


class _LocTable:
    def __init__(self, defs: dict[str, str]):
        self.defs = defs
        self.cache: dict[str, list[Frame]] = {}

    def frames(self, body: str, depth: int = 0) -> list[Frame]:
        """Frames of a loc body, innermost first."""
        body = body.strip()
        if depth > 64 or not body or body == "unknown":
            return []
        m = _REF.match(body)
        if m:
            ref = m.group(1)
            if ref not in self.cache:
                self.cache[ref] = []  # cycle guard
                self.cache[ref] = self.frames(self.defs.get(ref, ""), depth + 1)
            return self.cache[ref]
        m = _FILE_LOC.match(body)
        if m:
            return [(m.group("file"), int(m.group("line")), int(m.group("col")))]
        m = _CALLSITE.match(body)
        if m:
            return self.frames(m.group("callee"), depth + 1) + self.frames(m.group("caller"), depth + 1)
        if body.startswith("fused"):
            inner = body[body.find("[") + 1 : body.rfind("]")]
            out: list[Frame] = []
            for part in _split_top(inner):
                out += self.frames(part, depth + 1)
            return out
        m = _NAME_LOC.match(body)
        if m:
            return self.frames(m.group("child") or "", depth + 1)
        return []


def _closing_loc(text_lines: list[str], line_locs: list[str | None], start: int) -> str | None:
    """The loc on the line that closes the regions an op opens (`} loc(#loc36)`), if it opens any."""
    depth, opened = 0, False
    for j in range(start, len(text_lines)):
        depth += text_lines[j].count("{") - text_lines[j].count("}")
        opened = opened or depth > 0
        if not opened and j > start:
            return None
        if opened and depth <= 0:
            return line_locs[j]
    return None


def _inherit_call_sites(ops: list[dict[str, Any]]) -> None:
    """Ops of a private function with no frame in the document (library code such as jnp.where's own jit) get
    the line of the call that reaches them."""
    for _ in range(16):  # functions calling functions: a few rounds reach the fixpoint
        call_line: dict[str, int] = {}
        for op in ops:
            if op.get("callee") and op.get("line") is not None:
                call_line.setdefault(op["callee"], op["line"])
        changed = False
        for op in ops:
            if op["line"] is None and op.get("func") in call_line:
                op["line"] = call_line[op["func"]]
                changed = True
        if not changed:
            return


def _split_top(s: str) -> list[str]:
    parts: list[str] = []
    cur: list[str] = []
    depth = 0
    for ch in s:
        if ch in "([" :
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    if cur:
        parts.append("".join(cur))
    return parts


def _summarize(ops: list[dict[str, Any]]) -> dict[str, dict[str, int]]:
    by_line: dict[int, Counter[str]] = {}
    for op in ops:
        if op.get("line") is not None:
            by_line.setdefault(op["line"], Counter())[op["op"]] += 1
    return {str(line): dict(c.most_common()) for line, c in sorted(by_line.items())}


def map_stablehlo(debug_text: str, path: str) -> CompiledInfo:
    """-> {"text": without locations, "op_count", "ops": [{"text_line", "op", "line"}], "lines": {doc_line: {op: n}}}."""
    defs: dict[str, str] = {}
    body_lines: list[str] = []
    for raw in debug_text.splitlines():
        m = _LOC_DEF.match(raw.strip())
        if m and raw.startswith("#loc"):
            defs[m.group("name")] = m.group("body")
        else:
            body_lines.append(raw)
    table = _LocTable(defs)
    text_lines: list[str] = []
    line_locs: list[str | None] = []
    ops: list[dict[str, Any]] = []
    func = None

    def doc_line(loc_body: str | None) -> int | None:
        if loc_body is not None:
            for f, ln, _col in table.frames(loc_body):
                if _same(f, path):
                    return ln
        return None

    for raw in body_lines:
        fm = re.match(r"\s*func\.func\s+(?:\w+\s+)?@([\w.$\-]+)", raw)
        if fm:
            func = fm.group(1)
        m = _OP_LOC.search(raw)
        loc_body = None
        if m:
            loc_body = m.group("body")
            tail = m.group("tail").strip()
            raw = raw[: m.start()] + (" " + tail if tail else "")
        # argument locations inside signatures: `%arg0: tensor<8xf32> loc("x")`
        raw = re.sub(r'\s+loc\((?:"[^"]*"|unknown|#loc\d*)\)', "", raw)
        text_lines.append(raw.rstrip())
        line_locs.append(loc_body)
        op = _SHLO_OP.match(raw)
        if op and not raw.lstrip().startswith(("func.func", "module")):
            line = doc_line(loc_body)
            entry: dict[str, Any] = {"text_line": len(text_lines), "op": op.group("op"), "line": line, "func": func}
            callee = re.search(r"call @([\w.$\-]+)", raw)
            if callee:
                entry["callee"] = callee.group(1)
            ops.append(entry)
    for entry in ops:  # region ops (while, case, reduce with a body) carry their loc on the closing brace
        if entry["line"] is None and line_locs[entry["text_line"] - 1] is None:
            entry["line"] = doc_line(_closing_loc(text_lines, line_locs, entry["text_line"] - 1))
    _inherit_call_sites(ops)
    return {"text": "\n".join(text_lines).rstrip() + "\n", "op_count": len(ops),
            "ops": cast("list[MappedOp]", ops), "lines": _summarize(ops)}


_TABLE_ENTRY = re.compile(r"^(\d+)\s+(.*)$")
_HLO_OP = re.compile(r"^\s*(?:ROOT\s+)?%?(?P<name>[\w.\-]+)\s*=\s*(?:\(.*?\)\s*|\S+\s+)(?P<op>[a-z][\w\-]*)\(")
_KV = re.compile(r"(\w+)=(\d+)")


def map_hlo(text: str, path: str) -> CompiledInfo:
    """-> {"text": ops with their metadata, "op_count", "ops": [{"text_line", "op", "line"}], "lines": ...}."""
    files: dict[int, str] = {}
    locations: dict[int, dict[str, int]] = {}
    frames: dict[int, tuple[int, int]] = {}
    section = None
    out_lines: list[str] = []
    ops: list[dict[str, Any]] = []
    for raw in text.splitlines():
        stripped = raw.strip()
        if stripped in ("FileNames", "FunctionNames", "FileLocations", "StackFrames"):
            section = stripped
            continue
        if section is not None:
            m = _TABLE_ENTRY.match(stripped)
            if m and not raw.startswith(" "):
                idx, rest = int(m.group(1)), m.group(2)
                if section == "FileNames":
                    files[idx] = rest.strip().strip('"')
                elif section == "FileLocations":
                    locations[idx] = {k: int(v) for k, v in _KV.findall(rest)}
                elif section == "StackFrames":
                    kv = {k: int(v) for k, v in _KV.findall(rest)}
                    frames[idx] = (kv.get("file_location_id", 0), kv.get("parent_frame_id", 0))
                continue
            if not stripped:
                continue
            section = None
        out_lines.append(raw)
        m = _HLO_OP.match(raw)
        if m:
            sf = re.search(r"stack_frame_id=(\d+)", raw)
            line = _hlo_line(int(sf.group(1)), frames, locations, files, path) if sf else None
            ops.append({"text_line": len(out_lines), "op": m.group("op"), "line": line, "name": m.group("name")})
    return {"text": "\n".join(out_lines).strip("\n") + "\n", "op_count": len(ops),
            "ops": cast("list[MappedOp]", ops), "lines": _summarize(ops)}


def _hlo_line(frame_id: int, frames: dict[int, tuple[int, int]], locations: dict[int, dict[str, int]],
              files: dict[int, str], path: str) -> int | None:
    seen = set()
    fid = frame_id
    while fid in frames and fid not in seen:
        seen.add(fid)
        loc_id, parent = frames[fid]
        loc = locations.get(loc_id)
        if loc is not None and _same(files.get(loc.get("file_name_id", -1), ""), path):
            return loc.get("line")
        fid = parent - 1  # printed one higher than the frame's id; 0 (printed 1) is the root
    return None


def strip_hlo_metadata(text: str) -> str:
    """Optimized HLO without `metadata={...}`, backend configs and frontend attributes: for reading."""
    text = re.sub(r", metadata=\{[^{}]*\}", "", text)
    text = re.sub(r", backend_config=.*$", "", text, flags=re.M)
    return re.sub(r", frontend_attributes=\{[^{}]*\}", "", text)


COLLECTIVES = ("all-reduce", "all-gather", "reduce-scatter", "all-to-all", "collective-permute",
               "ragged-all-to-all", "collective-broadcast")
_DTYPE_BYTES = {"pred": 1, "s8": 1, "u8": 1, "s16": 2, "u16": 2, "f16": 2, "bf16": 2, "s32": 4, "u32": 4, "f32": 4,
                "s64": 8, "u64": 8, "f64": 8, "c64": 8, "c128": 16, "f8e4m3fn": 1, "f8e5m2": 1}
_SHAPE = re.compile(r"\b(?P<dt>[a-z]+\d*[a-z0-9]*)\[(?P<dims>[\d,]*)\]")


def collectives(hlo: CompiledInfo) -> list[Collective]:
    """The collectives of a mapped optimized HLO module (`map_hlo`'s result): op, result bytes, source line.
    An async pair (`all-gather-start`/`-done`) counts once, at its start."""
    lines = hlo.get("text", "").splitlines()
    out: list[Collective] = []
    for op in hlo.get("ops", []):
        name = op["op"].removesuffix("-start")
        if name not in COLLECTIVES or op["op"].endswith("-done"):
            continue
        raw = lines[op["text_line"] - 1] if 0 < op["text_line"] <= len(lines) else ""
        result_type = raw.split("=", 1)[1].split(op["op"] + "(", 1)[0] if "=" in raw else ""
        total = 0
        for m in _SHAPE.finditer(result_type):
            n = 1
            for d in filter(None, m.group("dims").split(",")):
                n *= int(d)
            total += n * _DTYPE_BYTES.get(m.group("dt"), 4)
        out.append({"op": name, "bytes": total, "shape": result_type.strip(), "line": op["line"],
                    "text_line": op["text_line"]})
    return out
