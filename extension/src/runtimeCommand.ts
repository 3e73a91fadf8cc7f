// The command "Run with sharpbits": runs the active Python file (or the configured `sharpbits.run.command`) under
// `sharpbits run` on the server, which shows the findings as diagnostics tagged "seen at runtime". Trusted
// workspaces only (the server refuses too), through the trace settings' interpreter and launch prefix.
import * as path from "node:path";
import * as vscode from "vscode";
import { describeRun, runArguments } from "./runtimeReport";
import type { RunCommandArgs, RunCommandResult } from "./tracing/protocol.generated";
import type { ProtocolClient } from "./tracing/traceCommand";

export const RUN_FILE_COMMAND = "sharpbits.runFileWithSharpbits";

export class RunCommands {
  private readonly output: vscode.OutputChannel;

  constructor(
    private readonly server: ProtocolClient,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.output = vscode.window.createOutputChannel("JAX Sharp Bits: Run");
  }

  dispose(): void {
    this.output.dispose();
  }

  async run(target?: vscode.Uri): Promise<void> {
    if (!vscode.workspace.isTrusted) {
      void vscode.window.showWarningMessage(
        "JAX Sharp Bits: Run with sharpbits runs this workspace's code; trust the workspace to run it.",
      );
      return;
    }
    const uri = target instanceof vscode.Uri ? target : vscode.window.activeTextEditor?.document.uri;
    if (!uri || uri.scheme !== "file") {
      void vscode.window.showWarningMessage("JAX Sharp Bits: open a Python file to run it with sharpbits.");
      return;
    }
    // the run reads the file on disk: what the editor shows is what runs
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (open?.isDirty && !(await open.save())) return;
    const config = vscode.workspace.getConfiguration("sharpbits", uri);
    const args: RunCommandArgs = runArguments(
      uri.toString(),
      config.get<string[]>("run.command"),
      config.get<number>("run.timeoutSeconds"),
    );
    const name = path.basename(uri.fsPath);
    let result: RunCommandResult | undefined;
    try {
      result = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `Running ${name} with sharpbits…`, cancellable: true },
        (_progress, token) => this.server.executeCommand("sharpbits.runWithSharpbits", args, token),
      );
    } catch (error) {
      const text = `Run with sharpbits: ${name}: ${error instanceof Error ? error.message : String(error)}`;
      this.log.warn(text);
      void vscode.window.showWarningMessage(text);
      return;
    }
    if (result?.output) {
      this.output.clear();
      this.output.append(result.output);
    }
    const message = describeRun(name, result);
    this.log.info(message.text);
    const show = message.level === "info" ? vscode.window.showInformationMessage : vscode.window.showWarningMessage;
    void show(message.text, "Show Output").then((choice) => {
      if (choice) this.output.show(true);
    });
  }
}
