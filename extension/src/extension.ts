// Entry point: wires the pieces together, nothing else.
import * as vscode from "vscode";
import { ServerController } from "./client";
import { startE2eReport } from "./e2eReport";
import { InterpreterService } from "./interpreter";
import { Preflight } from "./preflight";
import { ServerStatus } from "./status";

let controller: ServerController | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const log = vscode.window.createOutputChannel("JAX Sharp Bits", { log: true });
  const status = new ServerStatus();
  const interpreters = new InterpreterService(log);
  const preflight = new Preflight(context.extensionPath, log, () => void controller?.restart());
  controller = new ServerController(interpreters, preflight, log);
  const server = controller;
  context.subscriptions.push(
    log,
    status,
    interpreters,
    server.onDidChangeState((s) => status.show(s.state, s.interpreter?.command.join(" "), s.reason)),
    interpreters.onDidChange(() => void server.restart()),
    vscode.commands.registerCommand("sharpbits.restart", () => server.restart()),
    vscode.commands.registerCommand("sharpbits.showOutput", () => log.show()),
  );
  const report = startE2eReport(server);
  if (report) context.subscriptions.push(report);
  void server.restart();
}

export async function deactivate(): Promise<void> {
  await controller?.dispose();
  controller = undefined;
}
