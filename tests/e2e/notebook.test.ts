// A Jupyter notebook in the real editor: code-server's built-in notebook editor opens examples/
// sharp_bits_notebook.ipynb, the server analyses its cells as one program over LSP notebook sync, a key reused
// two cells after it was first used shows in the cell of the reuse, and its quick fix edits the cell of the first
// use; the Trace lens on a function in the last cell runs the cells above it, and the hover and the jaxpr view
// map back to that cell's lines. Runs after editor.test.ts (same code-server, same report file; see
// scripts/test_e2e.sh).
import assert from "node:assert/strict";
import * as path from "node:path";
import { after, before, describe, test } from "node:test";
import { Browser, Page } from "playwright-core";
import { env, openWorkbench, waitForJson } from "./harness";

const URL = env("SB_E2E_URL");
const REPORT = env("SB_E2E_REPORT");
const ARTIFACTS = env("SB_E2E_ARTIFACTS");
const NOTEBOOK = "sharp_bits_notebook.ipynb";

interface Diagnostic {
  code: string | null;
  source: string | null;
  message: string;
  range: [number, number, number, number];
}
interface Report {
  diagnostics: Record<string, Diagnostic[]>;
  documents: Record<string, { version: number; dirty: boolean; text: string }>;
  compiled: { kind?: string; fn?: string; sourceLine?: number; listingLines: number[]; colouredListingLines: number } | null;
}

/** The notebook's cells as the extension sees them: cell document uri -> text and its sharpbits diagnostics. */
function cells(r: Report): { uri: string; text: string; diagnostics: Diagnostic[] }[] {
  return Object.entries(r.documents)
    .filter(([uri]) => uri.startsWith("vscode-notebook-cell:") && uri.includes(NOTEBOOK))
    .map(([uri, d]) => ({ uri, text: d.text, diagnostics: (r.diagnostics[uri] ?? []).filter((x) => x.source === "sharpbits") }));
}
const cellStarting = (r: Report, start: string) => cells(r).find((c) => c.text.startsWith(start));

const waitForReport = (what: string, predicate: (r: Report) => boolean, timeoutMs = 60_000): Promise<Report> =>
  waitForJson<Report>(REPORT, what, predicate, timeoutMs, (last) =>
    last ? JSON.stringify({ cells: cells(last).map((c) => ({ text: c.text.slice(0, 40), diagnostics: c.diagnostics })),
                            compiled: last.compiled, documents: Object.keys(last.documents) }, null, 1) : "no report");

/** Opens the Problems panel and chooses the key reuse: VS Code reveals its cell and puts the cursor on it. */
async function revealReuse(): Promise<void> {
  const row = page.locator(".markers-panel .monaco-list-row", { hasText: "already consumed at cell 5" }).first();
  if (!(await row.isVisible().catch(() => false))) await page.keyboard.press("Control+Shift+M");
  await row.waitFor({ state: "visible" });
  await row.dblclick();
  await page.locator(".cell-editor-container .view-lines", { hasText: "b = random.normal(key" }).first().waitFor();
}

let browser: Browser;
let page: Page;
const shot = (name: string) => page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) }).catch(() => undefined);

describe("a notebook in a real VS Code (code-server)", { concurrency: false }, () => {
  before(async () => {
    ({ browser, page } = await openWorkbench(URL, { explorer: false }));
  });

  after(async () => {
    await shot("notebook-final");
    await browser?.close();
  });

  test("a key reused two cells later shows in the cell of the reuse, nowhere else", async () => {
    await page.keyboard.press("F1");
    const input = page.locator(".quick-input-widget input");
    await input.waitFor({ state: "visible" });
    await input.fill(NOTEBOOK);
    await page.locator(".quick-input-list .monaco-list-row", { hasText: NOTEBOOK }).first().waitFor();
    await page.keyboard.press("Enter");
    await page.locator(".notebook-editor, .notebookOverlay").first().waitFor({ state: "visible", timeout: 60_000 });
    const report = await waitForReport("SB201 in the cell of the reuse and SB101 in the helper's cell", (r) =>
      (cellStarting(r, "b = random.normal(key")?.diagnostics.some((d) => d.code === "SB201") ?? false) &&
      (cellStarting(r, "def zero_first_row(x)")?.diagnostics.some((d) => d.code === "SB101") ?? false));
    const reuse = cellStarting(report, "b = random.normal(key")!;
    assert.deepEqual(reuse.diagnostics.map((d) => [d.code, d.range]), [["SB201", [0, 18, 0, 21]]]);
    assert.match(reuse.diagnostics[0].message, /already consumed at cell 5, line 1/);
    const helper = cellStarting(report, "def zero_first_row(x)")!;
    assert.deepEqual(helper.diagnostics.map((d) => [d.code, d.range]), [["SB101", [1, 4, 1, 8]]]);
    const others = cells(report).filter((c) => c.uri !== reuse.uri && c.uri !== helper.uri);
    assert.ok(others.length >= 6, `every code cell is synced: ${others.length + 2} cells`);
    assert.deepEqual(others.flatMap((c) => c.diagnostics), [],
      JSON.stringify(cells(report).map((c) => [c.uri, c.text.slice(0, 24), c.diagnostics.length])));
    // UI: the Problems panel lists the finding; choosing it reveals the cell (cells off screen are not rendered)
    await revealReuse();
    await page.locator(".notebookOverlay .squiggly-warning, .notebookOverlay .squiggly-error").first().waitFor();
    await shot("20-notebook-findings");
  });

  test("the quick fix in the reuse cell splits the key in the cell of its first use", async () => {
    const rows = page.locator(".action-widget .monaco-list-row", { hasText: "split" });
    for (let attempt = 1; ; attempt++) {
      await revealReuse();
      // focus may stay in the Problems panel: click the cell's first line, then move onto the reused `key`
      const lines = page.locator(".cell-editor-container .view-lines", { hasText: "b = random.normal(key" }).first();
      await lines.locator(".view-line").first().click();
      await page.locator(".cell-editor-container .monaco-editor.focused").first().waitFor();
      await page.keyboard.press("Home");
      for (let i = 0; i < 19; i++) await page.keyboard.press("ArrowRight"); // `b = random.normal(k|ey`
      await page.keyboard.press("Control+.");
      try {
        await rows.first().waitFor({ state: "visible", timeout: 10_000 });
        break;
      } catch (err) {
        await page.keyboard.press("Escape");
        if (attempt === 3) throw err;
      }
    }
    assert.match(await rows.first().innerText(), /sharpbits \(SB201\): Split `key` before its first use \(unsafe\)/);
    await shot("21-notebook-quickfix");
    await rows.first().click();
    const report = await waitForReport("the split in the cell of the first use, no SB201 left", (r) =>
      cellStarting(r, "key, subkey = random.split(key)") !== undefined &&
      !cells(r).some((c) => c.diagnostics.some((d) => d.code === "SB201")));
    const first = cellStarting(report, "key, subkey = random.split(key)")!;
    assert.equal(first.text, "key, subkey = random.split(key)\nw = random.normal(subkey, (3, 2))\nw");
    assert.ok(cellStarting(report, "b = random.normal(key, (2,))"), "the reuse cell itself is unchanged");
  });

  test("the Trace lens on a function in a cell runs the cells above it; hover and jaxpr view map to the cell", async () => {
    const cell = page.locator(".cell-editor-container", { has: page.locator(".view-lines", { hasText: "def standardise" }) }).first();
    // command mode, then the last cell (cells off screen are not rendered)
    await page.keyboard.press("Escape");
    for (let attempt = 1; !(await cell.isVisible().catch(() => false)); attempt++) {
      await page.keyboard.press("Escape");
      await page.keyboard.press("Control+End");
      if (attempt === 5) await cell.waitFor({ state: "visible", timeout: 10_000 });
      await page.waitForTimeout(500);
    }
    const lens = cell.locator(".codelens-decoration a", { hasText: "Trace" }).first();
    await lens.waitFor({ state: "visible", timeout: 60_000 });
    await shot("22-notebook-trace-lens");
    await lens.click(); // the spec comes from the cell's `# sharpbits: trace(x=f32[1000, 3])`
    const summary = cell.locator(".codelens-decoration a", { hasText: /jaxpr \d+ eqns?/ }).first();
    await summary.waitFor({ state: "visible", timeout: 120_000 });
    assert.match(await summary.innerText(), /jaxpr \d+ eqns? · compile .* · run .* · cpu/);
    // hover on the function's name (line 3 of the cell): its jaxpr, and which cells ran before it was traced
    // (clicked near the line's start: its middle may be the run-time hint after the def line, a link to the report)
    await cell.locator(".view-line", { hasText: "def standardise" }).first().click({ position: { x: 4, y: 4 } });
    await page.keyboard.press("Home");
    for (let i = 0; i < 6; i++) await page.keyboard.press("ArrowRight"); // `def st|andardise`
    await page.keyboard.press("Control+K");
    await page.keyboard.press("Control+I");
    const hover = page.locator(".monaco-hover").filter({ hasText: "lambda" }).first();
    await hover.waitFor({ state: "visible" });
    const hoverText = await hover.innerText();
    assert.match(hoverText, /standardise.*traced on/s);
    assert.match(hoverText, /ran cells 2, 3, 5, 7, 9, 11, 12, 14, 16, 18 of the notebook in order before tracing/);
    await shot("23-notebook-trace-hover");
    await page.keyboard.press("Escape");
    await cell.locator(".view-line", { hasText: "zero_first_row_right(x - x.mean(0))" }).first().click({ position: { x: 4, y: 4 } });
    await page.keyboard.press("F1");
    const input = page.locator(".quick-input-widget input");
    await input.waitFor({ state: "visible" });
    await input.fill(">Show jaxpr");
    await page.locator(".quick-input-list .monaco-list-row", { hasText: "Show jaxpr" }).first().waitFor();
    await page.keyboard.press("Enter");
    await waitForReport("the jaxpr view of standardise, coloured by the cell's lines",
      (r) => r.compiled?.kind === "jaxpr" && r.compiled.fn === "standardise" && r.compiled.colouredListingLines > 0, 120_000);
    // the cursor on line 4 of the cell (`x = zero_first_row_right(x - x.mean(0))`) highlights its equations
    await cell.locator(".view-line", { hasText: "return x / (x.std(0)" }).first().click({ position: { x: 4, y: 4 } });
    await cell.locator(".view-line", { hasText: "zero_first_row_right(x - x.mean(0))" }).first().click({ position: { x: 4, y: 4 } });
    const report = await waitForReport("jaxpr lines linked to line 4 of the cell",
      (r) => r.compiled?.sourceLine === 4 && (r.compiled?.listingLines.length ?? 0) > 0, 30_000);
    assert.ok(report.compiled!.listingLines.every((l) => l >= 0));
    await shot("24-notebook-jaxpr-view");
  });
});
