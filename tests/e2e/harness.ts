// Shared by the end-to-end test files: environment, the JSON report the extension writes, and Chromium.
import * as fs from "node:fs";
import { Browser, chromium } from "playwright-core";

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
