// Resolves the interpreter for the server (see interpreterChoice.ts for the order) and reports changes:
// the `sharpbits.interpreter` setting, the Python extension's active environment, and Workspace Trust.
// Nothing is run here: the preflight check runs what `resolve` returns, and `resolve` returns a program of the
// workspace only in a trusted workspace and only after the user allowed it (trust.ts).
// The Python extension (ms-python.python) is optional: every access to its API is guarded.
import * as fs from "node:fs";
import * as os from "node:os";
import * as vscode from "vscode";
import { chooseInterpreter, Interpreter } from "./interpreterChoice";
import { ConsentStore, confirmInterpreter } from "./trust";

const ALLOW = "Allow";
const DENY = "Use Python from PATH";

const PYTHON_EXTENSION_ID = "ms-python.python";

/** The parts of the Python extension's API we use, all optional because its shape changed over versions. */
interface PythonExtensionApi {
  environments?: {
    getActiveEnvironmentPath?(resource?: vscode.Uri): { path?: string; id?: string } | undefined;
    resolveEnvironment?(env: unknown): Promise<{ executable?: { uri?: vscode.Uri } } | undefined>;
    onDidChangeActiveEnvironmentPath?: vscode.Event<unknown>;
  };
  settings?: {
    getExecutionDetails?(resource?: vscode.Uri): { execCommand?: string[] } | undefined;
    onDidChangeExecutionDetails?: vscode.Event<unknown>;
  };
}

export class InterpreterService implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when anything that decides the interpreter changed; listeners re-resolve and restart. */
  readonly onDidChange = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [this.changed];
  private pythonApiHooked = false;
  private lastRefusal: string | undefined;
  /** Answers to "run the workspace's Python?": VS Code's storage for this workspace (answers for this session
   * only when none is given). */
  private readonly consents: ConsentStore;

  constructor(
    private readonly log: vscode.LogOutputChannel,
    workspaceState?: vscode.Memento,
  ) {
    const session = new Map<string, unknown>();
    this.consents = workspaceState ?? { get: (key) => session.get(key), update: (key, value) => void session.set(key, value) };
    this.disposables.push(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration("sharpbits.interpreter")) this.changed.fire();
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.changed.fire()),
      vscode.extensions.onDidChange(() => void this.hookPythonExtension()),
    );
  }

  async resolve(): Promise<Interpreter> {
    const folders = vscode.workspace.workspaceFolders ?? [];
    const folder = folders[0];
    const inspected = vscode.workspace.getConfiguration("sharpbits", folder?.uri).inspect<unknown>("interpreter");
    const trusted = vscode.workspace.isTrusted;
    const choice = chooseInterpreter({
      userSetting: inspected?.globalValue,
      workspaceSetting: inspected?.workspaceFolderValue ?? inspected?.workspaceValue,
      pythonExtension: trusted ? await this.fromPythonExtension(folder?.uri) : undefined,
      trusted,
      workspaceFolder: folder?.uri.fsPath,
      workspaceFolders: folders.map((f) => f.uri.fsPath),
      home: os.homedir(),
      realpath: (p) => fs.realpathSync.native(p),
    });
    const interpreter = await confirmInterpreter(choice, this.consents, (question, detail) =>
      vscode.window
        .showWarningMessage(question, { modal: true, detail }, ALLOW, DENY)
        .then((answer) => (answer === ALLOW ? true : answer === DENY ? false : undefined)),
    );
    this.log.info(`interpreter: ${interpreter.command.join(" ")} (source: ${interpreter.source}, trusted: ${trusted})`);
    if (interpreter.refused) {
      this.log.warn(`interpreter: ${interpreter.refused}`);
      if (interpreter.refused !== this.lastRefusal) {
        void vscode.window.showWarningMessage(`JAX Sharp Bits: ${interpreter.refused}; using ${interpreter.command.join(" ")} from PATH instead.`);
      }
    }
    this.lastRefusal = interpreter.refused;
    return interpreter;
  }

  private async pythonApi(): Promise<PythonExtensionApi | undefined> {
    const ext = vscode.extensions.getExtension<PythonExtensionApi>(PYTHON_EXTENSION_ID);
    if (!ext) return undefined;
    try {
      return ext.isActive ? ext.exports : await ext.activate();
    } catch (err) {
      this.log.warn(`the Python extension failed to activate: ${String(err)}`);
      return undefined;
    }
  }

  private async fromPythonExtension(resource: vscode.Uri | undefined): Promise<string | undefined> {
    const api = await this.pythonApi();
    if (!api) return undefined;
    await this.hookPythonExtension(api);
    try {
      const envs = api.environments;
      const active = envs?.getActiveEnvironmentPath?.(resource);
      if (active && envs?.resolveEnvironment) {
        const resolved = await envs.resolveEnvironment(active);
        const exe = resolved?.executable?.uri?.fsPath;
        if (exe) return exe;
      }
      const exec = api.settings?.getExecutionDetails?.(resource)?.execCommand;
      if (exec && exec.length > 0 && exec[0]) return exec[0];
    } catch (err) {
      this.log.warn(`could not ask the Python extension for its interpreter: ${String(err)}`);
    }
    return undefined;
  }

  private async hookPythonExtension(api?: PythonExtensionApi): Promise<void> {
    if (this.pythonApiHooked) return;
    const ext = vscode.extensions.getExtension(PYTHON_EXTENSION_ID);
    if (!ext || (!api && !ext.isActive)) return;
    try {
      const resolved = api ?? (ext.exports as PythonExtensionApi);
      const event = resolved?.environments?.onDidChangeActiveEnvironmentPath ?? resolved?.settings?.onDidChangeExecutionDetails;
      if (!event) return;
      this.disposables.push(
        event(() => {
          const setting = vscode.workspace.getConfiguration("sharpbits").get<unknown>("interpreter");
          const hasSetting = Array.isArray(setting) ? setting.length > 0 : typeof setting === "string" && setting !== "";
          if (!hasSetting) this.changed.fire(); // the setting wins anyway; only restart when the change matters
        }),
      );
      this.pythonApiHooked = true;
    } catch (err) {
      this.log.warn(`could not listen to the Python extension: ${String(err)}`);
    }
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
