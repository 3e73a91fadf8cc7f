// Test-only hook, inert unless SHARPBITS_E2E_REPORT=<file> is set in the editor's environment: writes what
// the extension observes through the VS Code API (server state, diagnostics per file, open Python
// documents' text) as JSON to that file whenever it changes, so end-to-end tests can assert on it.
import * as fs from "node:fs";
import * as vscode from "vscode";
import { ServerController } from "./client";
import { CompiledViews } from "./tracing/compiledView";
import { TraceReports } from "./tracing/reportView";
import { TraceCommands } from "./tracing/traceCommand";
import { WorkerStatusItem } from "./tracing/workerStatus";

export function startE2eReport(
  controller: ServerController,
  views?: CompiledViews,
  worker?: WorkerStatusItem,
  traces?: TraceCommands,
  reports?: TraceReports,
): vscode.Disposable | undefined {
  const file = process.env.SHARPBITS_E2E_REPORT;
  if (!file) return undefined;
  let timer: NodeJS.Timeout | undefined;
  let seq = 0;
  // One report file for every window of the code-server: the extension host of a window the tests closed lives on
  // (and would keep writing). The host activated last owns the file; the others stop writing to it.
  const me = `${process.pid}-${Date.now()}`;
  try {
    fs.writeFileSync(`${file}.owner`, me);
  } catch {
    // a test hook must never disturb the extension
  }
  const owner = (): boolean => {
    try {
      return fs.readFileSync(`${file}.owner`, "utf8") === me;
    } catch {
      return true;
    }
  };
  const toasts: string[] = [];
  // every server state the controller published, numbered (a crash's short-lived "error" is seen even when the
  // restart follows before the report is written)
  const states: { n: number; state: string; reason: string | null }[] = [];
  let stateCount = 0;
  // the code actions at the cursor of a Python editor, as the editor's Ctrl+. asks for them (title, kind, preferred)
  let codeActions: { uri: string; line: number; actions: { title: string; kind: string | null; isPreferred: boolean }[] } | null = null;
  let actionsTimer: NodeJS.Timeout | undefined;
  const readActions = (editor: vscode.TextEditor) => {
    if (actionsTimer) clearTimeout(actionsTimer);
    actionsTimer = setTimeout(async () => {
      if (editor.document.languageId !== "python") return;
      const position = editor.selection.active;
      const actions = (await vscode.commands.executeCommand<vscode.CodeAction[]>(
        "vscode.executeCodeActionProvider", editor.document.uri, new vscode.Range(position, position))) ?? [];
      codeActions = {
        uri: editor.document.uri.toString(),
        line: position.line,
        actions: actions.map((a) => ({ title: a.title, kind: a.kind?.value ?? null, isPreferred: !!a.isPreferred })),
      };
      schedule();
    }, 300);
  };
  // every message toast the extension shows is recorded (the VS Code API has no way to list them)
  for (const name of ["showInformationMessage", "showWarningMessage", "showErrorMessage"] as const) {
    const original = vscode.window[name] as (...args: unknown[]) => Thenable<unknown>;
    try {
      (vscode.window as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => {
        toasts.push(`${name}: ${String(args[0])}`);
        schedule();
        return original.apply(vscode.window, args);
      };
    } catch {
      toasts.push("(toasts cannot be recorded: vscode.window is frozen)");
    }
  }
  const write = () => {
    timer = undefined;
    if (!owner()) return;
    const diagnostics: Record<string, unknown[]> = {};
    for (const [uri, items] of vscode.languages.getDiagnostics()) {
      if (items.length === 0) continue;
      diagnostics[uri.toString()] = items.map((d) => ({
        code: typeof d.code === "object" ? String(d.code.value) : d.code === undefined ? null : String(d.code),
        href: typeof d.code === "object" ? d.code.target.toString() : null,
        source: d.source ?? null,
        message: d.message,
        severity: vscode.DiagnosticSeverity[d.severity],
        range: [d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character],
      }));
    }
    const documents: Record<string, { version: number; dirty: boolean; text: string }> = {};
    for (const doc of vscode.workspace.textDocuments) {
      if (doc.languageId !== "python") continue;
      documents[doc.uri.toString()] = { version: doc.version, dirty: doc.isDirty, text: doc.getText() };
    }
    const state = controller.state;
    const report = {
      seq: ++seq,
      time: new Date().toISOString(),
      activated: true,
      state: state.state,
      reason: state.reason ?? null,
      states: states.slice(-20),
      // the server is a child of this process (the tests find it by its parent to end it, as a crash would)
      extensionHostPid: process.pid,
      interpreter: state.interpreter?.command ?? null,
      interpreterSource: state.interpreter?.source ?? null,
      diagnostics,
      documents,
      trusted: vscode.workspace.isTrusted,
      compiled: views?.state ?? null,
      worker: worker?.last ?? null,
      workerAction: worker?.lastAction ?? null,
      // the last trace the editor ran: its outcome, the inputs it sent and where they came from, the toast's actions
      trace: traces?.last ?? null,
      // every notification toast the extension showed since it started (a cancel must add none)
      toasts: toasts.slice(-20),
      traceReport: reports?.last ?? null,
      codeActions,
      languages: Object.fromEntries(vscode.workspace.textDocuments.filter((d) => d.uri.scheme === "sharpbits-compiled").map((d) => [d.uri.path, d.languageId])),
      tabs: vscode.window.tabGroups.all.flatMap((g) => g.tabs.map((t) => t.label)),
      // the launch prefix the extension pushes to the server (tests that change it wait for the push)
      traceLaunchPrefix: vscode.workspace.getConfiguration("sharpbits").get<string>("trace.launchPrefix") ?? null,
    };
    try {
      fs.writeFileSync(`${file}.tmp`, JSON.stringify(report, null, 1));
      fs.renameSync(`${file}.tmp`, file);
    } catch {
      // a test hook must never disturb the extension
    }
  };
  const schedule = () => {
    if (!timer) timer = setTimeout(write, 50);
  };
  const subs = [
    controller.onDidChangeState((change) => {
      states.push({ n: ++stateCount, state: change.state, reason: change.reason ?? null });
      schedule();
    }),
    vscode.languages.onDidChangeDiagnostics(schedule),
    vscode.workspace.onDidChangeTextDocument(schedule),
    vscode.workspace.onDidOpenTextDocument(schedule),
    ...(views ? [views.onDidLink(schedule)] : []),
    ...(traces ? [traces.onDidTrace(schedule)] : []),
    ...(reports ? [reports.onDidShow(schedule)] : []),
    vscode.window.tabGroups.onDidChangeTabs(schedule),
    vscode.window.onDidChangeTextEditorSelection((e) => readActions(e.textEditor)),
    vscode.languages.onDidChangeDiagnostics(() => vscode.window.activeTextEditor && readActions(vscode.window.activeTextEditor)),
    vscode.workspace.onDidGrantWorkspaceTrust(schedule),
    vscode.workspace.onDidChangeConfiguration(schedule),
  ];
  const poll = worker ? setInterval(schedule, 1000) : undefined; // the worker status changes without an event
  schedule();
  return new vscode.Disposable(() => {
    if (timer) clearTimeout(timer);
    if (poll) clearInterval(poll);
    for (const s of subs) s.dispose();
  });
}
