// Real-editor end-to-end tests: code-server (the VS Code workbench) with the packaged .vsix installed,
// driven by headless Chromium through playwright-core. scripts/test_e2e.sh starts code-server and sets:
//   SB_E2E_URL        workbench URL with ?folder= pointing at a temporary copy of examples/
//   SB_E2E_WORKSPACE  that folder
//   SB_E2E_REPORT     the JSON file the extension's test hook (SHARPBITS_E2E_REPORT) writes
//   SB_E2E_ARTIFACTS  where screenshots go (artifacts/e2e/)
// Assertions go mostly through what the extension observes via the VS Code API (the report), plus a few UI
// checks: squiggle, Problems row, quick-fix menu, language status.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { after, before, describe, test } from "node:test";
import { Browser, chromium, Page } from "playwright-core";

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run this through scripts/test_e2e.sh`);
  return value;
};

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
interface Report {
  seq: number;
  activated: boolean;
  state: string;
  reason: string | null;
  interpreter: string[] | null;
  diagnostics: Record<string, ReportDiagnostic[]>;
  documents: Record<string, { version: number; dirty: boolean; text: string }>;
}

function readReport(): Report | undefined {
  try {
    return JSON.parse(fs.readFileSync(REPORT, "utf8")) as Report;
  } catch {
    return undefined;
  }
}

async function waitForReport(what: string, predicate: (r: Report) => boolean, timeoutMs = 60_000): Promise<Report> {
  const deadline = Date.now() + timeoutMs;
  let last: Report | undefined;
  while (Date.now() < deadline) {
    last = readReport();
    if (last && predicate(last)) return last;
    await new Promise((r) => setTimeout(r, 200));
  }
  const summary = last
    ? JSON.stringify({ state: last.state, reason: last.reason, interpreter: last.interpreter, diagnostics: last.diagnostics }, null, 1)
    : "no report written (did the extension activate?)";
  throw new Error(`timed out after ${timeoutMs} ms waiting for: ${what}\nlast report: ${summary}`);
}

const exampleDiagnostics = (r: Report): ReportDiagnostic[] =>
  Object.entries(r.diagnostics)
    .filter(([uri]) => uri.endsWith(`/${EXAMPLE}`))
    .flatMap(([, items]) => items.filter((d) => d.source === "sharpbits"));
const exampleText = (r: Report): string | undefined =>
  Object.entries(r.documents).find(([uri]) => uri.endsWith(`/${EXAMPLE}`))?.[1].text;

let browser: Browser;
let page: Page;

async function shot(name: string): Promise<void> {
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) }).catch(() => undefined);
}

/** Runs a quick-open query: F1 opens the command palette with '>', which we delete for file / line modes. */
async function quickOpen(text: string): Promise<void> {
  await page.keyboard.press("F1");
  const input = page.locator(".quick-input-widget input");
  await input.waitFor({ state: "visible" });
  await input.fill(text);
}

async function goToLine(line: number, column: number): Promise<void> {
  await quickOpen(`:${line}:${column}`);
  await page.keyboard.press("Enter");
  await page.locator(".quick-input-widget").waitFor({ state: "hidden" });
}

describe("sharpbits in a real VS Code (code-server)", { concurrency: false }, () => {
  before(async () => {
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
      headless: true,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.setDefaultTimeout(30_000);
    await page.goto(URL);
    await page.locator(".monaco-workbench").waitFor({ state: "visible", timeout: 60_000 });
    await page.locator(".explorer-folders-view, .explorer-viewlet").first().waitFor({ state: "visible", timeout: 60_000 });
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
    assert.match(d.message, /in-place/i);
    assert.ok(d.href && /^https?:\/\//.test(d.href), `codeDescription.href: ${d.href}`);
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
    await page.locator(".monaco-editor .view-lines").first().click();
    await goToLine(EXAMPLE_LINE, 6);
    await page.keyboard.press("Control+.");
    const item = page.locator(".action-widget .monaco-list-row", { hasText: "Fix: " }).first();
    await item.waitFor({ state: "visible" });
    assert.match(await item.innerText(), /Fix: .*\.at\[/);
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
});
