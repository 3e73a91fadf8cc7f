import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { colourSlots, functionAt, listingFromResult, listingLinesFor } from "../../extension/src/tracing/compiledLines";
import { serverSettings, SettingValue } from "../../extension/src/tracing/serverSettings";
import { describeWorker, traceProblem } from "../../extension/src/tracing/workerState";

// Shapes as the trace worker returns them (text lines and op lines count from 1).
const RESULT = {
  jaxpr: { text: "{ lambda ; a:f32[16]. let\n    b:f32[16] = sin a\n    c:f32[16] = mul b 2.0\n    d:f32[16] = add c 1.0\n  in (d,) }\n", text_lines: [[2, 8], [3, 8], [4, 9]] },
  stablehlo: { text: "module {\n  func.func @main {\n    %0 = stablehlo.sine %arg0\n    %1 = stablehlo.constant\n    %2 = stablehlo.add %0\n  }\n}\n", ops: [{ text_line: 3, line: 8 }, { text_line: 4, line: null }, { text_line: 5, line: 9 }] },
};

describe("compiled listings", () => {
  test("map listing lines to source lines, from the worker's 1-based line numbers", () => {
    const jaxpr = listingFromResult(RESULT, "jaxpr")!;
    assert.deepEqual(jaxpr.sourceLines, [null, 8, 8, 9, null]);
    const hlo = listingFromResult(RESULT, "stablehlo")!;
    assert.deepEqual(hlo.sourceLines, [null, null, 8, null, 9, null, null]);
    assert.equal(listingFromResult(RESULT, "hlo"), undefined);
  });

  test("link a source line to its listing lines and give each source line one colour", () => {
    const jaxpr = listingFromResult(RESULT, "jaxpr")!;
    assert.deepEqual(listingLinesFor(jaxpr, 8), [1, 2]);
    assert.deepEqual(listingLinesFor(jaxpr, 42), []);
    assert.deepEqual([...colourSlots(jaxpr, 6)], [[8, 2], [9, 3]]); // the line's own slot: the same in every listing
    assert.deepEqual([...colourSlots(jaxpr, 1)], [[8, 0], [9, 0]]);
  });

  test("find the traced function around the cursor", () => {
    const fns = [{ function: "f", line: 7, endLine: 9 }, { function: "g", line: 12, endLine: 14 }];
    assert.equal(functionAt(fns, 8)?.function, "f");
    assert.equal(functionAt(fns, 10), undefined);
  });
});

describe("settings sent to the server", () => {
  const inspect = (values: Record<string, SettingValue<unknown>>) => <T>(key: string) => values[key] as SettingValue<T> | undefined;

  test("trusted: workspace settings apply, tracing follows its setting", () => {
    const s = serverSettings(inspect({
      "trace.enabled": { defaultValue: true, workspaceValue: true },
      "trace.interpreter": { workspaceValue: "/repo/.venv/bin/python" },
      ignore: { workspaceValue: ["SB301"] },
    }), true, "sharpbits.traceFunction") as any;
    assert.equal(s.trusted, true);
    assert.equal(s.trace.enabled, true);
    assert.equal(s.trace.interpreter, "/repo/.venv/bin/python");
    assert.equal("memoryLimitMb" in s.trace, false); // unset: the server's default (half the physical memory)
    assert.deepEqual(s.ignore, ["SB301"]);
    assert.equal(s.traceLensCommand, "sharpbits.traceFunction");
    assert.equal(s.maxFileSizeKB, 4096); // the server's limits, with their defaults
    assert.equal(s.analysisTimeoutMs, 10000);
    assert.equal(s.analysisBudgetMs, 30000);
  });

  test("the size and time limits come from the settings", () => {
    const s = serverSettings(inspect({ maxFileSizeKB: { globalValue: 512 }, analysisTimeoutMs: { workspaceValue: 2500 } }),
      false, "x") as any;
    assert.equal(s.maxFileSizeKB, 512);
    assert.equal(s.analysisTimeoutMs, 2500); // not a setting that runs anything: the workspace's value applies
  });

  test("untrusted: nothing runs, and no interpreter or launch prefix comes from the workspace", () => {
    const s = serverSettings(inspect({
      "trace.enabled": { defaultValue: true, globalValue: true },
      "trace.interpreter": { workspaceValue: "/evil/python", globalValue: "/usr/bin/python3" },
      "trace.launchPrefix": { workspaceValue: "ssh attacker" },
      ignore: { workspaceValue: ["SB301"] },
    }), false, "x") as any;
    assert.equal(s.trusted, false); // the server refuses every trace on its own when told this
    assert.equal(s.trace.enabled, false);
    assert.equal(s.trace.interpreter, "/usr/bin/python3");
    assert.equal(s.trace.launchPrefix, "");
    assert.deepEqual(s.ignore, ["SB301"]); // rule selection is harmless and still applies
  });
});

describe("settings sent to the server: the memory limit", () => {
  const inspect = (values: Record<string, SettingValue<unknown>>) => <T>(key: string) => values[key] as SettingValue<T> | undefined;

  test("a number (0 turns the limit off) goes through; nothing else does", () => {
    const at = (v: unknown) => (serverSettings(inspect({ "trace.memoryLimitMb": { globalValue: v } }), true, "x") as any).trace;
    assert.equal(at(4096).memoryLimitMb, 4096);
    assert.equal(at(0).memoryLimitMb, 0);
    assert.equal("memoryLimitMb" in at(null), false);
    assert.equal("memoryLimitMb" in at(-5), false);
  });
});

describe("trace problems shown to the user", () => {
  test("a refusal is the server's sentence; a failure names the error", () => {
    assert.equal(
      traceProblem("No jaxpr for f", { refused: true, error: { type: "WorkspaceNotTrusted", message: "tracing runs this workspace's code, so it is off" } }),
      "JAX Sharp Bits: tracing runs this workspace's code, so it is off",
    );
    assert.equal(traceProblem("Tracing f failed", { error: { type: "TypeError", message: "bad\nmore" } }), "Tracing f failed: TypeError: bad");
  });
});

describe("trace worker status", () => {
  test("names the device when ready, and says why tracing is off", () => {
    assert.equal(describeWorker({ state: "ready", enabled: true, device: { device_kind: "NVIDIA H100", platform: "cuda" } }, true).text,
      "trace worker ready on NVIDIA H100 (cuda)");
    assert.equal(describeWorker({ state: "ready", enabled: true }, false).text, "tracing off: untrusted workspace");
    assert.equal(describeWorker({ enabled: false }, true).text, "tracing off (sharpbits.trace.enabled)");
    const failed = describeWorker({ state: "failed", enabled: true, error: { type: "WorkerStartError" } }, true);
    assert.equal(failed.error, true);
    assert.match(failed.text, /WorkerStartError/);
    assert.equal(describeWorker({ state: "starting", enabled: true }, true).busy, true);
    const busy = describeWorker({ state: "busy", enabled: true, device: { device_kind: "cpu", platform: "cpu" } }, true);
    assert.deepEqual(busy, { text: "tracing on cpu (cpu)…", busy: true, error: false });
    // the worker starts at the first trace, not when the folder opens
    assert.equal(describeWorker({ state: "stopped", enabled: true }, true).text, "tracing on: the worker starts at the first trace");
  });

  test("a dead server is not 'tracing off', and an interpreter without JAX is not offered a worker restart", () => {
    const down = describeWorker(undefined, true, false);
    assert.equal(down.text, "tracing unavailable: the server is not running");
    assert.equal(down.action, "restartServer");
    const noJax = describeWorker({ state: "failed", enabled: true, error: { type: "WorkerStartError", message: "No module named 'jax'" } }, true);
    assert.equal(noJax.action, "selectInterpreter");
    const crashed = describeWorker({ state: "failed", enabled: true, error: { type: "WorkerCrashed", message: "exit -9" } }, true);
    assert.equal(crashed.action, "restartWorker");
  });
});
