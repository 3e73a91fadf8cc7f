"""`sharpbits check` and `sharpbits rule`: the command-line consumers of the engine."""

from __future__ import annotations

import argparse
import contextlib
import difflib
import hashlib
import os
import stat
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sharpbits.analysis.engine import AnalysisResult, Selection, analyze
from sharpbits.analysis.project_index import ProjectIndex
from sharpbits.config import Config, load_config
from sharpbits.findings import SEVERITY_RANK, Finding, Fix, apply_edits, non_overlapping, parses_after
from sharpbits.output_formats import printable
from sharpbits.source import UnreadableSource, decode_with_encoding

if TYPE_CHECKING:
    from sharpbits.files import FoundFile
    from sharpbits.notebooks import NotebookCheck
    from sharpbits.result_cache import ResultCache

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

    def round_trip_problem(self) -> str | None:
        """Why writing this file back would change bytes nobody edited (None when it would not): its text,
        encoded again, must be its bytes (`# coding: unicode_escape` decodes a newline that it encodes as the
        two characters `\\n`, and a fix written back would join every line into one)."""
        try:
            same = self.text.encode(self.encoding) == self.data
        except (UnicodeError, LookupError):
            same = False
        if same:
            return None
        return f"decoding it as {self.encoding} and encoding it again does not give back its bytes; not fixed"


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
    problem = source.round_trip_problem()
    if problem is not None:
        raise NotFixed(problem)
    try:
        data = new_text.encode(source.encoding)
        if data.decode(source.encoding) != new_text:
            raise UnicodeError
    except (UnicodeError, LookupError):
        raise NotFixed(f"the fixed text cannot be written in the file's encoding ({source.encoding}); not fixed") from None
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
        # owner and mode are set on the open descriptor (owner first: a change of owner clears setuid bits), never
        # by name: whatever is at the temporary name by then is not ours to change
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            if hasattr(os, "fchown") and (info.st_uid, info.st_gid) != (os.geteuid(), os.getegid()):
                with contextlib.suppress(OSError):  # not allowed to give it away: it stays ours, with the file's mode
                    os.fchown(handle.fileno(), info.st_uid, info.st_gid)
            if hasattr(os, "fchmod"):
                os.fchmod(handle.fileno(), stat.S_IMODE(info.st_mode))
            else:  # Windows before Python 3.13: only the read-only bit exists, set by name
                os.chmod(temporary, stat.S_IMODE(info.st_mode))
            os.fsync(handle.fileno())
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


def fix_text(text: str, path: str, selection: Selection, unsafe: bool, newline: str = "\n",
             project: ProjectIndex | None = None) -> tuple[str, int, str | None]:
    """Applies fixes until none is left (or MAX_FIX_PASSES); returns (text, fixes applied, error or None).
    Every fix re-parses on its own (`Finding.fix`) and every intermediate result parses, or it is not applied."""
    applied = 0
    for _ in range(MAX_FIX_PASSES):
        result = analyze(text, path, selection, project=project)
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


def _say(path: Path | str, message: str) -> None:
    """One line on stderr about `path`; neither part can start a line of its own (see output_formats)."""
    print(f"{printable(path)}: {printable(message)}", file=sys.stderr)


def _skip(path: Path | str, reason: str) -> None:
    _say(path, f"skipped: {reason}")


def _failure_reason(exc: BaseException) -> str:
    """Why one file could not be checked, for its "skipped:" line (the other files are checked on)."""
    if isinstance(exc, RecursionError):
        return "nested too deeply to be checked"
    if isinstance(exc, MemoryError):
        return "too large to be checked (out of memory)"
    return f"could not be checked: {type(exc).__name__}: {exc}"


def _error(message: str) -> None:
    print(f"sharpbits: error: {printable(message)}", file=sys.stderr)


def run_check(args: argparse.Namespace) -> int:
    from sharpbits.analysis.incremental import tune_garbage_collector
    from sharpbits.files import iter_python_files
    from sharpbits.output_formats import write_github, write_json, write_sarif, write_text

    tune_garbage_collector()  # as the language server: fewer full collections over what the run holds

    first = Path(args.paths[0]) if args.paths else Path(".")
    config = load_config(first if first.exists() else Path("."))  # never raises: its problems are messages
    for problem in config.problems:
        _error(problem)
    try:
        cli = Config(select=Selection.parse_names(args.select), ignore=Selection.parse_names(args.ignore) or frozenset())
        config = config.merged(cli)
        files = list(iter_python_files(args.paths, use_excludes=not args.no_exclude, extra_excludes=config.exclude,
                                       excludes_root=config.root, include_notebooks=config.include_notebooks is not False,
                                       warn=_say))
    except (ValueError, FileNotFoundError) as exc:
        _error(str(exc))
        return EXIT_ERROR
    if config.problems and (args.fix or args.diff):
        # fixes under settings that were not read could change what the project switched off
        _error("not fixing: the configuration has errors (above); fix them, or check without --fix / --diff")
        if args.diff:
            return EXIT_ERROR
        args.fix = False
    fixing = args.fix or args.diff
    findings: list[Finding] = []
    checked = fixed_count = 0
    changed_files = 0
    # Checking without fixing: every .py file is read, looked up in the cache, and the rest analysed on every
    # core first; the loop below then reports them in the same order as one process would.
    precomputed: dict[Path, list[Finding] | str] = {} if fixing else _check_all(files, config, args)
    project = _fixing_index(files) if fixing else None
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
            try:
                checked_notebook = _check_notebook(path, found.real_path, config.selection_for(path), args)
            except (RecursionError, MemoryError, ValueError) as exc:  # 50,000 nested brackets, a 5,000-digit number
                _skip(path, f"not a notebook that can be read: {_failure_reason(exc)}")
                continue
            if checked_notebook is None:
                continue
            notebook, source = checked_notebook
            checked += 1
            changed_files += notebook.new_text is not None
            if notebook.new_text is not None and not args.diff:
                try:
                    write_fixed(source, notebook.new_text)  # the same guarded write as for .py files
                except NotFixed as exc:
                    _say(path, str(exc))
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
        try:
            changed, applied, found_here = _fix_and_check(source, config.selection_for(path), args, project)
        except Exception as exc:  # one file's failure is that file's: the others are checked on
            _skip(path, _failure_reason(exc))
            continue
        checked += 1
        changed_files += changed
        fixed_count += applied
        findings.extend(found_here)
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
        write_text(sys.stdout, findings, checked, fixed_count, unsafe=args.unsafe_fixes)
    if config.problems:  # everything was reported under the defaults; a broken configuration still fails the run
        return EXIT_ERROR
    serious = any(SEVERITY_RANK[f.severity] <= SEVERITY_RANK["warning"] for f in findings)
    return EXIT_FINDINGS if serious else EXIT_OK


def _fix_and_check(source: SourceFile, selection: Selection, args: argparse.Namespace,
                   project: ProjectIndex | None = None) -> tuple[bool, int, list[Finding]]:
    """--fix / --diff on one file, then its findings: (whether fixes changed it, fixes applied, findings).
    `project`: the run's index; a fixed file's summary is updated in it."""
    path = source.path
    text = source.text
    changed, fixed = False, 0
    if args.fix or args.diff:
        problem = source.round_trip_problem()
        new, applied, error = (text, 0, None) if problem else fix_text(text, str(path), selection, args.unsafe_fixes,
                                                                      source.newline, project)
        if problem:
            _say(path, problem)
        if error:
            _say(path, error)
        if new != text:
            changed = True
            if args.diff:
                name = printable(path)
                sys.stdout.writelines(difflib.unified_diff(
                    text.splitlines(keepends=True), new.splitlines(keepends=True), f"a/{name}", f"b/{name}"))
            else:
                try:
                    write_fixed(source, new)
                except NotFixed as exc:
                    _say(path, str(exc))
                else:
                    text = new
                    fixed = applied
                    if project is not None:
                        project.update(path, text)
    if args.diff:
        return changed, fixed, []
    result: AnalysisResult = analyze(text, str(path), selection, project=project)
    found = [result.syntax_error] if result.syntax_error is not None else []
    return changed, fixed, found + result.findings


# One analysis: the path it is reported under, its text (a notebook: its bytes), its rules, whether fixes are wanted
Job = tuple[str, str | bytes, Selection, bool]


def _project_shape(project: ProjectIndex, cache: ResultCache) -> str:
    """The project's shape digest (ProjectIndex.shape_digest), each module's remembered in the result cache by
    the digest of its text."""
    def key(text_digest: str) -> str:
        return hashlib.sha256(f"module-shape\0{text_digest}".encode()).hexdigest()

    def known(text_digest: str) -> str | None:
        entry = cache.get(key(text_digest))
        shape = entry[0].get("shape") if entry and isinstance(entry[0], dict) else None
        return shape if isinstance(shape, str) else None

    digest, new = project.shape_digest(known)
    for text_digest, shape in new.items():
        cache.put(key(text_digest), [{"shape": shape}])
    return digest


def _project_index(texts: Iterable[tuple[Path, str]]) -> ProjectIndex:
    """The index of every module of the run (read statically, nothing imported: project_index.py)."""
    project = ProjectIndex()
    for path, text in texts:
        project.update(path, text, lazy=True)
    return project


def _fixing_index(files: list[FoundFile]) -> ProjectIndex:
    """The index of a --fix/--diff run: every readable .py file of it, as it is before any fix."""
    texts: list[tuple[Path, str]] = []
    for found in files:
        if found.real_path is not None and found.path.suffix != ".ipynb":
            try:
                texts.append((found.path, read_source(found.path, found.real_path).text))
            except (UnreadableSource, OSError):
                continue  # said when the file itself is checked
    return _project_index(texts)


# The project index a worker process was started with (see _worker_main)
_worker_project: ProjectIndex | None = None


def _analysed_plain(path: str, content: str | bytes, selection: Selection, with_fixes: bool,
                    project: ProjectIndex | None = None) -> list[dict[str, Any]] | str:
    """One file's findings in plain form (what crosses processes and is cached), or why it was skipped; runs in
    a worker process (`project`: the run's index; default: the one the worker was started with)."""
    project = project if project is not None else _worker_project
    from sharpbits.result_cache import finding_to_plain

    try:
        if isinstance(content, bytes):  # a notebook
            from sharpbits.notebooks import check_notebook

            outcome = check_notebook(path, content, selection)
            if outcome.skipped:
                return outcome.skipped
            return [finding_to_plain(f, with_fixes) for f in outcome.findings]
        result = analyze(content, path, selection, project=project)
        found = [result.syntax_error] if result.syntax_error is not None else []
        return [finding_to_plain(f, with_fixes) for f in found + result.findings]
    except Exception as exc:  # this file's failure is this file's: the other files are checked on
        return _failure_reason(exc)


def _check_all(files: list[FoundFile], config: Config, args: argparse.Namespace) -> dict[Path, list[Finding] | str]:
    """The findings (or the reason it was skipped) of every readable .py file and notebook, from the cache or
    analysed in `--jobs` processes (default: one per core), each within the time budget."""
    from sharpbits.result_cache import ResultCache, default_cache_dir, finding_from_plain

    # JSON output carries the fixes themselves; text output marks the findings whose fix `--fix` applies
    with_fixes = args.format in ("json", "text")
    cache = None if args.no_cache else _usable_cache(Path(args.cache_dir) if args.cache_dir else default_cache_dir(),
                                                     args.paths)
    out: dict[Path, list[Finding] | str] = {}
    pending: list[tuple[Path, str, Job]] = []  # path, cache key, job
    read: list[tuple[Path, bytes, str | bytes]] = []
    for found in files:
        path = found.path
        if found.real_path is None or path in out:
            continue
        content: str | bytes
        try:
            if path.suffix == ".ipynb":  # the notebook's bytes: sharpbits.notebooks reads them
                data = content = _read_no_follow(found.real_path)[0]
            else:
                source = read_source(path, found.real_path)
                data, content = source.data, source.text
        except UnreadableSource as exc:
            out[path] = str(exc)
            continue
        except OSError as exc:
            out[path] = f"cannot read: {exc.strerror or exc}"
            continue
        read.append((path, data, content))
    # The project index first: every .py file of the run fed to it (project_index.py), summarised when another
    # module first asks about it, so a call into another module of the project is answered from what that
    # module does. A file's findings then depend on what the other files show their callers, so the cache key
    # holds the project's shape: each module's summary digest, remembered in the cache by the module's text, so
    # an unchanged run parses nothing and an edit re-summarises only the edited module; an edit that changes
    # no summary (most edits inside a function) leaves the other files' entries valid.
    project = _project_index((path, content) for path, _, content in read if isinstance(content, str))
    shape = _project_shape(project, cache).encode() if cache is not None else b""
    for path, data, content in read:
        selection = config.selection_for(path)
        key = ResultCache.key(data + b"\0" + shape, str(path), selection, with_fixes) if cache is not None else ""
        cached = cache.get(key) if cache is not None else None
        if cached is not None:
            out[path] = [finding_from_plain(plain) for plain in cached]
        else:
            pending.append((path, key, (str(path), content, selection, with_fixes)))
    jobs = args.jobs or os.cpu_count() or 1
    budget = args.timeout or None
    results: list[list[dict[str, Any]] | str]
    if pending and (budget is not None or (jobs > 1 and len(pending) >= 4)):
        # in processes: on every core, and each analysis can be stopped for real when it runs out of time
        results = _in_processes([job for _, _, job in pending], jobs if len(pending) >= 4 else 1, budget, project)
    else:
        results = [_analysed_plain(*job, project=project) for _, _, job in pending]
    for (path, key, _), plain in zip(pending, results, strict=True):
        if isinstance(plain, str):  # could not be checked: said, never cached
            out[path] = plain
            continue
        if cache is not None:
            cache.put(key, plain)
        out[path] = [finding_from_plain(p) for p in plain]
    return out


def _usable_cache(folder: Path, paths: list[str]) -> ResultCache | None:
    """The result cache in `folder`, unless `folder` lies inside what is checked: a repository could ship
    entries there that report its files clean (said on stderr; the run goes on without a cache)."""
    from sharpbits.result_cache import ResultCache

    real = Path(os.path.realpath(folder))
    for raw in paths or ["."]:
        tree = Path(os.path.realpath(raw))
        if not os.path.isdir(tree):
            tree = tree.parent
        if real == tree or tree in real.parents:
            print(f"sharpbits: warning: the cache folder {printable(folder)} is inside the folder being checked "
                  f"({printable(tree)}), where a repository could plant results; not used (choose another with "
                  "--cache-dir or $SHARPBITS_CACHE_DIR)", file=sys.stderr)
            return None
    return ResultCache(folder)


@contextlib.contextmanager
def _neutral_start() -> Iterator[None]:
    """Where worker processes that do not fork start: a `spawn` child (the only start method on Windows) runs
    `python -c "from multiprocessing.spawn import ..."` in the parent's working directory, which `-c` puts first
    on sys.path, so a checked folder's own multiprocessing.py would run in every child. While the workers
    start, the working directory is a new empty folder of ours, and PYTHONSAFEPATH=1 (Python 3.11+) keeps any
    working directory off their sys.path. The workers need only the source text they are sent."""
    import tempfile

    neutral = tempfile.mkdtemp(prefix="sharpbits-workers-")
    previous_dir = os.getcwd()
    previous_safe_path = os.environ.get("PYTHONSAFEPATH")
    os.environ["PYTHONSAFEPATH"] = "1"
    os.chdir(neutral)
    try:
        yield
    finally:
        os.chdir(previous_dir)
        if previous_safe_path is None:
            os.environ.pop("PYTHONSAFEPATH", None)
        else:
            os.environ["PYTHONSAFEPATH"] = previous_safe_path
        with contextlib.suppress(OSError):
            os.rmdir(neutral)


def _worker_main(connection: Any, project: ProjectIndex | None = None) -> None:
    """A worker process: analyses the jobs it is sent, one at a time, until it is sent None (or killed). Ctrl+C
    is the parent's to handle (it stops every worker), not a traceback from each. `project`: the run's index,
    built in the parent (a forked worker shares it; a spawned one gets a copy, once)."""
    import signal

    global _worker_project
    _worker_project = project
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    while True:
        try:
            job = connection.recv()
        except EOFError:
            return
        if job is None:
            return
        connection.send(_analysed_plain(*job))


class _Queue:
    """The jobs not yet dealt, in one part per worker: the files in path order, cut into as many runs as there are
    workers, so each worker checks the files of one part of the tree and the modules they call into, which each
    worker summarises for itself (the project index: a parse and a walk of each), are mostly its own (dealt in
    one shared order, every worker summarised nearly every module). Within a part the largest files go first;
    a worker whose part is done takes the smallest files of the part with the most left."""

    def __init__(self, jobs: list[Job], parts: int) -> None:
        order = sorted(range(len(jobs)), key=lambda i: jobs[i][0])
        size = -(-len(order) // max(parts, 1)) or 1
        # each part popped from the end: largest first
        self.parts = [sorted(order[at:at + size], key=lambda i: len(jobs[i][1])) for at in range(0, len(order), size)]

    def __len__(self) -> int:
        return sum(len(part) for part in self.parts)

    def pop(self, part: int) -> int:
        if part < len(self.parts) and self.parts[part]:
            return self.parts[part].pop()
        return max(self.parts, key=len).pop(0)


class _Worker:
    """One worker process and the job it is on (index into the jobs, when it was sent)."""

    part = 0  # the part of the queue it takes its jobs from

    def __init__(self, context: Any, project: ProjectIndex | None = None) -> None:
        self.connection, child = context.Pipe()
        self.process = context.Process(target=_worker_main, args=(child, project), daemon=True)
        self.process.start()
        child.close()
        self.job: int | None = None
        self.since = 0.0

    def stop(self, kill: bool) -> None:
        with contextlib.suppress(OSError, ValueError):
            if kill:
                self.process.kill()
            else:
                self.connection.send(None)
        self.process.join(5)
        if self.process.is_alive():  # did not leave when asked
            self.process.kill()
            self.process.join()
        self.connection.close()


def _in_processes(jobs: list[Job], processes: int, budget: float | None = None,
                  project: ProjectIndex | None = None) -> list[list[dict[str, Any]] | str]:
    """Analyses in up to `processes` worker processes; the results come back in the order of `jobs`. Files are
    dealt out one at a time, largest first, so no core waits long for the last big file. An analysis that runs
    longer than `budget` seconds is stopped for real: its process is killed (whatever it is doing, in Python or
    in C) and replaced, and that file's result is the reason it was skipped; so is a worker that died."""
    import multiprocessing
    import time
    from multiprocessing.connection import wait

    queue = _Queue(jobs, processes)
    results: list[list[dict[str, Any]] | str] = [[] for _ in jobs]
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    workers: list[_Worker] = []
    with contextlib.ExitStack() as stack:
        if context.get_start_method() != "fork":
            stack.enter_context(_neutral_start())  # every worker starts in here, replacements too

        @stack.callback
        def _stop_all() -> None:
            for worker in workers:
                worker.stop(kill=worker.job is not None)

        def give_work(worker: _Worker) -> None:
            index = queue.pop(worker.part)
            worker.job, worker.since = index, time.monotonic()
            worker.connection.send(jobs[index])

        def replace(worker: _Worker) -> None:
            workers.remove(worker)
            worker.stop(kill=True)
            if queue:
                fresh = _Worker(context, project)
                fresh.part = worker.part
                workers.append(fresh)
                give_work(fresh)

        for part in range(min(processes, len(queue))):
            workers.append(_Worker(context, project))
            workers[-1].part = part
            give_work(workers[-1])
        while any(w.job is not None for w in workers):
            busy = [w for w in workers if w.job is not None]
            timeout = None
            if budget is not None:
                timeout = max(0.0, min(w.since + budget for w in busy) - time.monotonic())
            ready = set(wait([w.connection for w in busy] + [w.process.sentinel for w in busy], timeout))
            for worker in busy:
                index = worker.job
                assert index is not None
                if worker.connection in ready:
                    try:
                        results[index] = worker.connection.recv()
                    except (EOFError, OSError):
                        ready.add(worker.process.sentinel)
                    else:
                        worker.job = None
                        if queue:
                            give_work(worker)
                        continue
                if worker.process.sentinel in ready:
                    worker.process.join()
                    results[index] = f"the analysis process stopped unexpectedly (exit code {worker.process.exitcode})"
                    worker.job = None
                    replace(worker)
                elif budget is not None and time.monotonic() - worker.since >= budget:
                    results[index] = f"analysis took longer than {budget:g} s"
                    worker.job = None
                    replace(worker)
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
        _skip(path, outcome.skipped)
        return None
    if outcome.error:
        _say(path, outcome.error)
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
        _error(f"unknown rule {args.rule!r} (run `sharpbits rule` for the list)")
        return EXIT_ERROR
    print(found.documentation())
    return EXIT_OK


