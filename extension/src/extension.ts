// Entry point: wires the pieces together, nothing else.
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import { ServerController } from "./client";
import { InterpreterService } from "./interpreter";
import { Preflight } from "./preflight";
import { RUN_FILE_COMMAND, RunCommands } from "./runtimeCommand";
import { ServerStatus } from "./status";
import { CompiledViews } from "./tracing/compiledView";
import { TraceReports } from "./tracing/reportView";
import { serverSettings } from "./tracing/serverSettings";
import { LensTarget, selectTraceInterpreter, TraceCommands, TraceTarget } from "./tracing/traceCommand";

/** Replaced at build time (esbuild --define): true only in the build the end-to-end suite installs, so the
 * test hooks (e2eReport) are not even in the shipped bundle (esbuild drops the dead branch and its require). */
declare const SHARPBITS_TEST_HOOKS: boolean;
import { WorkerStatusItem } from "./tracing/workerStatus";

let controller: ServerController | undefined;

/** The working directory of every Python process we start: the extension's own storage folder (created here),
 * else the folder of its compiled code; never the workspace, whose modules would shadow the server's. */
function neutralDirectory(context: vscode.ExtensionContext): string {
  const dir = context.globalStorageUri.fsPath;
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    return dir;
  } catch {
    return path.join(context.extensionPath, "extension", "out");
  }
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const log = vscode.window.createOutputChannel("JAX Sharp Bits", { log: true });
  const status = new ServerStatus();
  const interpreters = new InterpreterService(log, context.workspaceState);
  const neutralDir = neutralDirectory(context);
  const preflight = new Preflight(context.extensionPath, neutralDir, log, () => void controller?.restart());
  const settings = () => {
    const config = vscode.workspace.getConfiguration("sharpbits");
    return serverSettings((key) => config.inspect(key), vscode.workspace.isTrusted, "sharpbits.traceFunction");
  };
  controller = new ServerController(interpreters, preflight, log, neutralDir, settings);
  const server = controller;
  const traces = new TraceCommands(server, context.workspaceState, log);
  const views = new CompiledViews(server, traces, log);
  const reports = new TraceReports(server, traces, (kind, target) => views.show(kind, target), () => views.listingInActiveEditor());
  const runs = new RunCommands(server, log);
  const worker = new WorkerStatusItem(() => (server.state.state === "running" ? server : undefined));
  context.subscriptions.push(
    log,
    status,
    interpreters,
    server.onDidChangeState((s) => status.show(s.state, s.interpreter?.command.join(" "), s.reason)),
    interpreters.onDidChange(() => void server.restart()),
    vscode.commands.registerCommand("sharpbits.restart", () => server.restart()),
    vscode.commands.registerCommand("sharpbits.showOutput", () => log.show()),
    views,
    worker,
    traces,
    reports,
    vscode.commands.registerCommand("sharpbits.showTraceReport", (target?: TraceTarget) => reports.show(target)),
    // from the lens (its target) or the palette (no argument: the function at the cursor, else a pick)
    vscode.commands.registerCommand("sharpbits.traceFunction", (target?: LensTarget) => traces.trace(target)),
    vscode.commands.registerCommand("sharpbits.selectTraceInterpreter", () => selectTraceInterpreter()),
    vscode.commands.registerCommand("sharpbits.showJaxpr", (target?: TraceTarget) => views.show("jaxpr", target)),
    vscode.commands.registerCommand("sharpbits.showStableHLO", (target?: TraceTarget) => views.show("stablehlo", target)),
    vscode.commands.registerCommand("sharpbits.showOptimizedHLO", (target?: TraceTarget) => views.show("hlo", target)),
    runs,
    vscode.commands.registerCommand(RUN_FILE_COMMAND, (uri?: vscode.Uri) => runs.run(uri)),
    vscode.commands.registerCommand("sharpbits.restartTraceWorker", async () => {
      const status = await server.request("sharpbits/traceWorkerRestart", {});
      if (status?.refused) void vscode.window.showWarningMessage(`JAX Sharp Bits: ${status.refused.message}`);
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration("sharpbits.interpreter")) return; // the interpreter service restarts the server
      if (e.affectsConfiguration("sharpbits")) void server.pushSettings();
    }),
    // Granting trust enables tracing without a reload.
    vscode.workspace.onDidGrantWorkspaceTrust(() => void server.pushSettings().then(() => worker.refresh())),
  );
  if (SHARPBITS_TEST_HOOKS) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { startE2eReport } = require("./e2eReport") as typeof import("./e2eReport");
    const report = startE2eReport(server, views, worker, traces, reports);
    if (report) context.subscriptions.push(report);
  }
  void server.restart();
}

export async function deactivate(): Promise<void> {
  await controller?.dispose();
  controller = undefined;
}
