// "Trace Function" (the CodeLens, the command palette): which function, which inputs, and what a failure offers.
// - The function: the lens's target, else the traced function at the cursor, else a pick of the document's.
// - The inputs (inputs.ts): the `# sharpbits: trace(...)` directive beats an input the user typed before; a typed
//   input is remembered per function only once it traced, and used only while the function has no directive.
//   The prompt is prefilled (directive, last good input, signature) and the progress starts after the answer.
// - Cancel: nothing is shown, and a cancelled trace's late answer is dropped.
// - A failure: a toast with what helps (Edit inputs, Retry, Select interpreter, Copy `pip install jax`, Open
//   settings).
import * as vscode from "vscode";
import { functionAt } from "./compiledLines";
import {
  ACTIONS,
  chooseInputs,
  defLine,
  directiveFor,
  failureActions,
  isCancellation,
  isInputFailure,
  parameters,
  prefill,
  promptText,
  PIP_INSTALL_JAX,
  specFromSignature,
} from "./inputs";
import type { Commands, ErrorInfo, Requests, TraceCommandResult, TracedFunction, TraceTarget } from "./protocol.generated";
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

/** A lens's argument: the target, and `report` when its result is current (the summary lens opens the report). */
export type LensTarget = TraceTarget & { report?: boolean };

/** What the tracing views need to know about one trace (read by the e2e tests through the report hook). */
export interface TraceEvent {
  /** counts the traces of this session: a test waits for a newer one */
  id?: number;
  fn: string;
  outcome: "ok" | "failed" | "cancelled" | "stale" | "refused";
  inputs: string | null;
  source: string;
  actions: string[];
  message?: string;
}

export class TraceCommands implements vscode.Disposable {
  private generation = 0;
  private readonly running = new Map<string, number>();
  private readonly emitter = new vscode.EventEmitter<TraceEvent>();
  readonly onDidTrace = this.emitter.event;
  last: TraceEvent | undefined;
  /** Opens the trace report of a function (set by the report view). */
  showReport: ((target: TraceTarget) => unknown) | undefined;

  constructor(
    private readonly server: ProtocolClient,
    private readonly state: vscode.Memento,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  private key(target: TraceTarget): string {
    return `sharpbits.spec:${target.uri}::${target.function}`;
  }

  /** The last input that traced this function (remembered across sessions in the workspace's storage). */
  lastSpec(target: TraceTarget): string | undefined {
    return this.state.get<string>(this.key(target));
  }

  private lines(uri: string): string[] | undefined {
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri);
    return doc?.getText().split(/\r?\n/);
  }

  /** The function's directive (as the document is now), its parameters, and what a trace sends. */
  inputsFor(target: TraceTarget): { args?: string; source: string; directive?: string; prefill: string; params: ReturnType<typeof parameters> } {
    const lines = this.lines(target.uri) ?? [];
    const def = defLine(lines, target.function);
    const directive = def !== undefined ? directiveFor(lines, def)?.spec : undefined;
    const params = def !== undefined ? parameters(lines, def) : [];
    const chosen = chooseInputs(directive, this.lastSpec(target));
    return { ...chosen, directive, params, prefill: prefill(directive, this.lastSpec(target), specFromSignature(params)) };
  }

  /** Asks for example inputs (prefilled); undefined when the user cancelled. */
  async askSpec(target: TraceTarget, why?: string, current?: string): Promise<string | undefined> {
    const inputs = this.inputsFor(target);
    const value = await vscode.window.showInputBox({
      title: `Trace ${target.function}: example inputs`,
      prompt: promptText(target.function, inputs.params, why),
      value: current ?? inputs.prefill,
      placeHolder: "x=f32[1000,10], n=i32[], key=key, steps=10",
      ignoreFocusOut: true,
    });
    return value?.trim() || undefined;
  }

  /** A typed input that traced is remembered for the function (used while it has no directive). */
  async remember(target: TraceTarget, spec: string | undefined): Promise<void> {
    if (spec) await this.state.update(this.key(target), spec);
  }

  /** The traced function at the cursor, else one picked from the document's; undefined when there is none. */
  async pickTarget(editor = vscode.window.activeTextEditor): Promise<TraceTarget | undefined> {
    const traceable = ["file", "vscode-notebook-cell", "untitled"].includes(editor?.document.uri.scheme ?? "");
    if (!editor || !traceable || editor.document.languageId !== "python") {
      void vscode.window.showInformationMessage("JAX Sharp Bits: open a Python file with a jitted (or vmapped, grad-ed, ...) function to trace it.");
      return undefined;
    }
    const uri = editor.document.uri.toString();
    const functions: TracedFunction[] = (await this.server.request("sharpbits/tracedFunctions", { uri })) ?? [];
    const cursor = editor.selection.active.line + 1;
    // the cursor on the function's decorators counts as on the function
    const here = functionAt(functions, cursor) ?? functions.find((f) => f.line > cursor && f.line - cursor <= 3 &&
      editor.document.lineAt(cursor - 1).text.trim().startsWith("@"));
    if (here) return { uri, function: here.function };
    if (functions.length === 1) return { uri, function: functions[0].function };
    if (!functions.length) {
      void vscode.window.showInformationMessage("JAX Sharp Bits: no function in this file runs under jit, grad, vmap or another JAX transformation.");
      return undefined;
    }
    const picked = await vscode.window.showQuickPick(
      functions.map((f) => ({ label: f.function, description: `line ${f.line} · ${f.reason}`, fn: f.function })),
      { placeHolder: "Which function to trace?" },
    );
    return picked ? { uri, function: picked.fn } : undefined;
  }

  /** Runs `fn(args)` with the inputs the rules above choose; when the server needs inputs, asks once (before any
   * progress shows) and runs again with the answer. `progress` wraps each run. */
  async withSpec<T extends { ok?: boolean; needsSpec?: boolean; error?: ErrorInfo | null }>(
    target: TraceTarget,
    fn: (spec: string | undefined) => Promise<T>,
    explicit?: string,
  ): Promise<{ result: T; spec: string | undefined; source: string } | undefined> {
    const inputs = this.inputsFor(target);
    let spec = explicit ?? inputs.args;
    let source = explicit ? "typed" : inputs.source;
    // nothing to go on (no directive, no remembered input, a parameter without annotation): ask before anything
    // runs, so no progress shows while the user types
    if (spec === undefined && inputs.source === "none" && inputs.params.some((p) => !p.hasDefault && !p.annotation)) {
      spec = await this.askSpec(target, "no inputs yet");
      if (!spec) return undefined;
      source = "typed";
    }
    let result = await fn(spec);
    if (result?.needsSpec) {
      spec = await this.askSpec(target, result.error?.message);
      if (!spec) return undefined;
      source = "typed";
      result = await fn(spec);
    }
    if (result?.ok && source === "typed") await this.remember(target, spec);
    return { result, spec, source };
  }

  /** One run under a cancellable progress notification; undefined when cancelled (nothing is shown then). */
  async withProgress<T>(
    title: string,
    run: (token: vscode.CancellationToken) => Promise<T>,
    location: vscode.ProgressLocation = vscode.ProgressLocation.Notification,
  ): Promise<T | undefined> {
    return vscode.window.withProgress(
      { location, title, cancellable: location === vscode.ProgressLocation.Notification },
      async (_progress, token) => {
        try {
          const out = await run(token);
          return token.isCancellationRequested ? undefined : out;
        } catch (err) {
          if (token.isCancellationRequested || isCancellation(err)) return undefined;
          throw err;
        }
      },
    );
  }

  /** The Trace lens and the palette's "Trace Function". `editInputs`: prompt first (the "Edit inputs" action). */
  async trace(given?: LensTarget, options: { editInputs?: boolean; inputs?: string } = {}): Promise<void> {
    if (given?.report && this.showReport) {
      await this.showReport({ uri: given.uri, function: given.function });
      return;
    }
    const target = given?.uri && given.function ? { uri: given.uri, function: given.function } : await this.pickTarget();
    if (!target) return;
    let explicit = options.inputs;
    if (options.editInputs && explicit === undefined) {
      const inputs = this.inputsFor(target);
      explicit = await this.askSpec(target, undefined, inputs.args ?? inputs.prefill);
      if (!explicit) return;
    }
    const id = ++this.generation;
    const key = `${target.uri}::${target.function}`;
    this.running.set(key, id);
    let cancelled = false;
    let answered: { result: TraceCommandResult; spec: string | undefined; source: string } | undefined;
    try {
      answered = await this.withSpec(target, async (spec) => {
        const out = await this.withProgress(`Tracing ${target.function}…`, (token) =>
          this.server.executeCommand("sharpbits.trace", { uri: target.uri, function: target.function, ...(spec ? { args: spec } : {}) }, token));
        if (out === undefined) {
          cancelled = true;
          return { ok: false } as TraceCommandResult;
        }
        return out;
      }, explicit);
    } catch (err) {
      this.failed(target, { type: "ServerError", message: err instanceof Error ? err.message : String(err) }, undefined, "none");
      return;
    }
    // a newer trace of the same function started meanwhile, or this one was cancelled: its answer is dropped
    if (this.running.get(key) !== id) return;
    this.running.delete(key);
    if (cancelled) {
      this.fire({ fn: target.function, outcome: "cancelled", inputs: answered?.spec ?? null, source: answered?.source ?? "", actions: [] });
      this.log.info(`tracing ${target.function}: cancelled`);
      return;
    }
    if (!answered) return; // the user closed the inputs prompt
    const { result, spec, source } = answered;
    if (result.note) {
      // a function in a notebook cell: which cells ran before it was traced, where the user is looking
      this.log.info(`tracing ${target.function}: ${result.note}`);
      vscode.window.setStatusBarMessage(`$(notebook) ${target.function}: ${result.note}`, 20_000);
    }
    if (result.ok) {
      this.log.info(`traced ${target.function} (inputs: ${source}${spec ? ` ${spec}` : ""}): ${result.summary}`);
      this.fire({ fn: target.function, outcome: "ok", inputs: spec ?? null, source, actions: [] });
    } else if (result.stale) {
      this.fire({ fn: target.function, outcome: "stale", inputs: spec ?? null, source, actions: [] });
    } else if (result.refused) {
      const message = traceProblem(`Tracing ${target.function}`, result);
      this.fire({ fn: target.function, outcome: "refused", inputs: spec ?? null, source, actions: [ACTIONS.openSettings], message });
      void vscode.window.showWarningMessage(message, ACTIONS.openSettings).then((c) => (c ? this.act(c, target) : undefined));
    } else {
      this.failed(target, result.error, spec, source);
    }
  }

  private events = 0;

  private fire(event: TraceEvent): void {
    event.id = ++this.events;
    this.last = event;
    this.emitter.fire(event);
  }

  private failed(target: TraceTarget, error: ErrorInfo | null | undefined, spec: string | undefined, source: string): void {
    const actions = failureActions(error);
    let message = traceProblem(`Tracing ${target.function} failed`, { error: error ?? undefined });
    if (error?.line) message += ` (line ${error.line})`;
    if (error?.hint) message += ` ${String(error.hint).split("\n")[0]}`;
    if (isInputFailure(error)) message += spec ? ` Inputs: ${spec}` : "";
    this.log.warn(message);
    if (error?.traceback) this.log.warn(error.traceback);
    if (error?.stderr_tail) this.log.warn(error.stderr_tail);
    this.fire({ fn: target.function, outcome: "failed", inputs: spec ?? null, source, actions, message });
    void vscode.window.showWarningMessage(message, ...actions).then((choice) => (choice ? this.act(choice, target) : undefined));
  }

  /** What a toast's button does. */
  async act(choice: string, target: TraceTarget): Promise<void> {
    switch (choice) {
      case ACTIONS.editInputs:
        return this.trace(target, { editInputs: true });
      case ACTIONS.retry:
        return this.trace(target);
      case ACTIONS.selectInterpreter:
        await vscode.commands.executeCommand("sharpbits.selectTraceInterpreter");
        return;
      case ACTIONS.copyPip:
        await vscode.env.clipboard.writeText(PIP_INSTALL_JAX);
        void vscode.window.showInformationMessage(`Copied “${PIP_INSTALL_JAX}”: run it in the trace interpreter's environment, then trace again.`);
        return;
      case ACTIONS.openSettings:
        await vscode.commands.executeCommand("workbench.action.openSettings", "sharpbits.trace");
        return;
      case ACTIONS.showOutput:
        this.log.show();
        return;
    }
  }

  dispose(): void {
    this.emitter.dispose();
  }
}

/** "Select interpreter" for tracing: the Python extension's picker when it is installed, else a path typed into
 * the `sharpbits.trace.interpreter` setting. */
export async function selectTraceInterpreter(): Promise<void> {
  const config = vscode.workspace.getConfiguration("sharpbits");
  const python = vscode.extensions.getExtension("ms-python.python");
  const items: { label: string; detail: string; id: string }[] = [
    { label: "Type the path of a Python with JAX…", detail: "Sets sharpbits.trace.interpreter (the trace worker's Python)", id: "path" },
  ];
  if (python) items.unshift({ label: "Choose with the Python extension…", detail: "The server and the worker use the active environment", id: "python" });
  const picked = items.length === 1 ? items[0] : await vscode.window.showQuickPick(items, { placeHolder: "Which Python runs traces?" });
  if (!picked) return;
  if (picked.id === "python") {
    await vscode.commands.executeCommand("python.setInterpreter");
    return;
  }
  const value = await vscode.window.showInputBox({
    title: "Python for the trace worker (needs JAX)",
    value: config.get<string>("trace.interpreter") ?? "",
    placeHolder: "/path/to/.venv/bin/python",
    ignoreFocusOut: true,
  });
  if (value === undefined) return;
  const target = vscode.workspace.workspaceFolders?.length ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
  await config.update("trace.interpreter", value.trim(), target);
}
