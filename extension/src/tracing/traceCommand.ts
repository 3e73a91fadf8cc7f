// The CodeLens "Trace" action: asks the server to trace a function, and asks the user for example inputs when
// the function has no spec (no directive, no annotations), remembering the last one per function.
import * as vscode from "vscode";
import type { Commands, Requests, TraceCommandResult, TraceTarget } from "./protocol.generated";
import { traceProblem } from "./workerState";

export type { TraceTarget } from "./protocol.generated";

/** The server as the tracing views see it: every request and command typed by the generated protocol. */
export interface ProtocolClient {
  request<M extends keyof Requests>(
    method: M,
    params: Requests[M]["params"],
    token?: vscode.CancellationToken,
  ): Promise<Requests[M]["result"]>;
  executeCommand<C extends keyof Commands>(
    command: C,
    args: Commands[C]["args"],
    token?: vscode.CancellationToken,
  ): Promise<Commands[C]["result"]>;
}

export const SPEC_HELP = "Example inputs in jaxpr notation, e.g.  x=f32[1000,10], n=i32[], key=key, steps=10";

export class TraceCommands {
  constructor(
    private readonly server: ProtocolClient,
    private readonly state: vscode.Memento,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  private key(target: TraceTarget): string {
    return `sharpbits.spec:${target.uri}::${target.function}`;
  }

  lastSpec(target: TraceTarget): string | undefined {
    return this.state.get<string>(this.key(target));
  }

  async askSpec(target: TraceTarget, why?: string): Promise<string | undefined> {
    const value = await vscode.window.showInputBox({
      title: `Trace ${target.function}: example inputs`,
      prompt: why ? `${why} — ${SPEC_HELP}` : SPEC_HELP,
      value: this.lastSpec(target) ?? "",
      ignoreFocusOut: true,
    });
    if (value) await this.state.update(this.key(target), value);
    return value || undefined;
  }

  /** Runs `fn(spec)`; when the server answers needsSpec, prompts once and runs it again with the answer. */
  async withSpec<T extends { needsSpec?: boolean; error?: { message?: string } | null }>(
    target: TraceTarget,
    fn: (spec: string | undefined) => Promise<T>,
  ): Promise<T | undefined> {
    let result = await fn(this.lastSpec(target));
    if (result?.needsSpec) {
      const spec = await this.askSpec(target, result.error?.message);
      if (!spec) return undefined;
      result = await fn(spec);
    }
    return result;
  }

  async trace(target: TraceTarget): Promise<void> {
    if (!target?.uri || !target.function) return;
    const result = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Tracing ${target.function}…`, cancellable: true },
      (_progress, token) =>
        this.withSpec(target, (spec): Promise<TraceCommandResult> =>
          this.server.executeCommand("sharpbits.trace", { uri: target.uri, function: target.function, ...(spec ? { args: spec } : {}) }, token),
        ),
    );
    if (!result) return;
    if (result.note) {
      // a function in a notebook cell: which cells ran before it was traced, where the user is looking
      this.log.info(`tracing ${target.function}: ${result.note}`);
      vscode.window.setStatusBarMessage(`$(notebook) ${target.function}: ${result.note}`, 20_000);
    }
    if (result.ok) {
      this.log.info(`traced ${target.function}: ${result.summary}`);
    } else if (!result.stale) {
      const message = traceProblem(`Tracing ${target.function} failed`, result);
      this.log.warn(message);
      void vscode.window.showWarningMessage(message);
    }
  }
}
