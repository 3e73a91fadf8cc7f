// "Show trace report": a webview beside the source with what the ONE stored trace of a function knows (inputs,
// stages, cost/memory/time, the roofline, links to the listings). It asks the server for the stored result
// (`sharpbits/trace` for views the store holds answers without tracing again); editing the inputs traces again.
import * as crypto from "node:crypto";
import * as vscode from "vscode";
import type { CompiledKind } from "./compiledLines";
import type { TraceResult, TraceTarget } from "./protocol.generated";
import { reportFacts, ReportFacts, reportHtml } from "./reportHtml";
import { ProtocolClient, TraceCommands } from "./traceCommand";

export class TraceReports implements vscode.Disposable {
  private readonly panels = new Map<string, { panel: vscode.WebviewPanel; target: TraceTarget }>();
  private readonly disposables: vscode.Disposable[] = [];
  private readonly emitter = new vscode.EventEmitter<ReportFacts>();
  readonly onDidShow = this.emitter.event;
  /** What the last report shown says (the e2e tests read it through the test hook). */
  last: ReportFacts | undefined;

  constructor(
    private readonly server: ProtocolClient,
    private readonly traces: TraceCommands,
    private readonly openListing: (kind: CompiledKind, target: TraceTarget) => Promise<void>,
    private readonly listingTarget: () => { sourceUri: string; fn: string } | undefined,
  ) {
    traces.showReport = (target) => this.show(target);
    // a new trace of a function whose report is open: the report follows it
    this.disposables.push(traces.onDidTrace((e) => {
      for (const { target } of this.panels.values()) {
        if (target.function === e.fn && (e.outcome === "ok" || e.outcome === "failed")) void this.refresh(target);
      }
    }));
  }

  private key(target: TraceTarget): string {
    return `${target.uri}::${target.function}`;
  }

  async show(given?: TraceTarget): Promise<void> {
    let target = given?.uri && given.function ? { uri: given.uri, function: given.function } : undefined;
    const listing = this.listingTarget();
    if (!target && listing) target = { uri: listing.sourceUri, function: listing.fn };
    if (!target) target = await this.traces.pickTarget();
    if (!target) return;
    const key = this.key(target);
    let open = this.panels.get(key);
    if (!open) {
      const panel = vscode.window.createWebviewPanel("sharpbits.traceReport", `Trace: ${target.function}`,
        { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
        { enableScripts: true, localResourceRoots: [], enableCommandUris: false });
      open = { panel, target };
      this.panels.set(key, open);
      const fixed = target;
      panel.onDidDispose(() => this.panels.delete(key));
      panel.webview.onDidReceiveMessage((m: { type?: string; inputs?: string; listing?: string }) => {
        if (m.type === "retrace") void this.traces.trace(fixed, { inputs: String(m.inputs ?? "").trim() || undefined, editInputs: !String(m.inputs ?? "").trim() });
        if (m.type === "open" && (m.listing === "jaxpr" || m.listing === "stablehlo" || m.listing === "hlo")) void this.openListing(m.listing, fixed);
      });
    } else {
      open.panel.reveal(undefined, true);
    }
    await this.refresh(target);
  }

  /** Reads the stored result (a trace only when there is none for this version) and draws it. */
  private async refresh(target: TraceTarget): Promise<void> {
    const open = this.panels.get(this.key(target));
    if (!open) return;
    let result: TraceResult | undefined;
    try {
      const answered = await this.traces.withSpec(target, (spec) =>
        this.traces.withProgress(`Reading the trace of ${target.function}…`, (token) =>
          this.server.request("sharpbits/trace", { uri: target.uri, function: target.function, show: ["cost", "timing"], ...(spec ? { args: spec } : {}) }, token),
          vscode.ProgressLocation.Window, // reading the stored result is quick: the status bar, not a toast
        ).then((r): TraceResult => r ?? { ok: false, error: { type: "Cancelled", message: "cancelled" } }));
      result = answered?.result;
    } catch (err) {
      result = { ok: false, error: { type: "ServerError", message: err instanceof Error ? err.message : String(err) } };
    }
    if (!result || result.error?.type === "Cancelled" || !this.panels.has(this.key(target))) return;
    const facts = reportFacts(target.function, result);
    const nonce = crypto.randomBytes(16).toString("base64");
    open.panel.webview.html = reportHtml(facts, { cspSource: open.panel.webview.cspSource, nonce, stale: result.stale });
    this.last = facts;
    this.emitter.fire(facts);
  }

  dispose(): void {
    for (const { panel } of this.panels.values()) panel.dispose();
    for (const d of this.disposables) d.dispose();
    this.emitter.dispose();
  }
}
