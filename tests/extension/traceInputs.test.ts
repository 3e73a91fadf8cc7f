import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  ACTIONS,
  chooseInputs,
  defLine,
  directiveFor,
  failureActions,
  firstDecoratorLine,
  isCancellation,
  isInputFailure,
  jaxMissing,
  parameters,
  prefill,
  promptText,
  specFromSignature,
} from "../../extension/src/tracing/inputs";

const DOC = [
  "import jax",                              // 0
  "",                                        // 1
  "# sharpbits: trace(x=f32[16], n=3)",      // 2
  "@jax.jit",                                // 3
  "def f(x, n: int, scale=2.0):",            // 4
  "    return x * n",                        // 5
  "",                                        // 6
  "@functools.partial(",                     // 7
  "    jax.jit,",                            // 8
  "    static_argnums=(1,),",                // 9
  ")",                                       // 10
  "def g(",                                  // 11
  "    key: PRNGKeyArray,",                  // 12
  "    x: Float[Array, 'b n'],  # inputs",   // 13
  "    *, training: bool = False,",          // 14
  "):",                                      // 15
  "    return x",                            // 16
];

describe("trace inputs", () => {
  test("find the def, its first decorator and its directive as the server reads them", () => {
    assert.equal(defLine(DOC, "f"), 4);
    assert.equal(defLine(DOC, "Model.g"), 11);
    assert.equal(firstDecoratorLine(DOC, 4), 3);
    assert.equal(firstDecoratorLine(DOC, 11), 7, "a decorator whose arguments span lines");
    assert.deepEqual(directiveFor(DOC, 4), { spec: "x=f32[16], n=3", line: 2 });
    assert.equal(directiveFor(DOC, 11), undefined);
    const between = ["@jax.jit", "# sharpbits: trace(x=f32[2])", "def h(x):"];
    assert.deepEqual(directiveFor(between, 2), { spec: "x=f32[2]", line: 1 });
    const code = ["y = 1  # sharpbits: trace(x=f32[2])", "def h(x):"];
    assert.equal(directiveFor(code, 1), undefined, "only a comment line is a directive");
  });

  test("read the signature, and guess inputs from it", () => {
    assert.deepEqual(parameters(DOC, 4), [
      { name: "x", annotation: undefined, hasDefault: false },
      { name: "n", annotation: "int", hasDefault: false },
      { name: "scale", annotation: undefined, hasDefault: true },
    ]);
    const g = parameters(DOC, 11);
    assert.deepEqual(g.map((p) => p.name), ["key", "x", "training"]);
    assert.equal(specFromSignature(parameters(DOC, 4)), "x=f32[8], n=3");
    assert.equal(specFromSignature(g), "key=key, x=f32[8]");
  });

  test("the directive beats a remembered input; a remembered input applies only without one", () => {
    assert.deepEqual(chooseInputs("x=f32[16]", "x=f32[3]"), { source: "directive" });
    assert.deepEqual(chooseInputs(undefined, "x=f32[3]"), { args: "x=f32[3]", source: "remembered" });
    assert.deepEqual(chooseInputs(undefined, undefined), { source: "none" });
    assert.equal(prefill("x=f32[16]", "x=f32[3]", "x=f32[8]"), "x=f32[16]");
    assert.equal(prefill(undefined, "x=f32[3]", "x=f32[8]"), "x=f32[3]");
    assert.equal(prefill(undefined, undefined, "x=f32[8]"), "x=f32[8]");
  });

  test("the prompt talks like the editor, not the command line", () => {
    const text = promptText("f", parameters(DOC, 4), "no argument spec for 'f': pass --args 'x=...'");
    assert.match(promptText("f", parameters(DOC, 4)), /^f needs example inputs for x, n\./);
    assert.match(text, /^f needs example inputs for x, n\./);
    assert.doesNotMatch(text, /--args/);
  });

  test("a failure offers what can help it", () => {
    const missing = { type: "WorkerStartError", message: "the worker could not start (ModuleNotFoundError: No module named 'jax')" };
    assert.equal(jaxMissing(missing), true);
    assert.deepEqual(failureActions(missing), [ACTIONS.copyPip, ACTIONS.selectInterpreter, ACTIONS.openSettings]);
    assert.ok(!failureActions(missing).includes("Restart worker"));
    assert.deepEqual(failureActions({ type: "WorkerStartError", message: "cannot run '/nope/python'" })[0], ACTIONS.selectInterpreter);
    const shapes = { type: "TypeError", phase: "trace", message: "dot_general requires contracting dimensions to have the same shape" };
    assert.equal(isInputFailure(shapes), true);
    assert.equal(failureActions(shapes)[0], ACTIONS.editInputs);
    assert.equal(isInputFailure({ type: "SpecNeeded", message: "no argument spec" }), true);
    assert.equal(isInputFailure({ type: "NonConcreteBooleanIndexError", phase: "trace", message: "Array boolean indices must be concrete" }), false);
    assert.equal(failureActions({ type: "NonConcreteBooleanIndexError", phase: "trace" })[0], ACTIONS.retry);
    assert.equal(failureActions({ type: "Timeout" }).includes(ACTIONS.openSettings), true);
  });

  test("a cancelled request is recognised, whatever its id", () => {
    assert.equal(isCancellation({ code: -32800, message: 'Request with id "249" is canceled' }), true);
    assert.equal(isCancellation(new Error("the sharpbits server is not running")), false);
  });
});
