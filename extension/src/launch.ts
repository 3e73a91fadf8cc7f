// How the extension starts Python (pure: no `vscode` import, unit-tested, and the unit tests start the real
// server with exactly these command lines). Neither the server nor the preflight check may import anything from
// the workspace: opening a folder must never run its code, trusted or not.
//
// - A neutral working directory (the extension's own storage folder), never the workspace: `-m` and `-c` put
//   the working directory first on sys.path, so `python -m sharpbits serve` started in a repository holding a
//   json.py ran that file.
// - `-E`: PYTHONPATH (and every other PYTHON* variable) is ignored by the server's interpreter. The variables stay
//   in the environment, so the trace worker, which runs the user's code on purpose, still sees their PYTHONPATH.
// - `-P` (Python 3.11+): the working directory is not put on sys.path at all. Python 3.10 has no -P; there the
//   neutral directory is the wall, and sharpbits/__main__.py takes the directory off sys.path a second time.
// Not `-I`: it also drops the user's site-packages, and `pip install` falls back to a user install when the
// interpreter's site-packages is not writable, so the install command we offer would never satisfy the check.
import { PREFLIGHT_SCRIPT } from "./installCommand";

export interface Launch {
  command: string;
  args: string[];
  /** the working directory: never the workspace */
  cwd: string;
}

/** The isolation flags for an interpreter of this version ([major, minor]; unknown: the ones every version has). */
export function isolationFlags(pythonVersion?: readonly number[]): string[] {
  const [major, minor] = pythonVersion ?? [];
  const hasSafePath = major !== undefined && minor !== undefined && (major > 3 || (major === 3 && minor >= 11));
  return hasSafePath ? ["-E", "-P"] : ["-E"];
}

function split(python: readonly string[]): { command: string; rest: string[] } {
  const [command, ...rest] = python;
  return { command, rest };
}

/** `<python> -E -c PREFLIGHT_SCRIPT` in the neutral directory (the script itself clears sys.path[0]). */
export function preflightLaunch(python: readonly string[], neutralDir: string): Launch {
  const { command, rest } = split(python);
  return { command, args: [...rest, ...isolationFlags(), "-c", PREFLIGHT_SCRIPT], cwd: neutralDir };
}

/** `<python> -E [-P] -m sharpbits serve` in the neutral directory. */
export function serverLaunch(python: readonly string[], pythonVersion: readonly number[] | undefined, neutralDir: string): Launch {
  const { command, rest } = split(python);
  return { command, args: [...rest, ...isolationFlags(pythonVersion), "-m", "sharpbits", "serve"], cwd: neutralDir };
}
