// What the trace worker status item says (pure: unit-tested without VS Code).
import { interpreterProblem } from "./inputs";
import type { ErrorInfo, WorkerStatus } from "./protocol.generated";

export type { WorkerStatus } from "./protocol.generated";

/** What the item says, and which command it offers: restarting the worker helps a crashed or stuck worker, never
 * an interpreter without JAX (that needs another interpreter). `serverRunning: false`: the language server is not
 * running, so nothing is known about tracing (it is not "off"). */
export function describeWorker(
  status: WorkerStatus | undefined,
  trusted: boolean,
  serverRunning = true,
): { text: string; busy: boolean; error: boolean; action?: "restartWorker" | "selectInterpreter" | "restartServer" } {
  if (!trusted) return { text: "tracing off: untrusted workspace", busy: false, error: false };
  if (!serverRunning) return { text: "tracing unavailable: the server is not running", busy: false, error: true, action: "restartServer" };
  if (!status) return { text: "tracing unavailable: the server did not answer", busy: false, error: true, action: "restartServer" };
  if (status.enabled === false) return { text: "tracing off (sharpbits.trace.enabled)", busy: false, error: false };
  const device = status.device ? `${status.device.device_kind ?? "?"} (${status.device.platform ?? "?"})` : "";
  switch (status.state) {
    case "starting":
      return { text: "trace worker starting…", busy: true, error: false };
    case "ready":
      return { text: `trace worker ready on ${device}`, busy: false, error: false, action: "restartWorker" };
    case "busy":
      return { text: `tracing on ${device}…`, busy: true, error: false };
    case "stopped":
      return { text: "tracing on: the worker starts at the first trace", busy: false, error: false };
    default:
      return {
        text: `trace worker ${status.state ?? "unknown"}${status.error?.type ? `: ${status.error.type}` : ""}`,
        busy: false,
        error: true,
        action: interpreterProblem(status.error) ? "selectInterpreter" : "restartWorker",
      };
  }
}


/** What a failed or refused trace says to the user (`what`: "Tracing f", "No jaxpr for f"). A refusal (untrusted
 * workspace, tracing off) is the server's own sentence, not a failure of the traced code. */
export function traceProblem(
  what: string,
  result: { refused?: boolean; error?: ErrorInfo | null } | undefined,
): string {
  const error = result?.error ?? {};
  const first = String(error.message ?? "").split("\n")[0];
  if (result?.refused) return `JAX Sharp Bits: ${first}`;
  return `${what}: ${error.type ?? "error"}: ${first}`;
}
