// `tsc --noEmit -p extension` as a test case, so a type error shows up in the JUnit report.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as path from "node:path";
import { test } from "node:test";

test("tsc --noEmit -p extension reports no type errors", () => {
  const root = process.env.SHARPBITS_REPO ?? path.resolve(__dirname, "..", "..");
  const tsc = path.join(root, "node_modules", ".bin", "tsc");
  const r = spawnSync(tsc, ["--noEmit", "-p", "extension"], { cwd: root, encoding: "utf8" });
  assert.equal(r.error, undefined, String(r.error));
  assert.equal(r.status, 0, `tsc failed:\n${r.stdout}${r.stderr}`);
});
