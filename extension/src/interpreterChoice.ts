// Which Python runs the language server, as a pure function (no `vscode` import, unit-tested with node:test).
// Order: the `sharpbits.interpreter` setting, else the Python extension's active environment, else `python3`
// (`python` on Windows) on PATH. In an untrusted workspace only the user-level setting counts and the Python
// extension is skipped: both could point at an interpreter inside the workspace, i.e. run its code.

export type InterpreterSource = "setting" | "python-extension" | "path";

export interface Interpreter {
  /** Executable followed by any extra arguments, e.g. ["/venv/bin/python"] or ["py", "-3.12"]. */
  command: string[];
  source: InterpreterSource;
}

export interface InterpreterInputs {
  /** `sharpbits.interpreter` as the user wrote it at user level (string or array; empty means unset). */
  userSetting?: unknown;
  /** The same setting's workspace / folder value; ignored when the workspace is not trusted. */
  workspaceSetting?: unknown;
  /** Executable path reported by the Python extension, when it is installed and has one. */
  pythonExtension?: string;
  trusted: boolean;
  platform?: NodeJS.Platform;
  workspaceFolder?: string;
  home?: string;
}

/** Normalises a setting value (string or string[]) into a command list; undefined when unset or malformed. */
export function settingToCommand(value: unknown, vars: { workspaceFolder?: string; home?: string } = {}): string[] | undefined {
  let parts: unknown[];
  if (typeof value === "string") parts = [value];
  else if (Array.isArray(value)) parts = value;
  else return undefined;
  const out: string[] = [];
  for (const part of parts) {
    if (typeof part !== "string") return undefined;
    const trimmed = part.trim();
    if (trimmed === "") continue;
    out.push(expandVariables(trimmed, vars));
  }
  return out.length > 0 ? out : undefined;
}

/** Expands `${workspaceFolder}`, `${userHome}` and a leading `~/`. Unknown variables stay as written. */
export function expandVariables(text: string, vars: { workspaceFolder?: string; home?: string }): string {
  let result = text;
  if (vars.home !== undefined) {
    if (result === "~") result = vars.home;
    else if (result.startsWith("~/")) result = vars.home + result.slice(1);
    result = result.split("${userHome}").join(vars.home);
  }
  if (vars.workspaceFolder !== undefined) {
    result = result.split("${workspaceFolder}").join(vars.workspaceFolder);
  }
  return result;
}

export function defaultPython(platform: NodeJS.Platform = process.platform): string {
  return platform === "win32" ? "python" : "python3";
}

export function chooseInterpreter(inputs: InterpreterInputs): Interpreter {
  const vars = { workspaceFolder: inputs.workspaceFolder, home: inputs.home };
  if (inputs.trusted) {
    const fromWorkspace = settingToCommand(inputs.workspaceSetting, vars);
    if (fromWorkspace) return { command: fromWorkspace, source: "setting" };
  }
  const fromUser = settingToCommand(inputs.userSetting, vars);
  if (fromUser) return { command: fromUser, source: "setting" };
  if (inputs.trusted && inputs.pythonExtension && inputs.pythonExtension.trim() !== "") {
    return { command: [inputs.pythonExtension], source: "python-extension" };
  }
  return { command: [defaultPython(inputs.platform)], source: "path" };
}

export function describeInterpreter(interpreter: Interpreter): string {
  const how = { setting: "from sharpbits.interpreter", "python-extension": "from the Python extension", path: "from PATH" }[
    interpreter.source
  ];
  return `${interpreter.command.join(" ")} (${how})`;
}
