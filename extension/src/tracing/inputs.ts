// Where a trace's example inputs come from, as the editor decides it (pure: no `vscode` import, unit-tested):
// the `# sharpbits: trace(...)` directive above the def always wins; an input the user typed is remembered and
// used only for a function without a directive; the prompt is prefilled from the directive, the last input that
// traced, or the signature. Which failures were caused by the inputs (so "Edit inputs" is offered).
import type { ErrorInfo } from "./protocol.generated";

const DIRECTIVE = /#\s*sharpbits:\s*trace\s*\((.*)\)\s*$/;

/** Where the def of `fn` (a name or `Class.method`) starts, 0-based, at or after `hint` (0-based) if given. */
export function defLine(lines: string[], fn: string, hint?: number): number | undefined {
  const name = fn.split(".").pop()!;
  const re = new RegExp(`^\\s*(async\\s+)?def\\s+${name.replace(/[^\w]/g, "")}\\s*\\(`);
  if (hint !== undefined && hint >= 0 && hint < lines.length && re.test(lines[hint])) return hint;
  const found = lines.findIndex((l) => re.test(l));
  return found >= 0 ? found : undefined;
}

/** The first line (0-based) of the def's decorators (the def line itself when it has none). */
export function firstDecoratorLine(lines: string[], def: number): number {
  let first = def;
  let depth = 0; // walking up: unclosed brackets of a decorator that spans lines
  for (let i = def - 1; i >= 0; i--) {
    const s = lines[i].trim();
    const net = (s.match(/[)\]}]/g)?.length ?? 0) - (s.match(/[([{]/g)?.length ?? 0);
    if (s.startsWith("@")) {
      depth = Math.max(0, depth + net);
      if (depth === 0) first = i;
    } else if (depth > 0 || net > 0) {
      depth += net; // a continuation line of a decorator's arguments
    } else {
      break;
    }
  }
  return first;
}

/** The `# sharpbits: trace(...)` spec above the def (above its decorators, or between them and the def), as the
 * server reads it (sharpbits.trace.specs.directive_for): its text and 0-based line. */
export function directiveFor(lines: string[], def: number): { spec: string; line: number } | undefined {
  const first = firstDecoratorLine(lines, def);
  for (let i = def - 1; i >= first; i--) {
    const m = DIRECTIVE.exec(lines[i].trim());
    if (m) return { spec: m[1], line: i };
  }
  for (let i = first - 1; i >= 0; i--) {
    const s = lines[i].trim();
    if (!s.startsWith("#")) break;
    const m = DIRECTIVE.exec(s);
    if (m) return { spec: m[1], line: i };
  }
  return undefined;
}

export interface Parameter {
  name: string;
  annotation?: string;
  hasDefault: boolean;
}

/** The parameters of the def starting at `def` (0-based), read from its text (up to the closing parenthesis). */
export function parameters(lines: string[], def: number): Parameter[] {
  let text = "";
  let depth = 0;
  let started = false;
  outer: for (let i = def; i < lines.length && i < def + 40; i++) {
    const line = lines[i].replace(/#.*$/, "");
    for (const ch of line) {
      if (ch === "(" || ch === "[" || ch === "{") {
        depth++;
        if (!started && ch === "(") {
          started = true;
          continue;
        }
      } else if (ch === ")" || ch === "]" || ch === "}") {
        depth--;
        if (started && depth === 0) break outer;
      }
      if (started) text += ch;
    }
    if (started) text += " ";
  }
  const parts: string[] = [];
  let current = "";
  depth = 0;
  for (const ch of text) {
    if ("([{".includes(ch)) depth++;
    if (")]}".includes(ch)) depth--;
    if (ch === "," && depth === 0) {
      parts.push(current);
      current = "";
    } else current += ch;
  }
  parts.push(current);
  const out: Parameter[] = [];
  for (const raw of parts.map((p) => p.trim()).filter(Boolean)) {
    if (raw === "/" || raw === "*" || raw.startsWith("*")) continue;
    const [head, ...rest] = raw.split("=");
    const [name, ...ann] = head.split(":");
    out.push({ name: name.trim(), annotation: ann.join(":").trim() || undefined, hasDefault: rest.length > 0 });
  }
  return out.filter((p) => p.name !== "self" && p.name !== "cls");
}

/** An example value for one parameter from its annotation (`int` -> 3, `Float[Array, "n"]` -> f32[8]). */
function exampleFor(p: Parameter): string {
  const a = p.annotation ?? "";
  if (/^int$/.test(a)) return "3";
  if (/^float$/.test(a)) return "1.0";
  if (/^bool$/.test(a)) return "True";
  if (/Key|PRNG/i.test(a) || /^key$|_key$|^rng$/.test(p.name)) return "key";
  if (/^Int/.test(a)) return "i32[8]";
  if (/^Bool/.test(a)) return "bool[8]";
  return "f32[8]";
}

/** A first guess at the inputs from the signature: every parameter without a default. */
export function specFromSignature(params: Parameter[]): string {
  return params.filter((p) => !p.hasDefault).map((p) => `${p.name}=${exampleFor(p)}`).join(", ");
}

export type InputSource = "directive" | "remembered" | "none";

/** What a trace of a function sends: the directive (the server reads it: nothing is sent), else the remembered
 * input, else nothing (the server reads the annotations, or asks for inputs). */
export function chooseInputs(directive: string | undefined, remembered: string | undefined): { args?: string; source: InputSource } {
  if (directive !== undefined) return { source: "directive" };
  if (remembered) return { args: remembered, source: "remembered" };
  return { source: "none" };
}

/** The prompt's first value: the directive, the last input that traced, else the signature's guess. */
export function prefill(directive: string | undefined, lastGood: string | undefined, signature: string): string {
  return directive ?? lastGood ?? signature;
}

/** The prompt's sentence, in the editor's words (the server's "pass --args" is for the command line). */
export function promptText(fn: string, params: Parameter[], _why?: string): string {
  const names = params.filter((p) => !p.hasDefault).map((p) => p.name);
  const lead = `${fn} needs example inputs${names.length ? ` for ${names.join(", ")}` : ""}. `;
  return `${lead}Arrays as dtype[shape] (x=f32[1000,10], n=i32[]), key=key for a PRNG key, plain values (steps=10) are static. ` +
    "Add a # sharpbits: trace(...) comment above the def to keep them with the code.";
}

/** Whether a failed trace was caused by its inputs (wrong shapes, a malformed spec, none given). */
export function isInputFailure(error: ErrorInfo | null | undefined): boolean {
  if (!error) return false;
  if (error.type === "SpecNeeded" || error.type === "SpecError") return true;
  if (error.phase === "arguments") return true;
  if (error.phase === "trace" && /^(TypeError|ValueError|IndexError)$/.test(error.type ?? "")) return true;
  return /\bspec\b|argument spec|example input/i.test(error.message ?? "");
}

/** Whether a failure says the trace interpreter has no JAX. */
export function jaxMissing(error: ErrorInfo | null | undefined): boolean {
  if (!error) return false;
  const text = `${error.message ?? ""} ${error.hint ?? ""} ${error.stderr_tail ?? ""} ${error.cause ?? ""}`;
  return /No module named '?jax'?|jax is not installed|JAX is not installed|cannot import jax|import jax/i.test(text);
}

/** Whether a failure is of the worker's interpreter (it did not start), which restarting the worker cannot fix. */
export function interpreterProblem(error: ErrorInfo | null | undefined): boolean {
  return error?.type === "WorkerStartError" || jaxMissing(error);
}

export const ACTIONS = {
  editInputs: "Edit inputs",
  retry: "Retry",
  selectInterpreter: "Select interpreter",
  copyPip: "Copy `pip install jax`",
  openSettings: "Open settings",
  showOutput: "Show output",
} as const;
export const PIP_INSTALL_JAX = "pip install jax";

/** The actions a failed trace offers, most useful first (pure). */
export function failureActions(error: ErrorInfo | null | undefined): string[] {
  if (jaxMissing(error)) return [ACTIONS.copyPip, ACTIONS.selectInterpreter, ACTIONS.openSettings];
  if (interpreterProblem(error)) return [ACTIONS.selectInterpreter, ACTIONS.openSettings, ACTIONS.showOutput];
  if (isInputFailure(error)) return [ACTIONS.editInputs, ACTIONS.retry, ACTIONS.showOutput];
  if (error?.type === "Timeout") return [ACTIONS.retry, ACTIONS.openSettings, ACTIONS.showOutput];
  return [ACTIONS.retry, ACTIONS.editInputs, ACTIONS.showOutput];
}

/** Whether an error is a cancelled request (vscode-languageclient rejects with code -32800, RequestCancelled). */
export function isCancellation(err: unknown): boolean {
  const e = err as { code?: number; name?: string; message?: string } | undefined;
  return e?.code === -32800 || e?.name === "Canceled" || /is canceled|cancelled/i.test(e?.message ?? "");
}

