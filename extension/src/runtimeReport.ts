// What "Run with sharpbits" says when a run ends (pure: unit-tested without VS Code). The findings themselves are
// diagnostics the server publishes ("seen at runtime"); this is the one line about the run.
import type { RunCommandResult } from "./tracing/protocol.generated";

export interface RunMessage {
  level: "info" | "warning";
  text: string;
}

/** `name`: the file (or command) that ran. */
export function describeRun(name: string, result: RunCommandResult | undefined): RunMessage {
  if (!result) return { level: "warning", text: `Run with sharpbits: no reply for ${name}` };
  const first = String(result.error?.message ?? "").split("\n")[0];
  if (result.refused) return { level: "warning", text: `JAX Sharp Bits: ${first}` };
  if (!result.ok) {
    const what = result.error?.type ?? "error";
    const seen = result.summary ? ` (${result.summary})` : "";
    return { level: "warning", text: `Run with sharpbits: ${name}: ${what}: ${first}${seen}` };
  }
  const notes = (result.notes ?? []).length ? ` · ${(result.notes ?? []).length} note(s) in the output` : "";
  const text = `Run with sharpbits: ${name}: ${result.summary ?? `${result.findings ?? 0} runtime findings`}${notes}`;
  return { level: (result.findings ?? 0) > 0 || (result.exitCode ?? 0) !== 0 ? "warning" : "info", text };
}

/** The arguments of the server command for a file: the configured command (with `${file}` in it), if any. */
export function runArguments(
  uri: string,
  command: readonly string[] | undefined,
  timeoutSeconds: number | undefined,
): { uri: string; command?: string[]; timeout?: number } {
  return {
    uri,
    ...(command && command.length ? { command: [...command] } : {}),
    ...(timeoutSeconds && timeoutSeconds > 0 ? { timeout: timeoutSeconds } : {}),
  };
}
