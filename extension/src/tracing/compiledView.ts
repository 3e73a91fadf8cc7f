// "Show jaxpr / StableHLO / optimized HLO": a read-only document beside the source whose lines are coloured by
// the source line they came from (as Compiler Explorer does); moving the cursor in either pane highlights and
// reveals the linked lines in the other.
import * as vscode from "vscode";
import { CompiledKind, CompiledListing, colourSlots, listingFromResult, listingLinesFor } from "./compiledLines";
import { ProtocolClient, TraceCommands } from "./traceCommand";
import type { TraceParams, TraceResult } from "./protocol.generated";
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
/** The listings' languages (package.json contributes them with TextMate grammars under extension/syntaxes/). */
export const LANGUAGES: Record<CompiledKind, string> = { jaxpr: "jaxpr", stablehlo: "stablehlo", hlo: "hlo" };

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
  /** listing views open, the language of the last one, and the colour slot of each coloured source line */
  openListings?: number;
  languageId?: string;
  slots?: Record<string, number>;
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
      vscode.window.tabGroups.onDidChangeTabs(() => this.dropClosed()),
      vscode.workspace.onDidCloseTextDocument((doc) => {
        if (doc.uri.scheme === SCHEME) this.dropClosed();
      }),
    );
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.toString()) ?? "";
  }

  /** The listing view in the active editor, if it is one (its source and function: "Show StableHLO" from a
   * jaxpr listing shows the same function's StableHLO). */
  listingInActiveEditor(): { sourceUri: string; fn: string } | undefined {
    const doc = vscode.window.activeTextEditor?.document;
    const open = doc ? this.listings.get(doc.uri.toString()) : undefined;
    return open ? { sourceUri: open.sourceUri, fn: open.fn } : undefined;
  }

  async show(kind: CompiledKind, target?: { uri?: string; function?: string }): Promise<void> {
    let sourceUri = target?.uri;
    let fn = target?.function;
    const fromListing = this.listingInActiveEditor();
    if (!sourceUri && fromListing) ({ sourceUri, fn } = { sourceUri: fromListing.sourceUri, fn: fromListing.fn });
    if (!sourceUri || !fn) {
      const picked = await this.traces.pickTarget();
      if (!picked) return;
      ({ uri: sourceUri, function: fn } = picked);
    }
    const name = fn;
    const source = sourceUri;
    let answered;
    try {
      answered = await this.traces.withSpec({ uri: source, function: name }, (spec) =>
        this.traces.withProgress(`Compiling ${name} (${TITLES[kind]})…`, (token) => {
          const params: TraceParams = { uri: source, function: name, show: [kind, "lines"], ...(spec ? { args: spec } : {}) };
          return this.server.request("sharpbits/trace", params, token);
        }).then((r): TraceResult => r ?? { ok: false, error: { type: "Cancelled" } }));
    } catch (err) {
      void vscode.window.showWarningMessage(`JAX Sharp Bits: ${err instanceof Error ? err.message : String(err)}`);
      return;
    }
    const result = answered?.result;
    if (!result || result.error?.type === "Cancelled") return;
    const listing = listingFromResult(result, kind);
    if (!listing) {
      void vscode.window.showWarningMessage(traceProblem(`No ${TITLES[kind]} for ${name}`, result));
      return;
    }
    const uri = vscode.Uri.from({ scheme: SCHEME, path: `/${name}.${kind}`, query: source });
    this.contents.set(uri.toString(), listing.text);
    this.listings.set(uri.toString(), { listing, uri, sourceUri: source, fn: name });
    this.changed.fire(uri);
    const doc = await vscode.workspace.openTextDocument(uri);
    if (doc.languageId !== LANGUAGES[kind]) await vscode.languages.setTextDocumentLanguage(doc, LANGUAGES[kind]);
    await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true, preview: false });
    this.state = { ...this.state, kind, fn: name, listingLines: [], languageId: LANGUAGES[kind] };
    this.recolour();
    this.log.info(`${TITLES[kind]} of ${name}: ${listing.sourceLines.length} lines, ${listing.sourceLines.filter((l) => l !== null).length} linked to source`);
  }

  /** Forgets the listings no tab shows any more, and takes their colours off the source. */
  private dropClosed(): void {
    const shown = new Set<string>();
    for (const group of vscode.window.tabGroups.all) {
      for (const tab of group.tabs) {
        if (tab.input instanceof vscode.TabInputText) shown.add(tab.input.uri.toString());
      }
    }
    let dropped = false;
    for (const key of [...this.listings.keys()]) {
      if (!shown.has(key)) {
        this.listings.delete(key);
        this.contents.delete(key);
        dropped = true;
      }
    }
    if (dropped) this.recolour();
  }

  private editorsFor(uri: string): vscode.TextEditor[] {
    return vscode.window.visibleTextEditors.filter((e) => e.document.uri.toString() === uri);
  }

  /** Colours every listing line and every source line it came from, one colour per source line (the same in
   * every listing: the slot is the line's own). A source editor with no open listing has its colours cleared. */
  private recolour(): void {
    const bySource = new Map<string, Map<number, number>>();
    for (const open of this.listings.values()) {
      const slots = colourSlots(open.listing, this.palette.length);
      const listingRanges: vscode.Range[][] = this.palette.map(() => []);
      open.listing.sourceLines.forEach((line, index) => {
        if (line !== null) listingRanges[slots.get(line)!].push(new vscode.Range(index, 0, index, 0));
      });
      for (const editor of this.editorsFor(open.uri.toString())) {
        this.palette.forEach((d, i) => editor.setDecorations(d, listingRanges[i]));
      }
      const merged = bySource.get(open.sourceUri) ?? new Map<number, number>();
      for (const [line, slot] of slots) merged.set(line, slot);
      bySource.set(open.sourceUri, merged);
      if (this.state.fn === open.fn && this.state.kind === open.listing.kind) {
        this.state.colouredListingLines = listingRanges.reduce((n, r) => n + r.length, 0);
      }
    }
    let colouredSource = 0;
    for (const editor of vscode.window.visibleTextEditors) {
      if (editor.document.uri.scheme === SCHEME) continue;
      const slots = bySource.get(editor.document.uri.toString());
      const sourceRanges: vscode.Range[][] = this.palette.map(() => []);
      for (const [line, slot] of slots ?? []) sourceRanges[slot].push(new vscode.Range(line - 1, 0, line - 1, 0));
      this.palette.forEach((d, i) => editor.setDecorations(d, sourceRanges[i]));
      if (!slots) editor.setDecorations(this.linked, []);
      colouredSource += slots?.size ?? 0;
    }
    if (!this.listings.size) this.state = { ...this.state, colouredListingLines: 0, listingLines: [] };
    this.state.colouredSourceLines = colouredSource;
    this.state.openListings = this.listings.size;
    this.state.slots = Object.fromEntries([...bySource.values()].flatMap((m) => [...m]).map(([l, s]) => [String(l), s]));
    this.linkEmitter.fire(this.state);
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
