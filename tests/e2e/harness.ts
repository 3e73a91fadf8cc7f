// Shared by the end-to-end test files: environment, the JSON report the extension writes, Chromium, and the
// workbench moves (palette, quick open, go to line, screenshots).
import * as fs from "node:fs";
import * as path from "node:path";
import { Browser, chromium, Page } from "playwright-core";

export const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run this through scripts/test_e2e.sh`);
  return value;
};

export function readJson<T>(file: string): T | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8")) as T;
  } catch {
    return undefined; // not written yet, or being replaced
  }
}

/** Polls the extension's report file until `predicate` holds; the error shows `describe(last report)`. */
export async function waitForJson<T>(file: string, what: string, predicate: (r: T) => boolean, timeoutMs: number,
                                     describe: (r: T | undefined) => string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  while (Date.now() < deadline) {
    last = readJson<T>(file);
    if (last && predicate(last)) return last;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for: ${what}\nlast report: ${describe(last)}`);
}

/** Debian's Chromium, headless, with the flags that keep it off the (closed) network. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
      "--disable-component-update", "--disable-sync"],
  });
}

/** Chromium on the workbench at `url` (1280 wide), once the workbench shows and, unless `explorer` is false, its
 * explorer (a folder opened in Restricted Mode may show a dialog first: those tests wait for the workbench only). */
export async function openWorkbench(url: string, options: { height?: number; explorer?: boolean } = {}):
    Promise<{ browser: Browser; page: Page }> {
  const browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width: 1280, height: options.height ?? 800 } });
  page.setDefaultTimeout(30_000);
  await page.goto(url);
  await page.locator(".monaco-workbench").waitFor({ state: "visible", timeout: 60_000 });
  if (options.explorer !== false) {
    await page.locator(".explorer-folders-view, .explorer-viewlet").first().waitFor({ state: "visible", timeout: 60_000 });
  }
  return { browser, page };
}

/** The workbench moves every test file makes (the page is read when a move runs: test files open it in `before`).
 * Screenshots go to `artifacts` (scripts/test_e2e.sh: artifacts/e2e/, where the README's images are taken from). */
export function workbench(page: () => Page, artifacts: string) {
  /** A screenshot, after animations (a hover's fade-in) have finished; a failed screenshot never fails a test. */
  const shot = (name: string): Promise<unknown> =>
    page().screenshot({ path: path.join(artifacts, `${name}.png`), animations: "disabled" }).catch(() => undefined);

  /** Runs a quick-open query: F1 opens the command palette with '>', which `text` replaces (file / line modes). */
  async function quickOpen(text: string): Promise<void> {
    await page().keyboard.press("F1");
    const input = page().locator(".quick-input-widget input");
    await input.waitFor({ state: "visible" });
    await input.fill(text);
  }

  /** Puts the cursor at a position of the active editor (1-based line and column). */
  async function goToLine(line: number, column: number): Promise<void> {
    await quickOpen(`:${line}:${column}`);
    await page().keyboard.press("Enter");
    await page().locator(".quick-input-widget").waitFor({ state: "hidden" });
  }

  /** Runs a command from the palette. Enter runs the focused row: it waits until the filter has put this command
   * there (under load the list can still show the previous search's rows when the row first appears). `closes`:
   * also wait for the palette to close (not for a command that opens a prompt of its own). */
  async function runCommand(title: string, options: { closes?: boolean } = {}): Promise<void> {
    await quickOpen(`>${title}`);
    await page().locator(".quick-input-list .monaco-list-row.focused", { hasText: title }).first().waitFor();
    await page().keyboard.press("Enter");
    if (options.closes) await page().locator(".quick-input-widget").waitFor({ state: "hidden" });
  }

  /** Opens a workspace file by name through quick open and waits for its tab (not for the extension to see it). */
  async function showFile(file: string): Promise<void> {
    await quickOpen(file);
    await page().locator(".quick-input-list .monaco-list-row", { hasText: file }).first().waitFor();
    await page().keyboard.press("Enter");
    await page().locator(`.tab[data-resource-name="${file}"], .tab:has-text("${file}")`).first().waitFor();
  }

  return { shot, quickOpen, goToLine, runCommand, showFile };
}
