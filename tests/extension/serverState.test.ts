import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { fromClientState, statusView } from "../../extension/src/serverState";

describe("status text", () => {
  test("each state has its text, severity and busy flag, with the interpreter in the detail", () => {
    assert.deepEqual(statusView("starting", "/v/python"), { text: "JAX Sharp Bits: starting", detail: "Python: /v/python", severity: 0, busy: true });
    assert.deepEqual(statusView("running", "/v/python"), { text: "JAX Sharp Bits: running", detail: "Python: /v/python", severity: 0, busy: false });
    assert.equal(statusView("stopped", undefined).severity, 1);
    const error = statusView("error", "/v/python", "missing pygls");
    assert.equal(error.text, "JAX Sharp Bits: error");
    assert.equal(error.severity, 2);
    assert.equal(error.detail, "missing pygls · Python: /v/python");
  });

  test("a server that stopped on its own and was restarted says so (not a plain 'running')", () => {
    const restarted = statusView("running", "/v/python", "restarted after it stopped unexpectedly at 10:42:00");
    assert.equal(restarted.text, "JAX Sharp Bits: running (restarted)");
    assert.equal(restarted.severity, 1);
    assert.match(restarted.detail, /stopped unexpectedly at 10:42:00/);
  });

  test("maps vscode-languageclient's State values", () => {
    assert.equal(fromClientState(1), "stopped");
    assert.equal(fromClientState(2), "running");
    assert.equal(fromClientState(3), "starting");
  });
});
