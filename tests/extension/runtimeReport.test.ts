// "Run with sharpbits": the arguments sent for a file, and the one line said when a run ends (runtimeReport.ts).
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { describeRun, runArguments } from "../../extension/src/runtimeReport";

describe("Run with sharpbits", () => {
  test("the file alone, or the configured command and time limit with it", () => {
    assert.deepEqual(runArguments("file:///p/train.py", [], undefined), { uri: "file:///p/train.py" });
    assert.deepEqual(runArguments("file:///p/t.py", ["python", "-m", "pytest", "${file}"], 60), {
      uri: "file:///p/t.py",
      command: ["python", "-m", "pytest", "${file}"],
      timeout: 60,
    });
    assert.deepEqual(runArguments("file:///p/t.py", undefined, 0), { uri: "file:///p/t.py" });
  });

  test("findings or a failing exit status warn; a clean run informs", () => {
    const found = describeRun("train.py", {
      ok: true,
      findings: 2,
      exitCode: 0,
      summary: "2 runtime findings (SB201: 1, SB601: 1) · exit 0 · 3.1 s",
    });
    assert.deepEqual(found, {
      level: "warning",
      text: "Run with sharpbits: train.py: 2 runtime findings (SB201: 1, SB601: 1) · exit 0 · 3.1 s",
    });
    assert.equal(describeRun("t.py", { ok: true, findings: 0, exitCode: 0, summary: "0 runtime findings · exit 0 · 1.0 s" }).level, "info");
    assert.equal(describeRun("t.py", { ok: true, findings: 0, exitCode: 1, summary: "0 runtime findings · exit 1 · 1.0 s" }).level, "warning");
  });

  test("a refusal is the server's sentence; a failure names its type", () => {
    const refused = describeRun("t.py", {
      ok: false,
      refused: true,
      error: { type: "WorkspaceNotTrusted", message: "tracing runs this workspace's code\nmore" },
    });
    assert.deepEqual(refused, { level: "warning", text: "JAX Sharp Bits: tracing runs this workspace's code" });
    const timeout = describeRun("t.py", {
      ok: false,
      error: { type: "Timeout", message: "the run did not finish within 5 s" },
      summary: "1 runtime finding (SB601: 1) · exit 143 · 5.0 s",
    });
    assert.equal(timeout.text, "Run with sharpbits: t.py: Timeout: the run did not finish within 5 s (1 runtime finding (SB601: 1) · exit 143 · 5.0 s)");
    assert.equal(describeRun("t.py", undefined).level, "warning");
  });
});
