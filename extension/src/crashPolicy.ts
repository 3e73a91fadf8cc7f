// What the client does when the connection to the language server errors or closes, as a pure policy (no
// `vscode` import; client.ts adapts it to vscode-languageclient's ErrorHandler).
//
// Why not the library's default: when the server process dies while the client is writing to it (a didChange,
// an inlay-hint request), the write fails with EPIPE and the default handler answers that stream error with
// "Shutdown" (it does so whenever the error carries no count). Shutdown stops the client, the close that
// follows is then taken as asked-for, and the server is never restarted, so whether a crash restarts depended
// on whether a message was in flight at that moment. A write error never decides here: the process's exit
// always closes the connection, and the close decides (restart, a few times in a window; then stay stopped
// and say why).

export type ErrorDecision = { action: "continue" };
export type CloseDecision = { action: "restart" } | { action: "stay-stopped"; message: string };

export class CrashPolicy {
  private readonly closes: number[] = [];

  /**
   * @param maxRestarts restarts allowed within `windowMs` (the library's default is 4 in 3 minutes)
   * @param now the clock (tests pass their own)
   */
  constructor(
    private readonly serverName: string,
    private readonly maxRestarts = 4,
    private readonly windowMs = 3 * 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** A read or write error on the connection: go on; the close that a dead process brings decides. */
  error(): ErrorDecision {
    return { action: "continue" };
  }

  /** The connection closed without our asking (the process ended). */
  closed(): CloseDecision {
    const at = this.now();
    this.closes.push(at);
    while (this.closes.length && at - this.closes[0] > this.windowMs) this.closes.shift();
    if (this.closes.length <= this.maxRestarts) return { action: "restart" };
    const minutes = Math.round(this.windowMs / 60_000);
    return {
      action: "stay-stopped",
      message: `The ${this.serverName} server stopped ${this.closes.length} times in the last ${minutes} minutes and is not restarted again; the output says why. Run “JAX Sharp Bits: Restart Server” once it is fixed.`,
    };
  }
}
