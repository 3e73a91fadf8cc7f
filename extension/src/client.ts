// Starts, stops and restarts the LanguageClient for `<python> -E -P -m sharpbits serve` (launch.ts: in a neutral
// working directory, never importing from the workspace). Every (re)start goes
// through one SerialQueue, so overlapping requests (setting change + interpreter change + "Restart") run one
// at a time and a burst collapses into a single restart.
import * as vscode from "vscode";
import { CloseAction, ErrorAction, LanguageClient, LanguageClientOptions, ServerOptions, State } from "vscode-languageclient/node";
import { CrashPolicy } from "./crashPolicy";
import { InterpreterService } from "./interpreter";
import { describeInterpreter, Interpreter } from "./interpreterChoice";
import { serverLaunch } from "./launch";
import { Preflight } from "./preflight";
import { SerialQueue } from "./serialQueue";
import { fromClientState, ServerState } from "./serverState";
import { functionOfHint, isRunTimeHint, REPORT_COMMAND, reportLinkMarkdown } from "./tracing/hoverLink";
import type { ProtocolClient } from "./tracing/traceCommand";
import type { Commands, Requests } from "./tracing/protocol.generated";

export interface StateChange {
  state: ServerState;
  interpreter?: Interpreter;
  reason?: string;
}

export class ServerController implements vscode.Disposable, ProtocolClient {
  private client: LanguageClient | undefined;
  private interpreter: Interpreter | undefined;
  private readonly queue = new SerialQueue();
  private readonly stateEmitter = new vscode.EventEmitter<StateChange>();
  readonly onDidChangeState = this.stateEmitter.event;
  private current: StateChange = { state: "stopped" };
  private disposed = false;

  constructor(
    private readonly interpreters: InterpreterService,
    private readonly preflight: Preflight,
    private readonly log: vscode.LogOutputChannel,
    /** The server's working directory: a folder of the extension's own, never the workspace. */
    private readonly neutralDir: string,
    /** The `sharpbits.*` settings as the server takes them (see tracing/serverSettings.ts). */
    private readonly settings: () => Record<string, unknown> = () => ({}),
  ) {}

  /** A custom request of the trace protocol to the running server, typed by its method (protocol.generated.ts). */
  async request<M extends keyof Requests>(
    method: M,
    params: Requests[M]["params"],
    token?: vscode.CancellationToken,
  ): Promise<Requests[M]["result"]> {
    return this.send<Requests[M]["result"]>(method, params, token);
  }

  /** One of the server's commands (workspace/executeCommand), typed by its name: its one argument and reply. */
  async executeCommand<C extends keyof Commands>(
    command: C,
    args: Commands[C]["args"],
    token?: vscode.CancellationToken,
  ): Promise<Commands[C]["result"]> {
    return this.send<Commands[C]["result"]>("workspace/executeCommand", { command, arguments: [args] }, token);
  }

  private async send<R>(method: string, params: object, token?: vscode.CancellationToken): Promise<R> {
    const client = this.client;
    if (!client || !client.isRunning()) throw new Error("the sharpbits server is not running");
    return token ? client.sendRequest<R>(method, params, token) : client.sendRequest<R>(method, params);
  }

  /** Sends the current settings again (after a settings change, or when the workspace becomes trusted). */
  async pushSettings(): Promise<void> {
    const client = this.client;
    if (!client || !client.isRunning()) return;
    await client.sendNotification("workspace/didChangeConfiguration", { settings: { sharpbits: this.settings() } });
  }

  get state(): StateChange {
    return this.current;
  }

  /** (Re)starts the server; concurrent calls are serialised and coalesced. */
  restart(): Promise<void> {
    return this.queue.request(() => this.doRestart());
  }

  private setState(change: StateChange): void {
    this.current = change;
    this.stateEmitter.fire(change);
  }

  private async doRestart(): Promise<void> {
    await this.stopClient();
    if (this.disposed) return;
    const interpreter = await this.interpreters.resolve();
    this.interpreter = interpreter;
    this.setState({ state: "starting", interpreter });
    const check = await this.preflight.check(interpreter.command);
    if (!check.ok) {
      this.setState({ state: "error", interpreter, reason: check.reason });
      return;
    }
    const { command, args, cwd } = serverLaunch(interpreter.command, check.result.pythonVersion, this.neutralDir);
    // No `transport`: with TransportKind.stdio the client would append `--stdio`; plain stdio is the default.
    const serverOptions: ServerOptions = { command, args, options: { cwd, env: process.env } };
    const policy = new CrashPolicy("JAX Sharp Bits");
    const clientOptions: LanguageClientOptions = {
      documentSelector: [
        { scheme: "file", language: "python" },
        { scheme: "untitled", language: "python" },
        // Notebook cells: the server declares notebook sync, so the client sends whole notebooks (every cell, in
        // order) and the server analyses them as one program; this entry routes hovers, code actions, CodeLens
        // (Trace) and inlay hints in cells.
        { scheme: "vscode-notebook-cell", language: "python" },
      ],
      outputChannel: this.log,
      traceOutputChannel: this.log,
      // a write error when the server died never stops the client; the close restarts it (crashPolicy.ts)
      errorHandler: {
        error: (error) => {
          policy.error();
          this.log.warn(`the connection to the server errored: ${error.message}`);
          return { action: ErrorAction.Continue, handled: true };
        },
        closed: () => {
          const decision = policy.closed();
          return decision.action === "restart"
            ? { action: CloseAction.Restart, handled: true }
            : { action: CloseAction.DoNotRestart, message: decision.message };
        },
      },
      initializationOptions: this.settings(),
      middleware: {
        // a traced function's hover links to its trace report (a command link, trusted for that command only)
        provideHover: async (document, position, token, next) => {
          const hover = await next(document, position, token);
          if (!hover) return hover;
          const text = hover.contents.map((c) => (typeof c === "string" ? c : c.value)).join("\n");
          const link = reportLinkMarkdown(text, document.uri.toString());
          if (!link) return hover;
          const markdown = new vscode.MarkdownString(link, true);
          markdown.isTrusted = { enabledCommands: [REPORT_COMMAND] };
          return new vscode.Hover([markdown, ...hover.contents], hover.range);
        },
        // the run time after a traced function's def line opens its report when clicked
        provideInlayHints: async (document, range, token, next) => {
          const hints = await next(document, range, token);
          const runTimes = (hints ?? []).filter((h) => typeof h.label === "string" && isRunTimeHint(h.label));
          if (!runTimes.length) return hints;
          const uri = document.uri.toString();
          let functions: { function: string; line: number }[] = [];
          try {
            functions = (await this.request("sharpbits/tracedFunctions", { uri }, token)) ?? [];
          } catch {
            return hints; // (the hints as the server gave them)
          }
          for (const hint of runTimes) {
            const fn = functionOfHint(functions, hint.position.line);
            if (!fn) continue;
            const part = new vscode.InlayHintLabelPart(hint.label as string);
            part.tooltip = `Open the trace report of ${fn}`;
            part.command = { title: "Open the trace report", command: REPORT_COMMAND, arguments: [{ uri, function: fn }] };
            hint.label = [part];
          }
          return hints;
        },
      },
    };
    const client = new LanguageClient("sharpbits", "JAX Sharp Bits", serverOptions, clientOptions);
    this.client = client;
    let crashed: string | undefined; // when the server last stopped on its own (the client restarts it)
    client.onDidChangeState((e) => {
      if (this.client !== client) return;
      const state = fromClientState(e.newState);
      // A server that stops on its own (crash, exit) is an error; a stop we asked for is handled in stopClient.
      if (state === "stopped" && e.oldState !== State.Stopped) {
        crashed = new Date().toLocaleTimeString();
        this.setState({ state: "error", interpreter, reason: `the server stopped unexpectedly at ${crashed}; see the output` });
        void vscode.window
          .showWarningMessage(`JAX Sharp Bits: the language server stopped unexpectedly at ${crashed}. It restarts by itself a few times; the output says why it stopped.`, "Show output", "Restart server")
          .then((choice) => {
            if (choice === "Show output") this.log.show();
            if (choice === "Restart server") void this.restart();
          });
      } else if (state === "running" && crashed) {
        this.setState({ state, interpreter, reason: `restarted after it stopped unexpectedly at ${crashed}` });
      } else if (state === "starting" && crashed) {
        this.setState({ state, interpreter, reason: `restarting after it stopped unexpectedly at ${crashed}` });
      } else {
        this.setState({ state, interpreter });
      }
    });
    this.log.info(`starting: ${[command, ...args.map((a) => (a.includes("\n") ? "<script>" : a))].join(" ")} in ${cwd} (${describeInterpreter(interpreter)})`);
    try {
      await client.start();
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      this.log.error(`the server failed to start: ${reason}`);
      if (this.client === client) this.setState({ state: "error", interpreter, reason: `failed to start: ${reason}` });
    }
  }

  private async stopClient(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (!client) return;
    try {
      if (client.isRunning()) await client.stop(5_000);
      else await client.dispose(2_000);
    } catch (err) {
      this.log.warn(`stopping the previous server: ${String(err)}`);
    }
    this.setState({ state: "stopped", interpreter: this.interpreter });
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    await this.queue.idle();
    await this.stopClient();
    this.stateEmitter.dispose();
  }
}
