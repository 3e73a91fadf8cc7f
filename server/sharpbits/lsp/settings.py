"""The editor's settings (`sharpbits.*`, sent as initializationOptions and with didChangeConfiguration): one
typed structure, read and validated here and nowhere else.

`read_settings(raw, previous)` returns the new settings and the messages the user gets for what was ignored:
a value of the wrong type or out of range is named (`ignored sharpbits.debounceMs = "fast": ...`) and the last
good value stays. A push is a whole snapshot of the settings, except the numbers, `trusted` and the lens
command, which keep their last value when a push leaves them out (the extension always sends them).

`workspace_config(root, rules)` reads the workspace's `[tool.sharpbits]` (sharpbits.config) and puts the
editor's rule settings on top; a file it cannot use becomes one message, and the server goes on with defaults.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from sharpbits.config import Config, ConfigError, find_pyproject, load_config

TRACE_COMMAND = "sharpbits.trace"  # the command behind the Trace lens (an editor may name its own)
RULE_SETTINGS = ("select", "ignore", "severity", "per-file-ignores")
WORKER_SETTINGS = ("interpreter", "platform", "launchPrefix", "cacheDir", "memoryLimitMb")
# settings that name a program to run (or a folder to write): dropped when the client says the workspace is untrusted
UNTRUSTED_DROPS = ("interpreter", "launchPrefix", "cacheDir")
DEFAULT_TRACE_TIMEOUT_S = 120.0


@dataclass(frozen=True)
class InlayHintSettings:
    """`sharpbits.trace.inlayHints.*`: which trace figures show at the end of lines."""

    run_time: bool = True
    roofline: bool = True
    collectives: bool = True
    equations: bool = True


@dataclass(frozen=True)
class WorkerSettings:
    """Which worker traces: `sharpbits.trace.{interpreter, platform, launchPrefix, cacheDir, memoryLimitMb}`."""

    interpreter: str | None = None
    platform: str | None = None
    launch_prefix: str | tuple[str, ...] | None = None
    cache_dir: str | None = None
    memory_limit_mb: float | None = None

    def as_mapping(self) -> dict[str, Any]:
        """In the editor's spelling, for `trace.client.WorkerConfig.from_settings` (unset values left out)."""
        values = {"interpreter": self.interpreter, "platform": self.platform,
                  "launchPrefix": list(self.launch_prefix) if isinstance(self.launch_prefix, tuple)
                  else self.launch_prefix, "cacheDir": self.cache_dir, "memoryLimitMb": self.memory_limit_mb}
        return {k: v for k, v in values.items() if v is not None}

    def untrusted(self) -> WorkerSettings:
        """Without the settings that name a program to run or a folder to write (UNTRUSTED_DROPS)."""
        return replace(self, interpreter=None, launch_prefix=None, cache_dir=None)


@dataclass(frozen=True)
class TraceSettings:
    """`sharpbits.trace.*`."""

    enabled: bool = False
    auto_retrace: bool = False
    check_key_reuse: bool = True  # trace under jax.debug_key_reuse: a reused key is a finding, the trace goes on
    timeout_s: float = DEFAULT_TRACE_TIMEOUT_S
    worker: WorkerSettings = field(default_factory=WorkerSettings)
    inlay_hints: InlayHintSettings = field(default_factory=InlayHintSettings)


@dataclass(frozen=True)
class CodeActionSettings:
    """`sharpbits.codeActions.*`: which fixes the editor offers and what fix-all applies. A fix is *safe* when the
    program computes the same numbers and every function keeps its signature (Fix.safe, declared by each rule);
    only safe fixes are preferred, so Auto Fix and fix-all-on-save never change what a program computes."""

    fix_all_includes_unsafe: bool = False  # fix-all (Ctrl+. and source.fixAll) also applies unsafe fixes
    show_unsafe_fixes: bool = True  # unsafe fixes are offered in the quick-fix menu, marked "(unsafe)"
    disable_for_this_line: bool = True  # a "Disable SB201 for this line" (noqa) action for every finding


@dataclass(frozen=True)
class EditorSettings:
    """Everything the editor tells the server, typed. `rules` holds only the editor's rule settings (select,
    ignore, severity, per-file-ignores); the server merges them over the workspace's file (workspace_config)."""

    debounce_s: float = 0.15
    max_file_size_kb: float = 4096  # a generated data module of 54 MB is skipped with a message, not analysed
    analysis_timeout_s: float = 10.0
    # past this, a document's analysis is stopped for real (lsp/analysis_process.py): the rule running is named on
    # line 1, the other rules' findings are shown
    analysis_budget_s: float = 30.0
    rules: Config = field(default_factory=Config)
    trusted: bool | None = None  # what the client said about Workspace Trust; None: it never said (not VS Code)
    trace_lens_command: str = TRACE_COMMAND
    trace: TraceSettings = field(default_factory=TraceSettings)
    code_actions: CodeActionSettings = field(default_factory=CodeActionSettings)
    # where a rule's documentation is: a URL with `{name}` or `{code}` in it, or one the page name is added to
    # (`https://example.org/rules/` -> `.../rules/prng-key-reuse.md`); None: the page of the installed version
    docs_url: str | None = None


def json_snippet(value: Any) -> str:
    try:
        text = json.dumps(value)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def kind_of(value: Any) -> str:
    """How a JSON value is called in a message: `an object`, `a string`, ..."""
    return {dict: "an object", list: "an array", tuple: "an array", str: "a string", bool: "a boolean",
            type(None): "null", int: "a number", float: "a number"}.get(type(value), type(value).__name__)


def settings_of_push(settings: Any) -> tuple[Mapping[str, Any] | None, str | None]:
    """The `sharpbits` settings of a didChangeConfiguration push: (settings, None), or (None, a message) when the
    push is not an object of sharpbits.* values. (None, None): the client only signalled "something changed"."""
    if settings is None:
        return None, None
    inner = settings.get("sharpbits", settings) if isinstance(settings, Mapping) else settings
    if not isinstance(inner, Mapping):
        return None, (f"ignored settings that are not an object of sharpbits.* values (got {kind_of(inner)}); "
                      "the previous configuration stays")
    return inner, None


class _Reader:
    """Reads typed values out of the raw settings, collecting one message per value it ignores."""

    def __init__(self) -> None:
        self.messages: list[str] = []

    def number(self, raw: Mapping[str, Any], name: str, low: float, high: float, previous: float) -> float:
        """sharpbits.`name` if it is a number in [low, high]; otherwise `previous`, after one message naming it."""
        value = raw.get(name)
        if value is None:
            return previous
        if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
            self.messages.append(f"ignored sharpbits.{name} = {json_snippet(value)}: expected a number from "
                                 f"{low:.0f} to {high:.0f}; the previous value stays")
            return previous
        return float(value)

    def flag(self, raw: Mapping[str, Any], name: str, where: str, default: bool) -> bool:
        value = raw.get(name)
        if value is None:
            return default
        if not isinstance(value, bool):
            self.messages.append(f"ignored sharpbits.{where}{name} = {json_snippet(value)}: expected true or false")
            return default
        return value

    def text(self, raw: Mapping[str, Any], name: str, where: str) -> str | None:
        value = raw.get(name)
        if value is None or value == "":
            return None
        if not isinstance(value, str):
            self.messages.append(f"ignored sharpbits.{where}{name} = {json_snippet(value)}: expected a string")
            return None
        return value

    def table(self, raw: Mapping[str, Any], name: str, where: str) -> Mapping[str, Any] | None:
        value = raw.get(name)
        if value is None:
            return {}
        if not isinstance(value, Mapping):
            self.messages.append(f"ignored sharpbits.{where}{name} = {json_snippet(value)}: expected an object")
            return None
        return value

    def rules(self, raw: Mapping[str, Any], previous: Config) -> Config:
        editor = {k: v for k, v in raw.items() if k in RULE_SETTINGS and v not in (None, [], {})}
        try:
            return Config.from_mapping(editor, where="editor settings (sharpbits.*)")
        except ConfigError as exc:
            self.messages.append(f"{exc}; the previous rule settings stay")
        except (TypeError, ValueError, AttributeError) as exc:
            self.messages.append(f"ignored invalid rule settings (sharpbits.{'/'.join(sorted(editor))}): {exc}; "
                                 "the previous rule settings stay")
        return previous

    def trace(self, raw: Mapping[str, Any], previous: TraceSettings) -> TraceSettings:
        trace = self.table(raw, "trace", "")
        if trace is None:
            return previous
        hints = self.table(trace, "inlayHints", "trace.") or {}
        prefix = trace.get("launchPrefix")
        launch_prefix: str | tuple[str, ...] | None = None
        if isinstance(prefix, list | tuple) and all(isinstance(p, str) for p in prefix):
            launch_prefix = tuple(prefix) or None
        elif prefix not in (None, ""):
            launch_prefix = self.text(trace, "launchPrefix", "trace.")
        limit = trace.get("memoryLimitMb")
        memory = float(limit) if isinstance(limit, int | float) and not isinstance(limit, bool) and limit >= 0 else None
        if limit is not None and memory is None:
            self.messages.append(f"ignored sharpbits.trace.memoryLimitMb = {json_snippet(limit)}: expected a number "
                                 "of megabytes, 0 or more")
        timeout = trace.get("timeout")
        if timeout is not None and (isinstance(timeout, bool) or not isinstance(timeout, int | float) or timeout <= 0):
            self.messages.append(f"ignored sharpbits.trace.timeout = {json_snippet(timeout)}: expected a number of "
                                 "seconds above 0")
            timeout = None
        return TraceSettings(
            enabled=trace.get("enabled") is True,  # anything but true leaves tracing off
            auto_retrace=self.flag(trace, "autoRetrace", "trace.", False),
            check_key_reuse=self.flag(trace, "checkKeyReuse", "trace.", True),
            timeout_s=float(timeout) if timeout else DEFAULT_TRACE_TIMEOUT_S,
            worker=WorkerSettings(self.text(trace, "interpreter", "trace."), self.text(trace, "platform", "trace."),
                                  launch_prefix, self.text(trace, "cacheDir", "trace."), memory),
            inlay_hints=InlayHintSettings(*(self.flag(hints, name, "trace.inlayHints.", True)
                                            for name in ("runTime", "roofline", "collectives", "equations"))),
        )


    def code_actions(self, raw: Mapping[str, Any]) -> CodeActionSettings:
        table = self.table(raw, "codeActions", "") or {}
        defaults = CodeActionSettings()
        return CodeActionSettings(*(self.flag(table, name, "codeActions.", default) for name, default in (
            ("fixAllIncludesUnsafe", defaults.fix_all_includes_unsafe),
            ("showUnsafeFixes", defaults.show_unsafe_fixes),
            ("disableForThisLine", defaults.disable_for_this_line))))

    def docs_url(self, raw: Mapping[str, Any]) -> str | None:
        url = self.text(raw, "docsUrl", "")
        if url is not None and not url.lower().startswith(("https://", "http://", "file://")):
            self.messages.append(f"ignored sharpbits.docsUrl = {json_snippet(url)}: expected an http(s):// or "
                                 "file:// URL; links go to the installed version's rule pages")
            return None
        return url


def read_settings(raw: Mapping[str, Any], previous: EditorSettings) -> tuple[EditorSettings, list[str]]:
    """The settings after the editor sent `raw`, and one message for each value that was ignored."""
    read = _Reader()
    debounce_ms = read.number(raw, "debounceMs", 0, 5000, previous.debounce_s * 1000)
    max_size = read.number(raw, "maxFileSizeKB", 1, 1024 * 1024, previous.max_file_size_kb)
    timeout_ms = read.number(raw, "analysisTimeoutMs", 100, 600_000, previous.analysis_timeout_s * 1000)
    budget_ms = read.number(raw, "analysisBudgetMs", 100, 3_600_000, previous.analysis_budget_s * 1000)
    trusted = raw.get("trusted")
    lens_command = raw.get("traceLensCommand")
    settings = EditorSettings(
        debounce_s=debounce_ms / 1000,
        max_file_size_kb=max_size,
        analysis_timeout_s=timeout_ms / 1000,
        analysis_budget_s=budget_ms / 1000,
        rules=read.rules(raw, previous.rules),
        # a later push that leaves it out keeps what the client said last
        trusted=trusted if isinstance(trusted, bool) else previous.trusted,
        trace_lens_command=lens_command if isinstance(lens_command, str) and lens_command
        else previous.trace_lens_command,
        trace=read.trace(raw, previous.trace),
        code_actions=read.code_actions(raw),
        docs_url=read.docs_url(raw),
    )
    return settings, read.messages


def editor_settings(raw: Mapping[str, Any]) -> EditorSettings:
    """`raw` read over the defaults, messages dropped (for tests and tools)."""
    return read_settings(raw, EditorSettings())[0]


def workspace_config(root: str | None, rules: Config) -> tuple[Config, list[str]]:
    """The rule configuration: the workspace's [tool.sharpbits] with the editor's rule settings on top, and the
    problems with the file, one message each (empty when there are none). A file that cannot be used leaves the
    defaults in its place: the server keeps analysing."""
    errors: list[str] = []
    try:
        file_config = load_config(Path(root)) if root else Config()
    except ConfigError as exc:
        errors.append(str(exc))
        file_config = Config()
    except Exception as exc:  # a value of a shape config.py did not expect: still one message, never a crash
        where: Path | str | None = root
        with contextlib.suppress(Exception):
            where = find_pyproject(Path(root or ".")) or root
        errors.append(f"{where} [tool.sharpbits]: cannot be used ({type(exc).__name__}: {exc}); "
                      "the default rule settings apply")
        file_config = Config()
    errors += list(file_config.problems)  # load_config reports what it cannot use (file, line, key) and goes on
    return file_config.merged(rules), errors
