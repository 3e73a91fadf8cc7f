// The preflight check and the exact install command it offers, as pure functions (no `vscode` import).

/** Packages the server needs importable in the chosen interpreter. */
export const REQUIRED_MODULES = ["sharpbits", "pygls", "libcst"] as const;

/**
 * Python source for `<python> -c ...`: imports each required module and prints a JSON object
 * `{"missing": [...], "version": "<sharpbits version or null>", "python": "<sys.executable>", "pythonVersion": [3, 11]}`.
 * Its first line takes the working directory ("" for `-c`) off sys.path before anything is imported, so the
 * check finds what the server will find and never a module of the folder it was started in (see launch.ts).
 */
export const PREFLIGHT_SCRIPT = [
  "import sys",
  "sys.path[:] = [p for p in sys.path if p not in ('', '.')]",
  "import importlib, json",
  "missing, version = [], None",
  `for name in ${JSON.stringify(REQUIRED_MODULES)}:`,
  "    try:",
  "        module = importlib.import_module(name)",
  "    except Exception:",
  "        missing.append(name)",
  "    else:",
  "        version = getattr(module, '__version__', None) if name == 'sharpbits' else version",
  "print(json.dumps({'missing': missing, 'version': version, 'python': sys.executable, 'pythonVersion': list(sys.version_info[:2])}))",
].join("\n");

export interface PreflightResult {
  missing: string[];
  version: string | null;
  python: string | null;
  /** [major, minor] of the interpreter, when the script reported it */
  pythonVersion?: [number, number];
}

/** Parses the script's last stdout line; throws when it is not the expected JSON. */
export function parsePreflightOutput(stdout: string): PreflightResult {
  const lines = stdout.trim().split(/\r?\n/);
  const data: unknown = JSON.parse(lines[lines.length - 1] ?? "");
  if (typeof data !== "object" || data === null || !Array.isArray((data as { missing?: unknown }).missing)) {
    throw new Error(`unexpected preflight output: ${stdout.slice(0, 200)}`);
  }
  const d = data as { missing: unknown[]; version?: unknown; python?: unknown; pythonVersion?: unknown };
  const result: PreflightResult = {
    missing: d.missing.map(String),
    version: typeof d.version === "string" ? d.version : null,
    python: typeof d.python === "string" ? d.python : null,
  };
  const v = d.pythonVersion;
  if (Array.isArray(v) && v.length === 2 && v.every((n) => Number.isInteger(n))) result.pythonVersion = [v[0], v[1]];
  return result;
}

/** Quotes one argument for the user's shell: POSIX sh, or PowerShell on Windows. */
export function shellQuote(arg: string, platform: NodeJS.Platform = process.platform): string {
  if (platform === "win32") {
    return /^[\w.:\\/-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, "''")}'`;
  }
  return /^[\w.,:/@%+=-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/**
 * `<python> -m pip install <wheel>`: the bundled wheel when the extension ships one, else the package name.
 * On Windows the command is prefixed with PowerShell's call operator so a quoted executable runs.
 */
export function installCommand(python: string[], wheel: string | undefined, platform: NodeJS.Platform = process.platform): string {
  const args = [...python, "-m", "pip", "install", wheel ?? "sharpbits"].map((a) => shellQuote(a, platform));
  const line = args.join(" ");
  return platform === "win32" && args[0].startsWith("'") ? `& ${line}` : line;
}

/** Picks the wheel to offer from a directory listing: the highest sharpbits version, py3-none-any only. */
export function pickWheel(fileNames: string[]): string | undefined {
  const wheels = fileNames.filter((f) => /^sharpbits-[^-]+-py3-none-any\.whl$/.test(f));
  const version = (f: string) => f.split("-")[1].split(".").map((p) => Number.parseInt(p, 10) || 0);
  wheels.sort((a, b) => {
    const va = version(a);
    const vb = version(b);
    for (let i = 0; i < Math.max(va.length, vb.length); i++) {
      const d = (va[i] ?? 0) - (vb[i] ?? 0);
      if (d !== 0) return d;
    }
    return 0;
  });
  return wheels[wheels.length - 1];
}

/** The error message shown when the interpreter lacks packages. */
export function missingPackagesMessage(python: string[], missing: string[]): string {
  const list = missing.length === 1 ? missing[0] : `${missing.slice(0, -1).join(", ")} and ${missing[missing.length - 1]}`;
  const verb = missing.length === 1 ? "is" : "are";
  return `JAX Sharp Bits: ${list} ${verb} not installed in ${python.join(" ")}. Install into that interpreter, or pick another one in the setting sharpbits.interpreter.`;
}
