// The language server dies (issue 23: "after the server dies the status says 'running' plus 'tracing off', and
// the restart is silent"). The test ends the server process as a crash would (SIGKILL) and checks what the user
// sees: the state goes to error with the time it stopped, a warning toast says so with Show output / Restart
// server, the automatic restart is announced in the language status ("running (restarted)"), the findings come
// back from the new server, and the toast's Restart server starts a fresh one. Runs in the code-server of
// editor.test.ts, in a window of its own (scripts/test_e2e.sh).
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { after, before, describe, test } from "node:test";
import { Browser, Page } from "playwright-core";
import { env, openWorkbench, readJson, waitForJson, workbench } from "./harness";

const URL = env("SB_E2E_URL");
const WORKSPACE = env("SB_E2E_WORKSPACE");
const REPORT = env("SB_E2E_REPORT");
const ARTIFACTS = env("SB_E2E_ARTIFACTS");
// a file of its own: the examples are edited by the tests before (and a new window restores their unsaved edits)
const FILE = "crash_probe.py";

interface Report {
  seq: number;
  state: string;
  reason: string | null;
  states?: { n: number; state: string; reason: string | null }[];
  extensionHostPid?: number;
  worker?: string | null;
  toasts?: string[];
  diagnostics: Record<string, { code: string | null; source: string | null }[]>;
  documents: Record<string, unknown>;
}

const report = (): Report | undefined => readJson<Report>(REPORT);
const waitFor = (what: string, predicate: (r: Report) => boolean, timeoutMs = 60_000): Promise<Report> =>
  waitForJson<Report>(REPORT, what, predicate, timeoutMs, (last) =>
    JSON.stringify(last && { state: last.state, reason: last.reason, states: last.states, toasts: last.toasts, worker: last.worker }, null, 1));
const findings = (r: Report) => Object.entries(r.diagnostics).filter(([u]) => u.endsWith(`/${FILE}`)).flatMap(([, d]) => d)
  .filter((d) => d.source === "sharpbits");

/** The language server: the child of the extension host that runs `-m sharpbits serve`. */
function serverPid(host: number): number | undefined {
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (parent === host && fs.readFileSync(`/proc/${entry}/cmdline`, "utf8").includes("-m\0sharpbits\0serve")) return Number(entry);
    } catch {
      // the process ended while we looked
    }
  }
  return undefined;
}

let browser: Browser;
let page: Page;
const { shot, showFile } = workbench(() => page, ARTIFACTS);

/** The language status hover (the {} next to "Python" in the status bar): its text. */
async function languageStatus(): Promise<string> {
  const item = page.locator("#status\\.languageStatus, .statusbar-item[id='status.languageStatus']").first();
  await item.waitFor({ state: "visible" });
  await item.hover();
  const hover = page.locator(".monaco-hover, .hover-contents, .workbench-hover").filter({ hasText: "JAX Sharp Bits:" }).first();
  if (!(await hover.isVisible().catch(() => false))) await item.click();
  await hover.waitFor({ state: "visible" });
  return hover.innerText();
}

describe("the language server dies", { concurrency: false }, () => {
  before(async () => {
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    fs.writeFileSync(path.join(WORKSPACE, FILE), "import jax\n\n\n@jax.jit\ndef clear_first(v):\n    v[0] = 0.0\n    return v\n");
    ({ browser, page } = await openWorkbench(URL));
  });

  after(async () => {
    await browser?.close();
  });

  test("the status says it stopped, the restart is announced, its findings come back, and Restart server starts a new one", async () => {
    await showFile(FILE);
    // (this window's extension host owns the report once it activated: wait for its server and findings)
    let r = await waitFor("the server running with the example's finding", (x) => x.state === "running" && !!x.extensionHostPid &&
      findings(x).some((d) => d.code === "SB101"), 90_000);
    const host = r.extensionHostPid!;
    const first = serverPid(host);
    assert.ok(first, `the server process under the extension host ${host}`);
    const since = Math.max(0, ...(r.states ?? []).map((s) => s.n));
    process.kill(first, "SIGKILL");
    // keystrokes right away: the client writes didChange to the dead process (EPIPE). A write error must not stop
    // the client for good (vscode-languageclient's default handler did: no restart, whether a message was in
    // flight at the moment of the crash decided it; extension/src/crashPolicy.ts)
    await page.locator(".monaco-editor .view-lines").first().click();
    await page.keyboard.press("Control+End"); // (the file's last, empty line: spaces there change nothing)
    for (let i = 0; i < 5; i++) await page.keyboard.type(" ");

    // a warning toast says the server stopped, with what helps
    const toast = page.locator(".notification-toast", { hasText: "language server stopped unexpectedly" }).first();
    await toast.waitFor({ state: "visible" });
    for (const action of ["Show output", "Restart server"]) {
      await toast.locator(".monaco-button", { hasText: action }).first().waitFor({ state: "visible" });
    }
    // the state went to error (not "running"), then the client restarted the server by itself, and says so
    r = await waitFor("the server restarted by itself", (x) => x.state === "running" && /^restarted after it stopped unexpectedly at /.test(x.reason ?? ""), 90_000);
    const after = (r.states ?? []).filter((s) => s.n > since);
    const error = after.findIndex((s) => s.state === "error");
    assert.ok(error >= 0, `an error state after the kill: ${JSON.stringify(after)}`);
    assert.match(after[error].reason ?? "", /^the server stopped unexpectedly at .*; see the output$/);
    assert.ok(!after.slice(0, error).some((s) => s.state === "running"), `no "running" between the kill and the error: ${JSON.stringify(after)}`);
    assert.ok((r.toasts ?? []).some((t) => /^showWarningMessage: JAX Sharp Bits: the language server stopped unexpectedly/.test(t)), JSON.stringify(r.toasts));
    const second = serverPid(host);
    assert.ok(second && second !== first, `a new server process (was ${first}, now ${second})`);
    // the new server analyses the open file again
    r = await waitFor("the example's finding from the new server", (x) => x.state === "running" && findings(x).some((d) => d.code === "SB101"), 60_000);
    await page.locator(".monaco-editor .squiggly-error, .monaco-editor .squiggly-warning").first().waitFor();
    assert.match(await languageStatus(), /JAX Sharp Bits: running \(restarted\)[\s\S]*restarted after it stopped unexpectedly/);
    await shot("ux-08-server-restarted");
    await page.keyboard.press("Escape");
    // the toast's Restart server (in the notification center when the toast has hidden itself): a fresh server,
    // and the status no longer speaks of the crash
    if (!(await toast.isVisible().catch(() => false))) {
      await page.keyboard.press("F1");
      await page.locator(".quick-input-widget input").fill(">Notifications: Show Notifications");
      await page.locator(".quick-input-list .monaco-list-row.focused", { hasText: "Show Notifications" }).first().waitFor();
      await page.keyboard.press("Enter");
    }
    const restart = page.locator(".notification-toast, .notifications-center .notification-list-item")
      .filter({ hasText: "language server stopped unexpectedly" }).locator(".monaco-button", { hasText: "Restart server" }).first();
    await restart.click();
    r = await waitFor("a fresh server after Restart server", (x) => x.state === "running" && x.reason === null && serverPid(host) !== second &&
      serverPid(host) !== undefined, 90_000);
    assert.doesNotMatch(await languageStatus(), /restarted/);
    await page.keyboard.press("Escape");
  });
});
