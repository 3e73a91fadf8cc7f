import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  chooseInterpreter,
  describeInterpreter,
  expandVariables,
  settingToCommand,
} from "../../extension/src/interpreterChoice";

describe("interpreter choice order", () => {
  test("the setting wins over the Python extension and PATH", () => {
    const i = chooseInterpreter({ userSetting: ["/opt/py/bin/python"], pythonExtension: "/venv/bin/python", trusted: true });
    assert.deepEqual(i, { command: ["/opt/py/bin/python"], source: "setting" });
  });

  test("a workspace setting beats the user setting in a trusted workspace", () => {
    const i = chooseInterpreter({ userSetting: "/user/python", workspaceSetting: ["/ws/python"], trusted: true });
    assert.deepEqual(i.command, ["/ws/python"]);
  });

  test("an untrusted workspace ignores the workspace setting and the Python extension", () => {
    const i = chooseInterpreter({ userSetting: [], workspaceSetting: ["./evil/python"], pythonExtension: "/ws/.venv/bin/python", trusted: false, platform: "linux" });
    assert.deepEqual(i, { command: ["python3"], source: "path" });
    const j = chooseInterpreter({ userSetting: "/user/python", workspaceSetting: ["./evil/python"], trusted: false });
    assert.deepEqual(j, { command: ["/user/python"], source: "setting" });
  });

  test("the Python extension's environment comes second", () => {
    const i = chooseInterpreter({ userSetting: [], pythonExtension: "/venv/bin/python", trusted: true });
    assert.deepEqual(i, { command: ["/venv/bin/python"], source: "python-extension" });
  });

  test("PATH is the fallback: python3, or python on Windows", () => {
    assert.deepEqual(chooseInterpreter({ trusted: true, platform: "linux" }), { command: ["python3"], source: "path" });
    assert.deepEqual(chooseInterpreter({ trusted: true, platform: "win32" }).command, ["python"]);
    assert.deepEqual(chooseInterpreter({ trusted: true, pythonExtension: "  ", platform: "darwin" }).command, ["python3"]);
  });
});

describe("setting values", () => {
  test("a string and an array are both accepted; blanks are dropped", () => {
    assert.deepEqual(settingToCommand("/usr/bin/python3"), ["/usr/bin/python3"]);
    assert.deepEqual(settingToCommand(["py", " -3.12 ", ""]), ["py", "-3.12"]);
  });

  test("empty or malformed values count as unset", () => {
    for (const value of [undefined, null, "", "   ", [], [""], [1, 2], { path: "x" }, 42]) {
      assert.equal(settingToCommand(value), undefined, JSON.stringify(value));
    }
  });

  test("${workspaceFolder}, ${userHome} and ~ expand", () => {
    const vars = { workspaceFolder: "/w", home: "/h" };
    assert.deepEqual(settingToCommand(["${workspaceFolder}/.venv/bin/python"], vars), ["/w/.venv/bin/python"]);
    assert.equal(expandVariables("~/py/bin/python", vars), "/h/py/bin/python");
    assert.equal(expandVariables("${userHome}/x", vars), "/h/x");
    assert.equal(expandVariables("/a~/b", vars), "/a~/b");
    assert.equal(expandVariables("${env:FOO}", vars), "${env:FOO}");
  });
});

describe("interpreter description", () => {
  test("describes where the interpreter came from", () => {
    assert.equal(describeInterpreter({ command: ["python3"], source: "path" }), "python3 (from PATH)");
  });
});
