// "Show jaxpr / StableHLO / optimized HLO": a read-only document beside the source whose lines are coloured by
// the source line they came from (as Compiler Explorer does); moving the cursor in either pane highlights and
// reveals the linked lines in the other.
import * as vscode from "vscode";
import { CompiledKind, CompiledListing, colourSlots, functionAt, listingFromResult, listingLinesFor } from "./compiledLines";
import { ProtocolClient, TraceCommands } from "./traceCommand";
import type { TracedFunction, TraceParams, TraceResult } from "./protocol.generated";
import { traceProblem } from "./workerState";

export const SCHEME = "sharpbits-compiled";
const COLOURS = [
  "rgba(255,179,0,0.18)",
  "rgba(0,150,255,0.18)",
  "rgba(0,200,120,0.18)",
  "rgba(220,80,200,0.18)",
  "rgba(255,90,90,0.18)",
  "rgba(130,130,255,0.18)",
];
const TITLES: Record<CompiledKind, string> = { jaxpr: "jaxpr", stablehlo: "StableHLO", hlo: "optimized HLO" };

interface OpenListing {
  listing: CompiledListing;
  uri: vscode.Uri;
  sourceUri: string;
  fn: string;
}

/** What the views currently show linked (read by the end-to-end tests through the extension's report). */
export interface LinkState {
  kind?: CompiledKind;
  fn?: string;
  /** 1-based source line under the cursor or linked from the listing */
  sourceLine?: number;
  /** 0-based listing lines highlighted for it */
  listingLines: number[];
  /** how many listing lines carry a source colour, and how many source lines are coloured */
  colouredListingLines: number;
  colouredSourceLines: number;
}

export class CompiledViews implements vscode.Disposable, vscode.TextDocumentContentProvider {
  private readonly contents = new Map<string, string>();
  private readonly listings = new Map<string, OpenListing>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly linkEmitter = new vscode.EventEmitter<LinkState>();
  readonly onDidLink = this.linkEmitter.event;
  private readonly palette = COLOURS.map((c) =>
    vscode.window.createTextEditorDecorationType({ backgroundColor: c, isWholeLine: true }),
  );
  private readonly linked = vscode.window.createTextEditorDecorationType({
    isWholeLine: true,
    border: "1px solid",
    borderColor: new vscode.ThemeColor("editor.findMatchBorder"),
    backgroundColor: new vscode.ThemeColor("editor.findMatchHighlightBackground"),
    overviewRulerColor: new vscode.ThemeColor("editorOverviewRuler.findMatchForeground"),
    overviewRulerLane: vscode.OverviewRulerLane.Center,
  });
  private readonly disposables: vscode.Disposable[] = [];
  state: LinkState = { listingLines: [], colouredListingLines: 0, colouredSourceLines: 0 };

  constructor(
    private readonly server: ProtocolClient,
    private readonly traces: TraceCommands,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.disposables.push(
      vscode.workspace.registerTextDocumentContentProvider(SCHEME, this),
      vscode.window.onDidChangeTextEditorSelection((e) => this.onSelection(e)),
      vscode.window.onDidChangeVisibleTextEditors(() => this.recolour()),
    );
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.toString()) ?? "";
  }

  async show(kind: CompiledKind, target?: { uri?: string; function?: string }): Promise<void> {
    const editor = vscode.window.activeTextEditor;
    // a .py file, or a notebook cell (the server runs the cells above it first and maps lines to the cell)
    const traceable = ["file", "vscode-notebook-cell"].includes(editor?.document.uri.scheme ?? "");
    const sourceUri = target?.uri ?? (editor && traceable ? editor.document.uri.toString() : undefined);
    if (!sourceUri) {
      void vscode.window.showInformationMessage("Open a Python file with a traced function first.");
      return;
    }
    let fn = target?.function;
    if (!fn) {
      const functions: TracedFunction[] = (await this.server.request("sharpbits/tracedFunctions", { uri: sourceUri })) ?? [];
      const here = editor ? functionAt(functions, editor.selection.active.line + 1) : undefined;
      fn = here?.function;
      if (!fn && functions.length === 1) fn = functions[0].function;
      if (!fn && functions.length > 1) fn = await vscode.window.showQuickPick(functions.map((f) => f.function), { placeHolder: "Which traced function?" });
      if (!fn) {
        if (!functions.length) void vscode.window.showInformationMessage("No function in this file runs under jit, grad, vmap or another JAX transformation.");
        return;
      }
    }
    const name = fn;
    const result = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Compiling ${name} (${TITLES[kind]})…`, cancellable: true },
      (_progress, token) =>
        this.traces.withSpec({ uri: sourceUri, function: name }, (spec): Promise<TraceResult> => {
          const params: TraceParams = { uri: sourceUri, function: name, show: [kind, "lines"], ...(spec ? { args: spec } : {}) };
          return this.server.request("sharpbits/trace", params, token);
        }),
    );
    if (!result) return;
    const listing = listingFromResult(result, kind);
    if (!listing) {
      void vscode.window.showWarningMessage(traceProblem(`No ${TITLES[kind]} for ${name}`, result));
      return;
    }
    const uri = vscode.Uri.from({ scheme: SCHEME, path: `/${name}.${kind}`, query: sourceUri });
    this.contents.set(uri.toString(), listing.text);
    this.listings.set(uri.toString(), { listing, uri, sourceUri, fn: name });
    this.changed.fire(uri);
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true, preview: false });
    this.state = { kind, fn: name, listingLines: [], colouredListingLines: 0, colouredSourceLines: 0 };
    this.recolour();
    this.log.info(`${TITLES[kind]} of ${name}: ${listing.sourceLines.length} lines, ${listing.sourceLines.filter((l) => l !== null).length} linked to source`);
  }

  private editorsFor(uri: string): vscode.TextEditor[] {
    return vscode.window.visibleTextEditors.filter((e) => e.document.uri.toString() === uri);
  }

  /** Colours every listing line and every source line it came from, one colour per source line. */
  private recolour(): void {
    for (const open of this.listings.values()) {
      const slots = colourSlots(open.listing, this.palette.length);
      const listingRanges: vscode.Range[][] = this.palette.map(() => []);
      open.listing.sourceLines.forEach((line, index) => {
        if (line !== null) listingRanges[slots.get(line)!].push(new vscode.Range(index, 0, index, 0));
      });
      const sourceRanges: vscode.Range[][] = this.palette.map(() => []);
      for (const [line, slot] of slots) sourceRanges[slot].push(new vscode.Range(line - 1, 0, line - 1, 0));
      for (const editor of this.editorsFor(open.uri.toString())) {
        this.palette.forEach((d, i) => editor.setDecorations(d, listingRanges[i]));
      }
      for (const editor of this.editorsFor(open.sourceUri)) {
        this.palette.forEach((d, i) => editor.setDecorations(d, sourceRanges[i]));
      }
      if (this.state.fn === open.fn) {
        this.state.colouredListingLines = listingRanges.reduce((n, r) => n + r.length, 0);
        this.state.colouredSourceLines = slots.size;
        this.linkEmitter.fire(this.state);
      }
    }
  }

  private onSelection(e: vscode.TextEditorSelectionChangeEvent): void {
    const doc = e.textEditor.document;
    const key = doc.uri.toString();
    const line = e.selections[0]?.active.line ?? 0;
    const fromListing = this.listings.get(key);
    const targets = fromListing ? [fromListing] : [...this.listings.values()].filter((l) => l.sourceUri === key);
    for (const open of targets) {
      const sourceLine = fromListing ? open.listing.sourceLines[line] ?? undefined : line + 1;
      const lines = sourceLine === undefined ? [] : listingLinesFor(open.listing, sourceLine);
      const listingRanges = lines.map((l) => new vscode.Range(l, 0, l, 0));
      const sourceRanges = sourceLine !== undefined && lines.length ? [new vscode.Range(sourceLine - 1, 0, sourceLine - 1, 0)] : [];
      for (const editor of this.editorsFor(open.uri.toString())) {
        editor.setDecorations(this.linked, listingRanges);
        if (!fromListing && listingRanges.length) editor.revealRange(listingRanges[0], vscode.TextEditorRevealType.InCenterIfOutsideViewport);
      }
      for (const editor of this.editorsFor(open.sourceUri)) {
        editor.setDecorations(this.linked, sourceRanges);
        if (fromListing && sourceRanges.length) editor.revealRange(sourceRanges[0], vscode.TextEditorRevealType.InCenterIfOutsideViewport);
      }
      this.state = { ...this.state, kind: open.listing.kind, fn: open.fn, sourceLine, listingLines: lines };
      this.linkEmitter.fire(this.state);
    }
  }

  dispose(): void {
    for (const d of [...this.disposables, ...this.palette, this.linked, this.changed, this.linkEmitter]) d.dispose();
  }
}
