"""`sharpbits check` and `sharpbits rule`: the command-line consumers of the engine."""

from __future__ import annotations

import argparse
import contextlib
import difflib
import os
import stat
import sys
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sharpbits.analysis.engine import AnalysisResult, Selection, analyze
from sharpbits.config import Config, load_config
from sharpbits.findings import SEVERITY_RANK, Finding, Fix, apply_edits, non_overlapping, parses_after
from sharpbits.source import UnreadableSource, decode_with_encoding

if TYPE_CHECKING:
    from sharpbits.files import FoundFile
    from sharpbits.notebooks import NotebookCheck

EXIT_OK, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2
MAX_FILE_BYTES = 20 * 1024 * 1024  # beyond this a "Python file" is data; say so instead of stalling
MAX_FIX_PASSES = 5

# Called with the file's path after its fixes are computed and before the file is compared with what was read
# and replaced: the moment an editor's save would race with `--fix`. A test seam on the real code path (the
# tests change the file here, from inside the CLI's own process, to prove the change is never overwritten).
before_write: Callable[[Path], None] | None = None


class NotFixed(Exception):
    """The fixed text was not written; the message says why (the file is left as it was)."""


@dataclass
class SourceFile:
    path: Path  # as reported
    real_path: Path  # what is read and written: never a symlink
    text: str
    encoding: str
    newline: str
    data: bytes  # the bytes as read: the file is only replaced while it still holds exactly these


def _read_no_follow(path: Path) -> tuple[bytes, os.stat_result]:
    """The bytes of a regular file, refusing a symlink in its place (O_NOFOLLOW); a FIFO named `x.py` is opened
    without blocking (O_NONBLOCK) and refused as not a regular file."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NONBLOCK", 0)
    fd = os.open(path, flags)
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise UnreadableSource("not a regular file")
        if info.st_size > MAX_FILE_BYTES:
            raise UnreadableSource(f"{info.st_size // (1024 * 1024)} MB is too large to be source code")
        return handle.read(), info


def read_source(path: Path, real_path: Path | None = None) -> SourceFile:
    """Reads and decodes a file; raises UnreadableSource / OSError with a clear message."""
    real = real_path or Path(os.path.realpath(path))
    data, _ = _read_no_follow(real)
    text, encoding = decode_with_encoding(data)
    newline = "\r\n" if "\r\n" in text[:10000] else "\n"
    return SourceFile(path, real, text, encoding, newline, data)


def write_fixed(source: SourceFile, new_text: str) -> None:
    """Replaces the file with `new_text`, only if it still holds the bytes it was read with: written to a
    temporary file beside it (same mode and owner) and renamed over it, so a reader never sees half a file and
    a crash leaves the old one. Raises NotFixed when the file changed, is read-only, or cannot be written.

    The file is compared twice, the second time just before the rename; a save that lands between that
    comparison and the rename (a window of microseconds) would still be lost: no portable lock prevents it."""
    path = source.real_path
    data = new_text.encode(source.encoding)
    try:
        info = os.stat(path, follow_symlinks=False)
    except OSError as exc:
        raise NotFixed(f"cannot look at it again: {exc.strerror or exc}; not fixed") from None
    if not stat.S_ISREG(info.st_mode):
        raise NotFixed("replaced by something that is not a regular file since it was read; not fixed")
    # a file nobody may write to was marked read-only on purpose: respected also when running as root
    if not info.st_mode & 0o222 or not os.access(path, os.W_OK):
        raise NotFixed("read-only file; not fixed")
    if os.path.realpath(path.parent) != str(path.parent):
        raise NotFixed("its folder was moved or replaced by a symlink since it was read; not fixed")
    if before_write is not None:
        before_write(source.path)

    def unchanged() -> bool:
        try:
            return _read_no_follow(path)[0] == source.data
        except (OSError, UnreadableSource):
            return False

    if not unchanged():
        raise NotFixed("changed since it was read; not fixed")
    import tempfile  # only when writing: keeps start-up lean

    try:
        fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".sharpbits-fix", dir=path.parent)
    except OSError as exc:
        raise NotFixed(f"cannot write beside it: {exc.strerror or exc}; not fixed") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, stat.S_IMODE(info.st_mode))
        if hasattr(os, "chown") and (info.st_uid, info.st_gid) != (os.geteuid(), os.getegid()):
            with contextlib.suppress(OSError):  # not allowed to give it away: it stays ours, with the file's mode
                os.chown(temporary, info.st_uid, info.st_gid)
        if not unchanged():
            raise NotFixed("changed since it was read; not fixed")
        os.replace(temporary, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        if isinstance(exc, OSError):
            raise NotFixed(f"cannot write: {exc.strerror or exc}; not fixed") from None
        raise


def _applicable_together(text: str, fixes: list[Fix]) -> list[Fix]:
    """Fixes that each re-parse can still clash when applied together: keep, in order, those that do not."""
    if parses_after(text, fixes):
        return fixes
    chosen: list[Fix] = []
    for fix in fixes:
        if parses_after(text, [*chosen, fix]):
            chosen.append(fix)
    return chosen


def fix_text(text: str, path: str, selection: Selection, unsafe: bool, newline: str = "\n") -> tuple[str, int, str | None]:
    """Applies fixes until none is left (or MAX_FIX_PASSES); returns (text, fixes applied, error or None).
    Every fix re-parses on its own (`Finding.fix`) and every intermediate result parses, or it is not applied."""
    applied = 0
    for _ in range(MAX_FIX_PASSES):
        result = analyze(text, path, selection)
        if result.syntax_error is not None:
            return text, applied, None
        fixes = non_overlapping([f.fix() for f in result.findings if f.fixable], safe_only=not unsafe)
        if not fixes:
            break
        together = _applicable_together(text, fixes)
        if not together:
            return text, applied, "a fix produced code that does not parse; it was not applied"
        edits = [replace(e, new_text=e.new_text.replace("\n", newline)) for fix in together for e in fix.edits]
        text, applied = apply_edits(text, edits), applied + len(together)
    return text, applied, None


def _skip(path: Path, reason: str) -> None:
    print(f"{path}: skipped: {reason}", file=sys.stderr)


def run_check(args: argparse.Namespace) -> int:
    from sharpbits.analysis.incremental import tune_garbage_collector
    from sharpbits.files import iter_python_files
    from sharpbits.output_formats import write_github, write_json, write_sarif, write_text

    tune_garbage_collector()  # as the language server: fewer full collections over what the run holds

    try:
        first = Path(args.paths[0]) if args.paths else Path(".")
        config = load_config(first if first.exists() else Path("."))
        cli = Config(select=Selection.parse_names(args.select), ignore=Selection.parse_names(args.ignore) or frozenset())
        config = config.merged(cli)
        files = list(iter_python_files(args.paths, use_excludes=not args.no_exclude, extra_excludes=config.exclude,
                                       excludes_root=config.root, include_notebooks=config.include_notebooks is not False))
    except (ValueError, FileNotFoundError) as exc:
        print(f"sharpbits: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    fixing = args.fix or args.diff
    findings: list[Finding] = []
    checked = fixed_count = 0
    changed_files = 0
    # Checking without fixing: every .py file is read, looked up in the cache, and the rest analysed on every
    # core first; the loop below then reports them in the same order as one process would.
    precomputed: dict[Path, list[Finding] | str] = {} if fixing else _check_all(files, config, args)
    for found in files:
        path = found.path
        if found.real_path is None:
            _skip(path, found.skipped or "cannot be read")
            continue
        if path in precomputed:
            outcome = precomputed[path]
            if isinstance(outcome, str):
                _skip(path, outcome)
            else:
                checked += 1
                findings.extend(outcome)
            continue
        if path.suffix == ".ipynb":  # notebooks: sharpbits.notebooks reads, checks and fixes them per cell
            checked_notebook = _check_notebook(path, found.real_path, config.selection_for(path), args)
            if checked_notebook is None:
                continue
            notebook, source = checked_notebook
            checked += 1
            changed_files += notebook.new_text is not None
            if notebook.new_text is not None and not args.diff:
                try:
                    write_fixed(source, notebook.new_text)  # the same guarded write as for .py files
                except NotFixed as exc:
                    print(f"{path}: {exc}", file=sys.stderr)
                else:
                    fixed_count += notebook.fixed
            if not args.diff:
                findings.extend(notebook.findings)
            continue
        try:
            source = read_source(path, found.real_path)
        except UnreadableSource as exc:
            _skip(path, str(exc))
            continue
        except OSError as exc:
            _skip(path, f"cannot read: {exc.strerror or exc}")
            continue
        checked += 1
        selection = config.selection_for(path)
        text = source.text
        if fixing:
            new, applied, error = fix_text(text, str(path), selection, args.unsafe_fixes, source.newline)
            if error:
                print(f"{path}: {error}", file=sys.stderr)
            if new != text:
                changed_files += 1
                if args.diff:
                    sys.stdout.writelines(difflib.unified_diff(
                        text.splitlines(keepends=True), new.splitlines(keepends=True), f"a/{path}", f"b/{path}"))
                else:
                    try:
                        write_fixed(source, new)
                    except NotFixed as exc:
                        print(f"{path}: {exc}", file=sys.stderr)
                    else:
                        text = new
                        fixed_count += applied
        if args.diff:
            continue
        result: AnalysisResult = analyze(text, str(path), selection)
        if result.syntax_error is not None:
            findings.append(result.syntax_error)
        findings.extend(result.findings)
    if args.diff:
        print(f"{changed_files} file{'s' if changed_files != 1 else ''} would be changed.", file=sys.stderr)
        return EXIT_FINDINGS if changed_files else EXIT_OK
    if args.format == "json":
        write_json(sys.stdout, findings)
    elif args.format == "sarif":
        write_sarif(sys.stdout, findings)
    elif args.format == "github":
        write_github(sys.stdout, findings)
    else:
        write_text(sys.stdout, findings, checked, fixed_count)
    serious = any(SEVERITY_RANK[f.severity] <= SEVERITY_RANK["warning"] for f in findings)
    return EXIT_FINDINGS if serious else EXIT_OK


def _analysed_plain(path: str, text: str, selection: Selection, with_fixes: bool) -> list[dict[str, Any]]:
    """One file's findings in plain form (what crosses processes and is cached); runs in a worker process."""
    from sharpbits.result_cache import finding_to_plain

    result = analyze(text, path, selection)
    found = [result.syntax_error] if result.syntax_error is not None else []
    return [finding_to_plain(f, with_fixes) for f in found + result.findings]


def _analysed_chunk(jobs: list[tuple[str, str, Selection, bool]]) -> list[list[dict[str, Any]]]:
    return [_analysed_plain(*job) for job in jobs]


def _check_all(files: list[FoundFile], config: Config, args: argparse.Namespace) -> dict[Path, list[Finding] | str]:
    """The findings (or the reason it was skipped) of every readable .py file, from the cache or analysed in
    `--jobs` processes (default: one per core)."""
    from sharpbits.result_cache import ResultCache, default_cache_dir, finding_from_plain

    with_fixes = args.format == "json"  # only JSON output carries the fixes themselves
    cache = None if args.no_cache else ResultCache(Path(args.cache_dir) if args.cache_dir else default_cache_dir())
    out: dict[Path, list[Finding] | str] = {}
    pending: list[tuple[Path, str, tuple[str, str, Selection, bool]]] = []  # path, cache key, job
    for found in files:
        path = found.path
        if found.real_path is None or path.suffix == ".ipynb" or path in out:
            continue
        try:
            source = read_source(path, found.real_path)
        except UnreadableSource as exc:
            out[path] = str(exc)
            continue
        except OSError as exc:
            out[path] = f"cannot read: {exc.strerror or exc}"
            continue
        selection = config.selection_for(path)
        key = ResultCache.key(source.data, str(path), selection, with_fixes) if cache is not None else ""
        cached = cache.get(key) if cache is not None else None
        if cached is not None:
            out[path] = [finding_from_plain(plain) for plain in cached]
        else:
            pending.append((path, key, (str(path), source.text, selection, with_fixes)))
    jobs = args.jobs or os.cpu_count() or 1
    results: list[list[dict[str, Any]]]
    if jobs > 1 and len(pending) >= 4:
        results = _in_processes([job for _, _, job in pending], jobs)
    else:
        results = [_analysed_plain(*job) for _, _, job in pending]
    for (path, key, _), plain in zip(pending, results, strict=True):
        if cache is not None:
            cache.put(key, plain)
        out[path] = [finding_from_plain(p) for p in plain]
    return out


def _in_processes(jobs: list[tuple[str, str, Selection, bool]], processes: int) -> list[list[dict[str, Any]]]:
    """Analyses in worker processes; the results come back in the order of `jobs`. Files are dealt out in
    chunks of about the same number of bytes, largest first, so no core waits long for the last big file."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    order = sorted(range(len(jobs)), key=lambda i: -len(jobs[i][1]))
    chunks: list[list[int]] = []
    target = max(sum(len(job[1]) for job in jobs) // (processes * 6), 1)
    current: list[int] = []
    size = 0
    for index in order:
        current.append(index)
        size += len(jobs[index][1])
        if size >= target:
            chunks.append(current)
            current, size = [], 0
    if current:
        chunks.append(current)
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    results: list[list[dict[str, Any]]] = [[] for _ in jobs]
    with ProcessPoolExecutor(max_workers=min(processes, len(chunks)), mp_context=context) as pool:
        for chunk, chunk_results in zip(chunks, pool.map(_analysed_chunk, [[jobs[i] for i in c] for c in chunks]), strict=True):
            for index, plain in zip(chunk, chunk_results, strict=True):
                results[index] = plain
    return results


def _check_notebook(path: Path, real_path: Path, selection: Selection,
                    args: argparse.Namespace) -> tuple[NotebookCheck, SourceFile] | None:
    """One .ipynb file (None when it was skipped, said on stderr); prints its diff with --diff."""
    from sharpbits.notebooks import check_notebook

    try:
        data, _ = _read_no_follow(real_path)
    except UnreadableSource as exc:
        _skip(path, str(exc))
        return None
    except OSError as exc:
        _skip(path, f"cannot read: {exc.strerror or exc}")
        return None
    source = SourceFile(path, real_path, data.decode("utf-8", errors="replace"), "utf-8", "\n", data)
    outcome = check_notebook(str(path), data, selection, fix=args.fix or args.diff, unsafe=args.unsafe_fixes)
    if outcome.skipped:
        print(f"{path}: skipped: {outcome.skipped}", file=sys.stderr)
        return None
    if outcome.error:
        print(f"{path}: {outcome.error}", file=sys.stderr)
    if args.diff:
        sys.stdout.write(outcome.diff)
    return outcome, source


def run_rule(args: argparse.Namespace) -> int:
    from sharpbits.analysis.rules import ALL_RULES, lookup

    if args.rule is None:
        for rule in ALL_RULES:
            print(f"{rule.code}  {rule.name:<26} {rule.severity:<8} {rule.summary}")
        return EXIT_OK
    found = lookup(args.rule)
    if found is None:
        print(f"sharpbits: error: unknown rule {args.rule!r} (run `sharpbits rule` for the list)", file=sys.stderr)
        return EXIT_ERROR
    print(found.documentation())
    return EXIT_OK


