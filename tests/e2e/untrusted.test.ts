// Workspace Trust in the real editor: in an untrusted (Restricted Mode) workspace the static diagnostics work
// but nothing executes user code: no trace worker starts, no Trace lens is offered, and the Show jaxpr /
// StableHLO / HLO commands (which send sharpbits/trace) are refused by the server with its reason. Granting
// trust enables tracing without a reload; the worker then starts at the first trace. The workspace also holds
// modules named like the server's imports (json.py, enum.py, typing_extensions.py, ...) that write a marker
// when imported: none may ever be written. scripts/test_e2e.sh runs a second code-server with workspace trust
// on and sets: SB_E2E_UNTRUSTED_URL, SB_E2E_UNTRUSTED_REPORT, SB_E2E_UNTRUSTED_PID (its process group),
// SB_E2E_UNTRUSTED_WORKSPACE, SB_E2E_MARKERS, SB_E2E_ARTIFACTS
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { after, before, describe, test } from "node:test";
import { Browser, Page } from "playwright-core";
import { env, openWorkbench, waitForJson, workbench } from "./harness";

const URL = env("SB_E2E_UNTRUSTED_URL");
const REPORT = env("SB_E2E_UNTRUSTED_REPORT");
const GROUP = Number(env("SB_E2E_UNTRUSTED_PID"));
const WORKSPACE = env("SB_E2E_UNTRUSTED_WORKSPACE");
const MARKERS = env("SB_E2E_MARKERS");
const ARTIFACTS = env("SB_E2E_ARTIFACTS");
const markers = (): string[] => fs.readdirSync(MARKERS).sort();

interface Report {
  trusted: boolean;
  state: string;
  worker: string | null;
  diagnostics: Record<string, { code: string | null; source: string | null }[]>;
}

const waitForReport = (what: string, predicate: (r: Report) => boolean, timeoutMs = 60_000): Promise<Report> =>
  waitForJson<Report>(REPORT, what, predicate, timeoutMs,
    (last) => JSON.stringify(last && { trusted: last.trusted, state: last.state, worker: last.worker }));

function parentOf(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
}

/** Processes whose command line contains `needle`, started under the untrusted code-server. The worker gets a
 * session of its own, so descent is followed through parent pids, not the process group. */
function descendants(needle: string): number[] {
  const found: number[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!fs.readFileSync(`/proc/${entry}/cmdline`, "utf8").includes(needle)) continue;
      for (let pid = Number(entry); pid > 1; pid = parentOf(pid)) {
        if (pid === GROUP) {
          found.push(Number(entry));
          break;
        }
      }
    } catch {
      // the process ended while we looked
    }
  }
  return found;
}

/** Trace workers: processes running the worker's bootstrap (its first line, client.BOOTSTRAP_MARK, names it). */
const traceWorkers = (): number[] => descendants("# sharpbits trace worker");

let browser: Browser;
let page: Page;
const wb = workbench(() => page, ARTIFACTS);
const { shot, goToLine, showFile: openFile } = wb;
/** Runs a command that opens no prompt of its own (and waits for the palette to close). */
const runCommand = (title: string) => wb.runCommand(title, { closes: true });

describe("an untrusted workspace", { concurrency: false }, () => {
  before(async () => {
    ({ browser, page } = await openWorkbench(URL, { explorer: false }));
    // The folder opens in Restricted Mode (code-server does so without asking; VS Code may ask first: say no).
    const no = page.locator(".monaco-dialog-box .monaco-button", { hasText: /No|Don't Trust|Restricted/ }).first();
    if (await no.isVisible({ timeout: 5_000 }).catch(() => false)) await no.click();
    await page.locator(".statusbar-item", { hasText: "Restricted Mode" }).first().waitFor({ state: "visible" });
  });

  after(async () => {
    await shot("23-untrusted-final");
    await browser?.close();
  });

  test("static diagnostics work, but no trace worker starts and no Trace lens is offered", async () => {
    await openFile("boolean_indexing_in_jit.py");
    const report = await waitForReport("static diagnostics in Restricted Mode",
      (r) => Object.values(r.diagnostics).flat().some((d) => d.code === "SB102"));
    assert.equal(report.trusted, false);
    assert.equal(report.state, "running");
    await waitForReport("the worker status saying tracing is off", (r) => r.worker === "tracing off: untrusted workspace");
    // The diagnostics came after the server handled initialize (with the settings) and the file's didOpen; a
    // worker either had started would already be a process (TraceClient.start spawns it before it returns). The
    // next test also asserts that none started after three trace requests the server refused.
    assert.deepEqual(traceWorkers(), [], "a trace worker started in an untrusted workspace");
    assert.equal(await page.locator(".codelens-decoration a", { hasText: "Trace" }).count(), 0);
    await shot("21-untrusted");
  });

  test("the server runs outside the workspace, isolated, and imports none of its modules", () => {
    const servers = descendants("sharpbits\0serve");
    assert.equal(servers.length, 1, "one language server under the untrusted code-server");
    const argv = fs.readFileSync(`/proc/${servers[0]}/cmdline`, "utf8").split("\0");
    assert.ok(argv.includes("-E"), `not isolated: ${argv.join(" ")}`);
    const cwd = fs.readlinkSync(`/proc/${servers[0]}/cwd`);
    assert.ok(!cwd.startsWith(WORKSPACE), `the server runs in the workspace: ${cwd}`);
    assert.ok(fs.existsSync(path.join(WORKSPACE, "json.py")), "the hostile modules are in place");
    assert.deepEqual(markers(), []);
  });

  test("Show jaxpr, StableHLO and optimized HLO are refused by the server, with its reason", async () => {
    await openFile("tracing_selu.py");
    await waitForReport("tracing_selu.py open", (r) => r.state === "running");
    const refusals = page.locator(".notifications-toasts .notification-toast", { hasText: "untrusted workspace" });
    for (const title of ["Show jaxpr", "Show StableHLO", "Show optimized HLO"]) {
      // clear the previous refusal first, so the one asserted below is this command's own
      await runCommand("Notifications: Clear All Notifications");
      await refusals.first().waitFor({ state: "hidden", timeout: 10_000 });
      await page.locator(".monaco-editor .view-lines").first().click();
      await goToLine(9, 10); // inside `selu`: a click on the editor lands wherever the text ends
      await runCommand(title);
      await refusals.first().waitFor({ state: "visible", timeout: 30_000 }).catch(async (e) => {
        await shot(`24-untrusted-refused-${title.split(" ").pop()}-FAILED`);
        throw e;
      });
      assert.match(await refusals.first().innerText(), /tracing runs this workspace's code, so it is off in an untrusted workspace/);
      await shot(`24-untrusted-refused-${title.split(" ").pop()}`);
    }
    assert.equal(await page.locator(".tab", { hasText: "selu.jaxpr" }).count(), 0, "no listing opened");
    assert.deepEqual(traceWorkers(), [], "a refused trace started a worker");
    assert.deepEqual(markers(), []);
  });

  test("granting trust enables tracing without a reload", async () => {
    await page.keyboard.press("F1");
    const input = page.locator(".quick-input-widget input");
    await input.waitFor({ state: "visible" });
    await input.fill(">Manage Workspace Trust");
    await page.locator(".quick-input-list .monaco-list-row", { hasText: "Manage Workspace Trust" }).first().waitFor();
    await page.keyboard.press("Enter");
    const trust = page.locator(".workspace-trust-editor .monaco-button", { hasText: /^Trust/ }).first();
    await trust.waitFor({ state: "visible" });
    await trust.click();
    await waitForReport("trusted, tracing on", (r) => r.trusted && r.worker === "tracing on: the worker starts at the first trace", 60_000);
    assert.deepEqual(traceWorkers(), [], "the worker started before anything was traced");
    await page.keyboard.press("Escape");
    await openFile("tracing_selu.py");
    const lens = page.locator(".codelens-decoration a", { hasText: "Trace" }).first();
    await lens.waitFor({ state: "visible", timeout: 60_000 });
    await lens.click();
    await page.locator(".codelens-decoration a", { hasText: /jaxpr \d+ eqns?/ }).first().waitFor({ state: "visible", timeout: 120_000 });
    await waitForReport("a ready trace worker", (r) => /ready on/.test(r.worker ?? ""), 60_000);
    const workers = traceWorkers();
    assert.ok(workers.length >= 1, "no trace worker after the first trace");
    // the worker runs in the project root, and its own imports did not come from there
    assert.equal(fs.readlinkSync(`/proc/${workers[0]}/cwd`), WORKSPACE);
    assert.deepEqual(markers(), []);
    await shot("22-trusted");
  });
});
