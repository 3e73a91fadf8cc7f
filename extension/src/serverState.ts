// Server state and how the language status item shows it, as pure functions (no `vscode` import).

export type ServerState = "starting" | "running" | "stopped" | "error";

export interface StatusView {
  text: string;
  detail: string;
  /** Matches vscode.LanguageStatusSeverity: 0 Information, 1 Warning, 2 Error. */
  severity: 0 | 1 | 2;
  busy: boolean;
}

export function statusView(state: ServerState, interpreter: string | undefined, reason?: string): StatusView {
  const python = interpreter ? `Python: ${interpreter}` : "Python: not chosen yet";
  switch (state) {
    case "starting":
      return { text: "JAX Sharp Bits: starting", detail: python, severity: 0, busy: true };
    case "running":
      // reason: the server restarted by itself after it stopped unexpectedly (said, not silent)
      return reason
        ? { text: "JAX Sharp Bits: running (restarted)", detail: `${reason} · ${python}`, severity: 1, busy: false }
        : { text: "JAX Sharp Bits: running", detail: python, severity: 0, busy: false };
    case "stopped":
      return { text: "JAX Sharp Bits: stopped", detail: reason ? `${reason} · ${python}` : python, severity: 1, busy: false };
    case "error":
      return { text: "JAX Sharp Bits: error", detail: reason ? `${reason} · ${python}` : python, severity: 2, busy: false };
  }
}

/** vscode-languageclient's State enum values: Stopped = 1, Starting = 3, Running = 2. */
export function fromClientState(clientState: number): ServerState {
  if (clientState === 2) return "running";
  if (clientState === 3) return "starting";
  return "stopped";
}
