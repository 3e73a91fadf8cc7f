// The language status item (the `{}` next to "Python" in the status bar): server state and interpreter.
import * as vscode from "vscode";
import { ServerState, statusView } from "./serverState";

export class ServerStatus implements vscode.Disposable {
  private readonly item: vscode.LanguageStatusItem;

  constructor() {
    this.item = vscode.languages.createLanguageStatusItem("sharpbits.server", { language: "python" });
    this.item.name = "JAX Sharp Bits";
    this.show("stopped", undefined);
  }

  show(state: ServerState, interpreter: string | undefined, reason?: string): void {
    const view = statusView(state, interpreter, reason);
    this.item.text = view.text;
    this.item.detail = view.detail;
    this.item.busy = view.busy;
    this.item.severity = view.severity as vscode.LanguageStatusSeverity;
    this.item.command =
      state === "running" || state === "starting"
        ? { command: "sharpbits.showOutput", title: "Output" }
        : { command: "sharpbits.restart", title: "Restart" };
  }

  dispose(): void {
    this.item.dispose();
  }
}
