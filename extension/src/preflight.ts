// Before starting the server: can the chosen interpreter import sharpbits, pygls and libcst?
// If not, an error message names the interpreter and the missing packages and offers the exact install
// command (the wheel bundled in the .vsix), which it runs in a terminal and copies to the clipboard.
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import { installCommand, missingPackagesMessage, parsePreflightOutput, pickWheel, PreflightResult } from "./installCommand";
import { preflightLaunch } from "./launch";

export type PreflightOutcome = { ok: true; result: PreflightResult } | { ok: false; reason: string };

const INSTALL_BUTTON = "Install in Terminal (and copy command)";
const OUTPUT_BUTTON = "Show Output";

export function bundledWheel(extensionPath: string): string | undefined {
  const dir = path.join(extensionPath, "extension", "bundled");
  try {
    const wheel = pickWheel(fs.readdirSync(dir));
    return wheel ? path.join(dir, wheel) : undefined;
  } catch {
    return undefined;
  }
}

function runPreflight(python: string[], neutralDir: string): Promise<PreflightResult> {
  const { command, args, cwd } = preflightLaunch(python, neutralDir);
  return new Promise((resolve, reject) => {
    execFile(command, args, { timeout: 30_000, cwd }, (error, stdout, stderr) => {
      if (error) {
        const code = (error as NodeJS.ErrnoException).code;
        reject(new Error(code === "ENOENT" ? `${command} was not found` : `${command} failed: ${stderr.trim() || error.message}`));
        return;
      }
      try {
        resolve(parsePreflightOutput(stdout));
      } catch (err) {
        reject(err);
      }
    });
  });
}

export class Preflight {
  private installTerminal: vscode.Terminal | undefined;

  constructor(
    private readonly extensionPath: string,
    /** The check's working directory: a folder of the extension's own, never the workspace (see launch.ts). */
    private readonly neutralDir: string,
    private readonly log: vscode.LogOutputChannel,
    /** Called after the install terminal closes, so the server can start with the new packages. */
    private readonly afterInstall: () => void,
  ) {}

  async check(python: string[]): Promise<PreflightOutcome> {
    let result: PreflightResult;
    try {
      result = await runPreflight(python, this.neutralDir);
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      this.log.error(`preflight: ${reason}`);
      void this.offerSetting(`JAX Sharp Bits: cannot run the Python interpreter: ${reason}.`);
      return { ok: false, reason };
    }
    this.log.info(`preflight: ${result.python ?? python[0]} sharpbits=${result.version ?? "-"} missing=[${result.missing.join(", ")}]`);
    if (result.missing.length === 0) return { ok: true, result };
    void this.offerInstall(python, result.missing);
    return { ok: false, reason: `missing ${result.missing.join(", ")}` };
  }

  private async offerSetting(message: string): Promise<void> {
    const choice = await vscode.window.showErrorMessage(message, "Open Settings", OUTPUT_BUTTON);
    if (choice === "Open Settings") await vscode.commands.executeCommand("workbench.action.openSettings", "sharpbits.interpreter");
    if (choice === OUTPUT_BUTTON) this.log.show();
  }

  private async offerInstall(python: string[], missing: string[]): Promise<void> {
    const command = installCommand(python, bundledWheel(this.extensionPath));
    this.log.info(`install command: ${command}`);
    const choice = await vscode.window.showErrorMessage(`${missingPackagesMessage(python, missing)} Command: ${command}`, INSTALL_BUTTON, OUTPUT_BUTTON);
    if (choice === OUTPUT_BUTTON) this.log.show();
    if (choice !== INSTALL_BUTTON) return;
    await vscode.env.clipboard.writeText(command);
    this.installTerminal?.dispose();
    const terminal = vscode.window.createTerminal({ name: "JAX Sharp Bits: install" });
    this.installTerminal = terminal;
    const sub = vscode.window.onDidCloseTerminal((closed) => {
      if (closed !== terminal) return;
      sub.dispose();
      this.afterInstall();
    });
    terminal.show();
    terminal.sendText(command, true);
    void vscode.window.showInformationMessage("JAX Sharp Bits: install command copied. Run “JAX Sharp Bits: Restart Server” when it finishes.");
  }
}
