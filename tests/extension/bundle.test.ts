// The shipped bundle carries no test hooks: the e2e report module is only in the build the real-editor suite
// installs (package.json "build:test-hooks"), and the shipped "build" leaves it out entirely.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { test } from "node:test";

const root = process.env.SHARPBITS_REPO ?? path.resolve(__dirname, "..", "..");

function bundle(script: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sharpbits-bundle-"));
  const out = path.join(dir, "extension.js");
  const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
  const args = (pkg.scripts[script] as string).split(" ").slice(1).map((a) => a.replace(/^--outfile=.*/, `--outfile=${out}`));
  const r = spawnSync(path.join(root, "node_modules", ".bin", "esbuild"), [...args, "--minify", "--log-level=warning"], { cwd: root, encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  const text = fs.readFileSync(out, "utf8");
  fs.rmSync(dir, { recursive: true, force: true });
  return text;
}

test("the shipped bundle has no e2e report hook; the test-hooks build has it", () => {
  assert.ok(!bundle("build").includes("SHARPBITS_E2E_REPORT"));
  assert.ok(bundle("build:test-hooks").includes("SHARPBITS_E2E_REPORT"));
});

test("the generated protocol types name the same views and platforms as the extension's settings", () => {
  const generated = fs.readFileSync(path.join(root, "extension", "src", "tracing", "protocol.generated.ts"), "utf8");
  const platforms = JSON.parse(/export const PLATFORMS = (\[.*?\]) as const;/.exec(generated)![1]);
  const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
  assert.deepEqual(pkg.contributes.configuration.properties["sharpbits.trace.platform"].enum, platforms);
});
