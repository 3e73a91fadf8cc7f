// Consent before running a program the workspace chose, as a pure module (no `vscode` import, unit-tested with
// node:test); interpreter.ts wires it to a modal question and the workspace's storage.
//
// The promise (README, "Security"): in a trusted workspace, a Python the workspace chose (its own
// `sharpbits.interpreter`, a `${workspaceFolder}/...` path, the Python extension's environment inside a workspace
// folder) runs only after the user allowed exactly that command, once per workspace, as the Python and Ruff
// extensions ask; the answer is kept in VS Code's storage for the workspace, never in the workspace's files.
// Declined or dismissed: the server runs on the PATH's Python instead, and `refused` says why.
import { defaultPython, Interpreter } from "./interpreterChoice";

export type Decision = "allow" | "deny";

/** Where answers are kept (vscode.Memento: the workspace's own storage in VS Code, not a file of the workspace). */
export interface ConsentStore {
  get(key: string): unknown;
  update(key: string, value: Decision): PromiseLike<void> | void;
}

/** Asks the user; true: allow, false: use the default Python, undefined: dismissed (asked again next time). */
export type Ask = (question: string, detail: string) => PromiseLike<boolean | undefined>;

export function consentKey(command: readonly string[]): string {
  return `sharpbits.interpreterConsent:${JSON.stringify(command)}`;
}

export function consentQuestion(choice: Interpreter): { question: string; detail: string } {
  const program = choice.consent?.program ?? choice.command.join(" ");
  return {
    question: `This workspace chooses the Python that JAX Sharp Bits runs: ${program}. Run it?`,
    detail:
      `Chosen by ${choice.consent?.why ?? "the workspace"}. Running it runs a program the workspace supplied, with your ` +
      `permissions. Allow it only if you trust this repository's code. Your answer is remembered for this workspace ` +
      `and this exact command; a changed command is asked about again.`,
  };
}

/** The interpreter to run: `choice` itself when it needs no consent or the user allowed it (now or before),
 * else the PATH's Python with `refused` saying why. Asks at most once per command and workspace. */
export async function confirmInterpreter(
  choice: Interpreter,
  store: ConsentStore,
  ask: Ask,
  platform?: NodeJS.Platform,
): Promise<Interpreter> {
  if (!choice.consent) return choice;
  const key = consentKey(choice.command);
  const stored = store.get(key);
  let decision: Decision | undefined = stored === "allow" || stored === "deny" ? stored : undefined;
  if (decision === undefined) {
    const { question, detail } = consentQuestion(choice);
    const answer = await ask(question, detail);
    if (answer !== undefined) {
      decision = answer ? "allow" : "deny";
      await store.update(key, decision);
    }
  }
  if (decision === "allow") return { command: choice.command, source: choice.source };
  const why = decision === "deny" ? "you chose not to run it in this workspace" : "it was not allowed";
  return {
    command: [defaultPython(platform)],
    source: "path",
    refused: `the workspace's choice of Python (${choice.consent.program}) is not run: ${why}`,
  };
}
