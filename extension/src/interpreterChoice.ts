// Which Python runs the language server, as a pure function (no `vscode` import, unit-tested with node:test).
// Order: the `sharpbits.interpreter` setting, else the Python extension's active environment, else `python3`
// (`python` on Windows) on PATH.
// Untrusted workspace (Restricted Mode): only the user-level setting counts and the Python extension is skipped
// (both could name a program inside the workspace), and even the user-level setting is refused when it would run
// something inside a workspace folder: `${workspaceFolder}` is not expanded there, and a path (after `~` and
// `${userHome}`, and through symlinks when `realpath` is given) under a workspace folder is refused; the server
// then runs on the PATH's Python and `refused` says why.
// Trusted workspace: a program the workspace chose (its own `sharpbits.interpreter`, or any command that runs a
// file inside a workspace folder, such as the Python extension's `.venv`) needs the user's consent first:
// `consent` says what to ask (trust.ts asks once and remembers the answer).

export type InterpreterSource = "setting" | "python-extension" | "path";

export interface Interpreter {
  /** Executable followed by any extra arguments, e.g. ["/venv/bin/python"] or ["py", "-3.12"]. */
  command: string[];
  source: InterpreterSource;
  /** Set when the user's choice was not used because it would run a program inside an untrusted workspace. */
  refused?: string;
  /** Set when the command is one the workspace chose: it runs only after the user allowed it (trust.ts). */
  consent?: { program: string; why: string };
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
  /** The first workspace folder: what `${workspaceFolder}` expands to (trusted workspaces only). */
  workspaceFolder?: string;
  /** Every workspace folder (defaults to `workspaceFolder`): no program inside them runs without trust/consent. */
  workspaceFolders?: string[];
  home?: string;
  /** Resolves symlinks (fs.realpathSync); a path that does not resolve is compared as written. */
  realpath?: (path: string) => string;
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

function isAbsolute(p: string): boolean {
  return p.startsWith("/") || /^[A-Za-z]:[\\/]/.test(p) || p.startsWith("\\\\");
}

function normalise(p: string, platform: NodeJS.Platform | undefined): string {
  const windows = (platform ?? process.platform) === "win32" || /^[A-Za-z]:[\\/]/.test(p);
  const parts: string[] = [];
  for (const part of (windows ? p.replace(/\\/g, "/") : p).split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") parts.pop();
    else parts.push(windows ? part.toLowerCase() : part);
  }
  return "/" + parts.join("/");
}

/** The workspace folder `path` lies in (lexically, or once symlinks are resolved), if any. Relative paths are
 * not inside: every program we start runs in a neutral folder of the extension's own, never the workspace. */
export function insideWorkspace(
  path: string,
  folders: readonly string[],
  options: { realpath?: (p: string) => string; platform?: NodeJS.Platform } = {},
): string | undefined {
  if (!isAbsolute(path)) return undefined;
  const candidates = [path];
  if (options.realpath) {
    try {
      candidates.push(options.realpath(path));
    } catch {
      // does not exist (yet): the path as written is what would run
    }
  }
  for (const folder of folders) {
    const roots = [folder];
    if (options.realpath) {
      try {
        roots.push(options.realpath(folder));
      } catch {
        // a folder that does not resolve is compared as written
      }
    }
    for (const candidate of candidates) {
      const c = normalise(candidate, options.platform);
      for (const root of roots) {
        const r = normalise(root, options.platform);
        if (c === r || c.startsWith(r === "/" ? "/" : r + "/")) return folder;
      }
    }
  }
  return undefined;
}

/** Why `command` would run something inside a workspace folder (undefined when it would not). */
export function workspaceProgram(command: readonly string[], inputs: InterpreterInputs): string | undefined {
  const folders = inputs.workspaceFolders ?? (inputs.workspaceFolder ? [inputs.workspaceFolder] : []);
  for (const part of command) {
    const folder = insideWorkspace(part, folders, { realpath: inputs.realpath, platform: inputs.platform });
    if (folder !== undefined) return `${part} is inside the workspace folder ${folder}`;
  }
  return undefined;
}

export function chooseInterpreter(inputs: InterpreterInputs): Interpreter {
  const fallback = { command: [defaultPython(inputs.platform)], source: "path" as const };
  if (!inputs.trusted) {
    // Restricted Mode: `${workspaceFolder}` is not expanded, and nothing inside a workspace folder runs
    const raw = settingToCommand(inputs.userSetting, {});
    if (raw && raw.some((part) => part.includes("${workspaceFolder}"))) {
      return { ...fallback, refused: `sharpbits.interpreter (${raw.join(" ")}) names the workspace folder, which is not trusted` };
    }
    const fromUser = settingToCommand(inputs.userSetting, { home: inputs.home });
    if (fromUser) {
      const inside = workspaceProgram(fromUser, inputs);
      if (inside) return { ...fallback, refused: `sharpbits.interpreter would run a program of the untrusted workspace: ${inside}` };
      return { command: fromUser, source: "setting" };
    }
    return fallback;
  }
  const vars = { workspaceFolder: inputs.workspaceFolder, home: inputs.home };
  const fromWorkspace = settingToCommand(inputs.workspaceSetting, vars);
  if (fromWorkspace) {
    return { command: fromWorkspace, source: "setting", consent: { program: fromWorkspace.join(" "), why: "the workspace's sharpbits.interpreter setting" } };
  }
  const fromUser = settingToCommand(inputs.userSetting, vars);
  if (fromUser) {
    const inside = workspaceProgram(fromUser, inputs);
    return inside ? { command: fromUser, source: "setting", consent: { program: fromUser.join(" "), why: inside } } : { command: fromUser, source: "setting" };
  }
  if (inputs.pythonExtension && inputs.pythonExtension.trim() !== "") {
    const command = [inputs.pythonExtension];
    const inside = workspaceProgram(command, inputs);
    return inside
      ? { command, source: "python-extension", consent: { program: inputs.pythonExtension, why: `the Python extension's environment: ${inside}` } }
      : { command, source: "python-extension" };
  }
  return fallback;
}

export function describeInterpreter(interpreter: Interpreter): string {
  const how = { setting: "from sharpbits.interpreter", "python-extension": "from the Python extension", path: "from PATH" }[
    interpreter.source
  ];
  return `${interpreter.command.join(" ")} (${how})`;
}
