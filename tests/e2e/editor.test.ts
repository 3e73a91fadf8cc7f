// Real-editor end-to-end tests: code-server (the VS Code workbench) with the packaged .vsix installed,
// driven by headless Chromium through playwright-core. scripts/test_e2e.sh starts code-server and sets:
//   SB_E2E_URL        workbench URL with ?folder= pointing at a temporary copy of examples/
//   SB_E2E_WORKSPACE  that folder
//   SB_E2E_REPORT     the JSON file the extension's test hook (SHARPBITS_E2E_REPORT) writes
//   SB_E2E_ARTIFACTS  where screenshots go (artifacts/e2e/)
// Assertions go mostly through what the extension observes via the VS Code API (the report), plus a few UI
// checks: squiggle, Problems row, quick-fix menu, language status.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { after, before, describe, test } from "node:test";
import { Browser, Locator, Page } from "playwright-core";
import { env, openWorkbench, readJson, waitForJson, workbench } from "./harness";

const URL = env("SB_E2E_URL");
const WORKSPACE = env("SB_E2E_WORKSPACE");
const REPORT = env("SB_E2E_REPORT");
const ARTIFACTS = env("SB_E2E_ARTIFACTS");
const EXAMPLE = "in_place_update.py";
const EXAMPLE_LINE = 17; // 1-based line of `v[i] = 1.0` in examples/in_place_update.py

interface ReportDiagnostic {
  code: string | null;
  href: string | null;
  source: string | null;
  message: string;
  severity: string;
  range: [number, number, number, number];
}
interface ShardedValue { name: string; role: string; spec: string; grid?: { rows: string[]; cols: string[]; cells: { devices: number[] }[][] } }
interface Report {
  seq: number;
  traceReport?: { fn: string; sharding?: { devices: number; values: ShardedValue[]; collectives: string[] } } | null;
  compiled?: { kind?: string; fn?: string; sourceLine?: number; listingLines: number[]; colouredListingLines: number; colouredSourceLines: number } | null;
  worker?: string | null;
  traceLaunchPrefix?: string | null;
  activated: boolean;
  state: string;
  reason: string | null;
  interpreter: string[] | null;
  diagnostics: Record<string, ReportDiagnostic[]>;
  documents: Record<string, { version: number; dirty: boolean; text: string }>;
}

const readReport = (): Report | undefined => readJson<Report>(REPORT);

const waitForReport = (what: string, predicate: (r: Report) => boolean, timeoutMs = 60_000): Promise<Report> =>
  waitForJson<Report>(REPORT, what, predicate, timeoutMs, (last) =>
    last
      ? JSON.stringify({ state: last.state, reason: last.reason, interpreter: last.interpreter, diagnostics: last.diagnostics }, null, 1)
      : "no report written (did the extension activate?)");

const exampleDiagnostics = (r: Report): ReportDiagnostic[] =>
  Object.entries(r.diagnostics)
    .filter(([uri]) => uri.endsWith(`/${EXAMPLE}`))
    .flatMap(([, items]) => items.filter((d) => d.source === "sharpbits"));
const exampleText = (r: Report): string | undefined =>
  Object.entries(r.documents).find(([uri]) => uri.endsWith(`/${EXAMPLE}`))?.[1].text;

const fileDiagnostics = (r: Report, file: string): ReportDiagnostic[] =>
  Object.entries(r.diagnostics)
    .filter(([uri]) => uri.endsWith(`/${file}`))
    .flatMap(([, items]) => items);
const fileText = (r: Report, file: string): string | undefined =>
  Object.entries(r.documents).find(([uri]) => uri.endsWith(`/${file}`))?.[1].text;

let browser: Browser;
let page: Page;

const { shot, quickOpen, goToLine, runCommand, showFile } = workbench(() => page, ARTIFACTS);

async function openFile(file: string): Promise<void> {
  await showFile(file);
  await waitForReport(`${file} to be open`, (r) => fileText(r, file) !== undefined);
}

/** Opens the quick-fix menu at a position and waits for an item (retrying: the menu can miss a keystroke sent
 * while the editor is still settling after a file opens or an edit). */
async function openQuickFix(line: number, column: number, hasText?: string): Promise<Locator> {
  const rows = page.locator(".action-widget .monaco-list-row", hasText ? { hasText } : {});
  for (let attempt = 1; ; attempt++) {
    await page.locator(".monaco-editor .view-lines").first().click();
    await goToLine(line, column);
    await page.keyboard.press("Control+.");
    try {
      await rows.first().waitFor({ state: "visible", timeout: 10_000 });
      return rows.first();
    } catch (err) {
      await page.keyboard.press("Escape");
      if (attempt === 3) throw err;
    }
  }
}

async function quickFixTitles(line: number, column: number): Promise<string[]> {
  await openQuickFix(line, column);
  const titles = await page.locator(".action-widget .monaco-list-row").allInnerTexts();
  await page.keyboard.press("Escape");
  return titles;
}

describe("sharpbits in a real VS Code (code-server)", { concurrency: false }, () => {
  before(async () => {
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    ({ browser, page } = await openWorkbench(URL));
  });

  after(async () => {
    await shot("final");
    await browser?.close();
  });

  test("the extension activates when an example file is opened", async () => {
    assert.equal(readReport(), undefined, "the extension was active before any Python file was opened");
    await quickOpen(EXAMPLE);
    await page.locator(".quick-input-list .monaco-list-row", { hasText: EXAMPLE }).first().waitFor();
    await page.keyboard.press("Enter");
    await page.locator(`.tab[data-resource-name="${EXAMPLE}"], .tab:has-text("${EXAMPLE}")`).first().waitFor();
    const report = await waitForReport("the extension to activate and open the example", (r) => r.activated && exampleText(r) !== undefined);
    assert.equal(report.activated, true);
    await shot("01-opened");
  });

  test("the language status shows the server running with the interpreter", async () => {
    const report = await waitForReport("server state running", (r) => r.state === "running" || r.state === "error");
    assert.equal(report.state, "running", `server state ${report.state}: ${report.reason}`);
    assert.deepEqual(report.interpreter, [env("SB_E2E_PYTHON")]);
    // UI: the language status hover (the {} next to "Python" in the status bar) lists our item.
    const languageStatus = page.locator("#status\\.languageStatus, .statusbar-item[id='status.languageStatus']").first();
    await languageStatus.waitFor({ state: "visible" });
    await languageStatus.hover();
    const hover = page.locator(".monaco-hover, .hover-contents, .workbench-hover").filter({ hasText: "JAX Sharp Bits" }).first();
    if (!(await hover.isVisible().catch(() => false))) await languageStatus.click();
    await hover.waitFor({ state: "visible" });
    const text = await hover.innerText();
    assert.match(text, /JAX Sharp Bits: running/);
    assert.match(text, new RegExp(env("SB_E2E_PYTHON").replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")));
    await shot("02-language-status");
    await page.keyboard.press("Escape");
    await page.mouse.move(640, 300);
  });

  test("the in-place update shows as a squiggle and as a Problems row with code SB101", async () => {
    const report = await waitForReport("an SB101 diagnostic on the example", (r) => exampleDiagnostics(r).some((d) => d.code === "SB101"));
    const diagnostics = exampleDiagnostics(report);
    assert.equal(diagnostics.length, 1, `expected exactly one finding, got ${JSON.stringify(diagnostics)}`);
    const [d] = diagnostics;
    assert.equal(d.code, "SB101");
    assert.equal(d.source, "sharpbits");
    assert.equal(d.range[0], EXAMPLE_LINE - 1, "the finding is on the `v[i] = 1.0` line");
    assert.match(d.message, /immutable/i);
    // the rule page of the installed version (written once by the server), or sharpbits.docsUrl when set
    assert.ok(d.href && /^file:\/\/.*in-place-update/.test(d.href), `codeDescription.href: ${d.href}`);
    // UI: the squiggle in the editor ...
    await page.locator(".monaco-editor .squiggly-error, .monaco-editor .squiggly-warning, .monaco-editor .squiggly-info").first().waitFor();
    // ... and the Problems panel row with the code.
    await page.keyboard.press("Control+Shift+M");
    const row = page.locator(".markers-panel .monaco-list-row", { hasText: "SB101" }).first();
    await row.waitFor({ state: "visible" });
    assert.match(await row.innerText(), /sharpbits/);
    await shot("03-problems");
  });

  test("the NumPy in-place update stays silent", async () => {
    const report = readReport();
    assert.ok(report);
    const lines = exampleDiagnostics(report).map((d) => d.range[0] + 1);
    const numpyLine = exampleText(report)!.split("\n").findIndex((l) => l.includes("result[row] = ")) + 1;
    assert.ok(numpyLine > 0);
    assert.ok(!lines.includes(numpyLine), `NumPy line ${numpyLine} was flagged: ${lines}`);
  });

  test("the quick fix rewrites to the .at[] form and the diagnostic disappears", async () => {
    // Put the cursor inside `v[i]` and open the quick-fix menu (Ctrl+.).
    const item = await openQuickFix(EXAMPLE_LINE, 6, "sharpbits (SB101): ");
    assert.match(await item.innerText(), /sharpbits \(SB101\): .*\.at\[/);
    await shot("04-quickfix-menu");
    await item.click();
    const report = await waitForReport(
      "the fixed text and no SB101 on the example",
      (r) => (exampleText(r) ?? "").includes("v = v.at[i].set(1.0)") && !exampleDiagnostics(r).some((d) => d.code === "SB101"),
      30_000,
    );
    const text = exampleText(report)!;
    assert.ok(!/^\s*v\[i\] = 1\.0/m.test(text), "the old statement is gone");
    assert.match(text, /result\[row\] = result\[row\] \/ result\[row\]\.sum\(\)/, "the NumPy update is untouched");
    await page.locator(".monaco-editor .squiggly-error, .monaco-editor .squiggly-warning").first().waitFor({ state: "detached", timeout: 15_000 });
    await shot("05-fixed");
    // The test works on a copy: the repo's example file is untouched.
    assert.ok(path.resolve(WORKSPACE) !== path.resolve(__dirname, "..", "..", "examples"));
  });

  test("every rule shows in the editor with its code, and its quick fix is offered", async () => {
    const expected: [string, string, number, number, RegExp][] = [
      ["boolean_indexing_in_jit.py", "SB102", 9, 12, /sharpbits \(SB102\): Use `jnp\.where/],
      ["prng_key_reuse.py", "SB201", 12, 30, /sharpbits \(SB201\): Split `key`.* \(unsafe\)/],
      ["python_loop_in_jit.py", "SB301", 16, 5, /sharpbits \(SB301\): Rewrite as `lax\.fori_loop`/],
      ["global_captured_in_jit.py", "SB401", 13, 40, /sharpbits \(SB401\): Pass `temperature` as an argument \(changes `.*`'s signature; unsafe\)/],
      ["host_conversion_in_jit.py", "SB103", 10, 30, /sharpbits \(SB103\): Use `jnp\.exp`/],
    ];
    for (const [file, code, line, column, fix] of expected) {
      await openFile(file);
      const report = await waitForReport(`${code} on ${file}`, (r) => fileDiagnostics(r, file).some((d) => d.code === code));
      const found = fileDiagnostics(report, file).filter((d) => d.code === code);
      assert.ok(found.some((d) => d.range[0] === line - 1), `${code} on line ${line} of ${file}: ${JSON.stringify(found)}`);
      const titles = await quickFixTitles(line, column);
      assert.ok(titles.some((t) => fix.test(t)), `quick fixes at ${file}:${line}: ${JSON.stringify(titles)}`);
    }
    await shot("06-every-rule");
  });

  test("the loop quick fix rewrites to lax.fori_loop, the diagnostic disappears and the file still runs", async () => {
    const file = "python_loop_in_jit.py";
    await openFile(file);
    await waitForReport("the loop diagnostic", (r) => fileDiagnostics(r, file).some((d) => d.code === "SB301" && d.range[0] === 15));
    const item = await openQuickFix(16, 5, "fori_loop");
    await shot("07-loop-fix-menu");
    await item.click();
    const report = await waitForReport(
      "the rewritten loop and no 1000-iteration diagnostic",
      (r) => (fileText(r, file) ?? "").includes("lax.fori_loop(") && !fileDiagnostics(r, file).some((d) => /unrolled 1000 times/.test(d.message)),
      30_000,
    );
    const text = fileText(report, file)!;
    assert.ok(!text.includes("for i in range(1000)"), "the Python loop is gone");
    assert.match(text, /def loop_body\(i, total\):/);
    await page.keyboard.press("Control+S");
    await waitForReport("the file saved", (r) => Object.entries(r.documents).some(([uri, d]) => uri.endsWith(`/${file}`) && !d.dirty));
    const saved = fs.readFileSync(path.join(WORKSPACE, file), "utf8");
    assert.ok(saved.includes("lax.fori_loop("));
    // the rewritten file still runs and computes what the loop computed: sum of x[i % 8] for i < 1000
    const script = "import runpy, sys, numpy as np; m = runpy.run_path(sys.argv[1]); print(float(m['running_sum'](np.arange(8.0, dtype=np.float32))))";
    const out = execFileSync(env("SB_E2E_PYTHON"), ["-c", script, path.join(WORKSPACE, file)], { encoding: "utf8", timeout: 120_000 });
    assert.equal(Number(out.trim()), 125 * 28);
    await shot("08-loop-fixed");
  });

  test("traced-control-flow: a Python `if` on a traced value shows as an error with code SB302", async () => {
    const file = "traced_control_flow.py";
    await openFile(file);
    const report = await waitForReport("an SB302 diagnostic", (r) => fileDiagnostics(r, file).some((d) => d.code === "SB302"));
    const found = fileDiagnostics(report, file).filter((d) => d.source === "sharpbits");
    assert.equal(found.length, 1, `expected only the traced \`if\`: ${JSON.stringify(found)}`);
    const [d] = found;
    assert.equal(d.range[0], 9, "on the `if x > 0:` line (the static-argument and shape branches stay silent)");
    assert.equal(d.severity, "Error");
    assert.match(d.message, /TracerBoolConversionError/);
    assert.match(d.message, /lax\.cond/);
    assert.ok(d.href?.endsWith("/traced-control-flow.md"), `codeDescription.href: ${d.href}`);
    await page.locator(".monaco-editor .squiggly-error").first().waitFor();
    await shot("13-traced-control-flow");
  });

  test("print-in-jit: the quick fix turns `print` into `jax.debug.print` and the diagnostic disappears", async () => {
    const file = "print_in_jit.py";
    await openFile(file);
    await waitForReport("an SB402 diagnostic", (r) => fileDiagnostics(r, file).some((d) => d.code === "SB402" && d.range[0] === 8));
    const item = await openQuickFix(9, 6, "jax.debug.print");
    assert.match(await item.innerText(), /sharpbits \(SB402\): Use `jax\.debug\.print`/);
    await shot("14-print-fix-menu");
    await item.click();
    const report = await waitForReport(
      "jax.debug.print in the text and no SB402",
      (r) => (fileText(r, file) ?? "").includes('jax.debug.print("total: {}", total)') && !fileDiagnostics(r, file).some((d) => d.code === "SB402"),
      30_000,
    );
    const text = fileText(report, file)!;
    assert.ok(!text.includes('print("total:", total)'), "the trace-time print is gone");
    assert.match(text, /print\("tracing normalise_logged for shape", x\.shape\)/, "the shape print is untouched");
    await shot("15-print-fixed");
  });

  test("tracing: the CodeLens traces a function and shows its summary, hover shows the jaxpr", async () => {
    const file = "tracing_selu.py";
    await openFile(file);
    const lens = page.locator(".codelens-decoration a", { hasText: "Trace" }).first();
    await lens.waitFor({ state: "visible", timeout: 60_000 });
    // the worker starts at the first trace, not when the folder opens
    await waitForReport("tracing on, no worker yet", (r) => r.worker === "tracing on: the worker starts at the first trace", 30_000);
    await lens.click();
    const summary = page.locator(".codelens-decoration a", { hasText: /jaxpr \d+ eqns?/ }).first();
    await summary.waitFor({ state: "visible", timeout: 120_000 });
    assert.match(await summary.innerText(), /jaxpr \d+ eqns? · compile .* · run .* · cpu/);
    await shot("09-codelens");
    // hover on the function's name: its jaxpr
    await page.locator(".monaco-editor .view-lines").first().click();
    await goToLine(8, 6);
    await page.keyboard.press("Control+K");
    await page.keyboard.press("Control+I");
    const hover = page.locator(".monaco-hover").filter({ hasText: "lambda" }).first();
    await hover.waitFor({ state: "visible" });
    const hoverText = await hover.innerText();
    assert.match(hoverText, /selu.*traced on/s);
    assert.match(hoverText, /Open the trace report of selu/, "the hover links to the trace report");
    // the compile time split, and the roofline against this CPU's measured peak
    assert.match(hoverText, /compile .* = tracing .* \+ lowering .* \+ XLA compile/);
    assert.match(hoverText, /roofline: .*flop\/byte.*(memory|compute)-bound: \d+% of peak .*measured on this CPU/s);
    await shot("10-hover-jaxpr");
    await page.keyboard.press("Escape");
    // inlay hints: the run time after the def line, equations per line
    const lines = await page.locator(".monaco-editor .view-lines").first().innerText();
    assert.match(lines, /def\s+selu[^\n]*run\W+\d/); // (the editor renders spaces as no-break spaces)
    // the roofline next to the run time (which bound depends on this CPU's measured peaks: selu's intensity of
    // about 1 flop/byte sits near a busy machine's ridge, so either is right; the share is never above 100%)
    const seluRoofline = /def\s+selu[^\n]*run[^\n]*(?:memory|compute)-bound:\W+(\d+)%\W+of\W+peak/.exec(lines);
    assert.ok(seluRoofline, lines);
    assert.ok(Number(seluRoofline[1]) <= 100, seluRoofline[0]);
    assert.match(lines, /\d+\s+eqns?/); // (VS Code renders the hint's spaces as no-break spaces)
    // the run time after the def line links to the trace report (Ctrl+click: how VS Code runs an inlay hint's command)
    const runHint = page.locator(".monaco-editor .view-lines span").filter({ hasText: /^run\W+[\d.]+\W/ }).filter({ visible: true }).last();
    await runHint.click({ modifiers: ["Control"] });
    const report = await waitForReport("the report of selu opened from its run time", (r) => r.traceReport?.fn === "selu", 60_000);
    assert.equal(report.traceReport!.fn, "selu");
    const tab = page.locator(".tab", { hasText: "Trace: selu" }).first();
    await tab.waitFor({ state: "visible" });
    await tab.click({ button: "middle" }); // (closed again: the next tests work in the source's group)
    await tab.waitFor({ state: "detached" });
  });

  test("tracing: the optimized HLO view opens beside the source with its lines linked", async () => {
    const file = "tracing_selu.py";
    await page.locator(`.tab:has-text("${file}")`).first().click();
    await page.locator(".monaco-editor .view-lines").first().click();
    await goToLine(9, 10);
    await runCommand("Show optimized HLO");
    let report = await waitForReport("the HLO view coloured by source line",
      (r) => r.compiled?.kind === "hlo" && r.compiled.fn === "selu" && r.compiled.colouredListingLines > 0, 120_000);
    assert.ok(report.compiled!.colouredSourceLines >= 1);
    await page.locator(".tab", { hasText: "selu.hlo" }).first().waitFor({ state: "visible" });
    // moving the cursor in the source highlights the HLO ops that came from that line
    await page.locator(".monaco-editor .view-lines").first().click();
    await goToLine(8, 1);
    await goToLine(9, 5);
    report = await waitForReport("HLO lines linked to source line 9",
      (r) => r.compiled?.sourceLine === 9 && (r.compiled?.listingLines.length ?? 0) > 0, 30_000);
    assert.ok(report.compiled!.listingLines.every((l) => l >= 0));
    await shot("11-hlo-linked");
  });

  test("tracing: a JAX error raised while tracing shows at the user's line", async () => {
    const file = "boolean_indexing_in_jit.py";
    await openFile(file);
    const lens = page.locator(".codelens-decoration a", { hasText: "Trace" }).first();
    await lens.waitFor({ state: "visible", timeout: 60_000 });
    await lens.click();
    const input = page.locator(".quick-input-widget input");
    await input.waitFor({ state: "visible" }); // no directive: it asks for example inputs
    await input.fill("x=f32[8]");
    await page.keyboard.press("Enter");
    const report = await waitForReport("a trace-confirmed diagnostic",
      (r) => fileDiagnostics(r, file).some((d) => d.source === "sharpbits (trace)"), 120_000);
    const traced = fileDiagnostics(report, file).filter((d) => d.source === "sharpbits (trace)");
    assert.equal(traced[0].code, "NonConcreteBooleanIndexError");
    assert.equal(traced[0].range[0], 8, "on the `x.at[x < 0].set(0)` line");
    assert.ok(fileDiagnostics(report, file).some((d) => d.source === "sharpbits" && d.range[0] === 8), "next to the static finding");
    await shot("12-trace-error");
  });

  test("tracing: a trace confirms the loop finding with the loop's measured equations and compile time", async () => {
    const file = "tracing_loops.py";
    await openFile(file);
    let report = await waitForReport("the static loop finding",
      (r) => fileDiagnostics(r, file).some((d) => d.code === "SB301" && d.range[0] === 13), 60_000);
    assert.equal(fileDiagnostics(report, file).find((d) => d.code === "SB301" && d.range[0] === 13)!.severity, "Information");
    const lens = page.locator(".codelens-decoration a", { hasText: "Trace" }).first();
    await lens.waitFor({ state: "visible", timeout: 60_000 });
    await lens.click(); // python_loop: 1000 iterations, unrolled into 3,000 equations
    report = await waitForReport("the trace-confirmed loop finding",
      (r) => fileDiagnostics(r, file).some((d) => d.code === "SB301" && /\(trace: unrolled into/.test(d.message)), 180_000);
    const confirmed = fileDiagnostics(report, file).find((d) => d.code === "SB301" && d.range[0] === 13)!;
    assert.match(confirmed.message, /\(trace: unrolled into 3,000 of 3,000 equations, ≈.* of the .* compile\)/);
    assert.equal(confirmed.severity, "Warning", "a large unrolled loop is raised to warning");
    await shot("13-trace-confirmed-loop");
  });

  // ---- what the trace tells: roofline, compile time, sharding (issue 13) ----------------------------------------

  /** The CodeLenses of the editor in view (editors opened before keep theirs in the page, hidden). */
  const visibleLenses = (hasText?: string | RegExp): Locator =>
    page.locator(".codelens-decoration a", hasText ? { hasText } : {}).filter({ visible: true });

  /** Traces the first function whose CodeLens still says Trace; waits for its summary (or its failure). */
  async function traceFirstUntraced(summaries: number): Promise<void> {
    const lens = visibleLenses("Trace").first();
    await lens.waitFor({ state: "visible", timeout: 60_000 });
    await lens.click();
    const done = visibleLenses(/jaxpr \d+ eqns?|trace failed/).nth(summaries - 1);
    await done.waitFor({ state: "visible", timeout: 180_000 });
    assert.match(await done.innerText(), /jaxpr \d+ eqns? · compile .* · run .* · cpu/);
  }

  /** One editor group, no panel: the traced file in full view (CodeLenses are drawn only on lines in view) and the
   * screenshots the README uses clean. */
  async function oneEditorNoPanel(): Promise<void> {
    if (await page.locator(".part.panel").isVisible().catch(() => false)) {
      await runCommand("View: Toggle Panel Visibility");
      await page.locator(".part.panel").waitFor({ state: "hidden" });
    }
    if ((await page.locator(".editor-group-container").count()) > 1) {
      await runCommand("Single Column Editor Layout");
      await page.locator(".editor-group-container").nth(1).waitFor({ state: "detached" });
    }
  }

  /** Opens the hover at a position (Ctrl+K Ctrl+I) and returns it once it shows `hasText`. */
  async function hoverAt(line: number, column: number, hasText: string): Promise<Locator> {
    await page.locator(".monaco-editor .view-lines").first().click();
    await goToLine(line, column);
    await page.keyboard.press("Control+K");
    await page.keyboard.press("Control+I");
    const hover = page.locator(".monaco-hover").filter({ hasText }).first();
    await hover.waitFor({ state: "visible" });
    return hover;
  }

  test("tracing: the roofline shows next to the run time: a large matmul compute-bound, a scaling memory-bound", async () => {
    const file = "tracing_matmul.py";
    await oneEditorNoPanel();
    await openFile(file);
    await goToLine(13, 1);
    await traceFirstUntraced(1); // matmul
    await traceFirstUntraced(2); // scale
    // inlay hints after each def line: the run time, then where it sits on the roofline
    // (whole: VS Code cuts a hint past 43 characters with an ellipsis; the peak figure is in the hover)
    const lines = (await page.locator(".monaco-editor .view-lines").first().innerText()).split("\n");
    const defLine = (name: string) => lines.find((l) => new RegExp(`def\\s+${name}\\(`).test(l)) ?? "";
    assert.match(defLine("matmul"), /\)\s*:\s*run\s+[\d.]+\s+[µm]?s\s+·\s+compute-bound:\s+\d+%\s+of\s+peak\s*$/);
    assert.match(defLine("scale"), /\)\s*:\s*run\s+[\d.]+\s+[µm]?s\s+·\s+memory-bound:\s+\d+%\s+of\s+peak\s*$/);
    // the hover: achieved rates, intensity, the bound and where the peak figure came from
    const hover = await hoverAt(13, 6, "roofline");
    const text = await hover.innerText();
    assert.match(text, /matmul.*traced on/s);
    assert.match(text, /roofline: [\d.]+ [kMGT]?FLOP\/s · [\d.]+ [kMGT]?B\/s · 171 flop\/byte · compute-bound: \d+% of peak [\d.]+ [kMGT]?FLOP\/s[^\n]*\(measured on this CPU/);
    await shot("16-roofline");
    await page.keyboard.press("Escape");
  });

  test("tracing: the hover splits the compile time into tracing, lowering and XLA compile, with the lines behind it", async () => {
    const file = "tracing_loops.py";
    await oneEditorNoPanel();
    await openFile(file);
    await goToLine(13, 1);
    const first = visibleLenses().first(); // python_loop's (traced by the test above)
    await first.waitFor({ state: "visible", timeout: 60_000 });
    if (/Trace/.test(await first.innerText())) await traceFirstUntraced(1);
    const hover = await hoverAt(13, 6, "most of the");
    const text = await hover.innerText();
    assert.match(text, /python_loop.*traced on/s);
    const time = String.raw`[\d.]+ (?:µs|ms|s)`;
    // 1000 iterations of `x = 0.5 * x + jnp.sin(x)` (line 15): every equation, and so the compile time, is that line's
    assert.match(text, new RegExp(`compile ${time}( \\(cached\\))? = tracing ${time} \\+ lowering ${time} \\+ XLA compile ${time}` +
      String.raw`( \(read from the persistent cache\))?; most of the 3,000 equations: line 15 \(3,000, 100%\)`));
    await shot("17-compile-split");
    await page.keyboard.press("Escape");
  });

  test("tracing: a function sharded over 8 host devices shows each argument's device grid and its collectives at their lines", async () => {
    // 8 CPU devices: XLA_FLAGS must reach the worker; the launch prefix (a workspace setting here) passes it
    const prefix = "env XLA_FLAGS=--xla_force_host_platform_device_count=8";
    const settingsDir = path.join(WORKSPACE, ".vscode");
    fs.mkdirSync(settingsDir, { recursive: true });
    fs.writeFileSync(path.join(settingsDir, "settings.json"), JSON.stringify({ "sharpbits.trace.launchPrefix": prefix }));
    try {
      await waitForReport("the launch prefix pushed to the server", (r) => r.traceLaunchPrefix === prefix, 30_000);
      const file = "tracing_sharding.py";
      await oneEditorNoPanel();
      await openFile(file);
      await goToLine(22, 1);
      await traceFirstUntraced(1);
      const hover = await hoverAt(22, 6, "sharding over");
      const text = await hover.innerText();
      assert.match(text, /sharding over 8 devices:/);
      // x: rows split over `data` (4 blocks), each block on the 2 devices of `model`
      assert.match(text, /x float32\[64, 32\] P\('data', None\) \(split over 8 devices\)/);
      assert.match(text, /0:32\s+0:16\s+0,1\s+16:32\s+2,3\s+32:48\s+4,5\s+48:64\s+6,7/);
      // w: columns split over `model`, each block on the 4 devices of `data`
      assert.match(text, /w float32\[32, 16\] P\(None, 'model'\) \(split over 8 devices\)/);
      assert.match(text, /0:8\s+8:16\s+0:32\s+0,2,4,6\s+1,3,5,7/);
      assert.match(text, /result float32\[\] P\(\) \(replicated\)\n+collectives: /, "the collectives on a line of their own");
      assert.match(text, /collectives: all-gather 1\.00 KiB \(line 24\), all-reduce 4 B \(line 27\)/);
      // each collective as an inlay hint at the end of the line it came from
      const lines = await page.locator(".monaco-editor .view-lines").first().innerText();
      assert.match(lines, /h\s=\sjnp\.tanh\(x\s@\sw\)\s*all-gather\s+1\.00\s+KiB/);
      assert.match(lines, /\.sum\(\)\s*all-reduce\s+4\s+B/);
      // for the screenshot: scroll the hover (the wheel over it) until the sharding section is at its top
      const heading = hover.getByText("sharding over 8 devices").first();
      for (let attempt = 0; attempt < 10; attempt++) { // (smooth scrolling: only the screenshot depends on it)
        const [box, section] = await Promise.all([hover.boundingBox(), heading.boundingBox()]);
        if (!box || !section || section.y - box.y < 16) break;
        await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
        await page.mouse.wheel(0, section.y - box.y - 8);
        await page.waitForTimeout(250);
      }
      await shot("18-sharding");
      await page.keyboard.press("Escape");
      // the hover's link opens the trace report, which draws each split value's device grid
      const again = await hoverAt(22, 6, "sharding over");
      const link = again.locator("a", { hasText: "Open the trace report of layer" }).first();
      await link.waitFor({ state: "visible" });
      await link.click();
      const shown = await waitForReport("the report of layer with its sharding", (r) => r.traceReport?.fn === "layer" && !!r.traceReport.sharding, 120_000);
      const sharding = shown.traceReport!.sharding!;
      assert.equal(sharding.devices, 8);
      const x = sharding.values.find((v) => v.name === "x")!;
      assert.deepEqual([x.role, x.spec, x.grid?.rows, x.grid?.cols], ["argument", "P('data', None)", ["0:16", "16:32", "32:48", "48:64"], ["0:32"]]);
      assert.deepEqual(x.grid!.cells.map((row) => row.map((c) => c.devices.join(","))), [["0,1"], ["2,3"], ["4,5"], ["6,7"]]);
      const w = sharding.values.find((v) => v.name === "w")!;
      assert.deepEqual(w.grid!.cells.map((row) => row.map((c) => c.devices.join(","))), [["0,2,4,6", "1,3,5,7"]]);
      assert.deepEqual(sharding.collectives, ["all-gather 1.00 KiB (line 24)", "all-reduce 4 B (line 27)"]);
      // the page: a grid for x (4 blocks) and w (2), in the theme's chart colours
      await page.locator(".tab", { hasText: "Trace: layer" }).first().waitFor({ state: "visible" });
      const frame = page.frameLocator("iframe.webview.ready >> visible=true").frameLocator("iframe#active-frame");
      const section = frame.locator("#sharding");
      await section.waitFor({ state: "visible", timeout: 30_000 });
      await section.scrollIntoViewIfNeeded();
      assert.equal(await frame.locator('table.grid[data-value="x"] td.block').count(), 4);
      assert.deepEqual(await frame.locator('table.grid[data-value="w"] td.block').allInnerTexts(), ["0,2,4,6", "1,3,5,7"]);
      const colours = await frame.locator('table.grid[data-value="x"] td.block').evaluateAll((cells) =>
        cells.map((c) => (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }).getComputedStyle(c).backgroundColor));
      assert.equal(new Set(colours).size, 4, `each block of x its own colour: ${colours}`);
      assert.ok(colours.every((c) => c !== "rgba(0, 0, 0, 0)" && c !== "transparent"), `the theme's colours resolved: ${colours}`);
      await page.keyboard.press("Escape"); // (the hover stays open over the source after its link was clicked)
      await page.mouse.move(1000, 700);
      await again.waitFor({ state: "hidden" });
      await shot("ux-07-sharding-report");
    } finally {
      fs.rmSync(settingsDir, { recursive: true, force: true }); // later tests trace on one device again
      await waitForReport("the launch prefix gone", (r) => !r.traceLaunchPrefix, 30_000).catch(() => undefined);
    }
  });
});
