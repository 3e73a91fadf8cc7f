// The trace worker's state in a language status item: starting, ready on `NVIDIA H100 (cuda)`, busy,
// crashed/restarting, or off (disabled, or an untrusted workspace).
import * as vscode from "vscode";
import type { ProtocolClient } from "./traceCommand";
import { describeWorker, WorkerStatus } from "./workerState";

export class WorkerStatusItem implements vscode.Disposable {
  private readonly item = vscode.languages.createLanguageStatusItem("sharpbits.traceWorker", { language: "python" });
  private timer: NodeJS.Timeout | undefined;
  last: string = "";
  lastAction: string | undefined;

  constructor(private readonly server: () => ProtocolClient | undefined) {
    this.item.name = "JAX Sharp Bits trace worker";
    this.timer = setInterval(() => void this.refresh(), 2000);
    void this.refresh();
  }

  async refresh(): Promise<void> {
    const trusted = vscode.workspace.isTrusted;
    let status: WorkerStatus | undefined;
    const server = this.server();
    if (trusted && server) {
      try {
        status = await server.request("sharpbits/traceWorkerStatus", {});
      } catch {
        status = undefined; // the server is (re)starting
      }
    }
    const shown = describeWorker(status, trusted, server !== undefined);
    this.item.command =
      shown.action === "selectInterpreter"
        ? { title: "Select interpreter", command: "sharpbits.selectTraceInterpreter" }
        : shown.action === "restartServer"
          ? { title: "Restart server", command: "sharpbits.restart" }
          : shown.action === "restartWorker"
            ? { title: "Restart worker", command: "sharpbits.restartTraceWorker" }
            : undefined;
    this.item.text = shown.text;
    this.item.busy = shown.busy;
    this.item.severity = shown.error ? vscode.LanguageStatusSeverity.Warning : vscode.LanguageStatusSeverity.Information;
    this.last = shown.text;
    this.lastAction = this.item.command?.title;
  }

  dispose(): void {
    if (this.timer) clearInterval(this.timer);
    this.item.dispose();
  }
}
