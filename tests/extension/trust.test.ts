// Issue 24, items 2 and 3: what the extension runs at activation (the preflight check runs exactly the command
// that chooseInterpreter + confirmInterpreter return, see interpreter.ts and client.ts).
// Untrusted: never a program inside a workspace folder. Trusted: a program the workspace chose only after the
// user allowed that exact command, asked once per workspace.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { chooseInterpreter, Interpreter, InterpreterInputs } from "../../extension/src/interpreterChoice";
import { ConsentStore, confirmInterpreter, consentKey } from "../../extension/src/trust";

const WS = "/home/u/proj";
const base = { workspaceFolder: WS, workspaceFolders: [WS], home: "/home/u", platform: "linux" as const };

function untrusted(userSetting: unknown, extra: Partial<InterpreterInputs> = {}): Interpreter {
  return chooseInterpreter({ ...base, trusted: false, userSetting, ...extra });
}

function runsInsideTheWorkspace(i: Interpreter, folder = WS): boolean {
  return i.command.some((part) => part === folder || part.startsWith(folder + "/"));
}

describe("Restricted Mode runs no program of the workspace (item 2)", () => {
  test("${workspaceFolder} in the user-level setting is not expanded: the PATH's Python, with a message", () => {
    const i = untrusted("${workspaceFolder}/.venv/bin/python");
    assert.deepEqual(i.command, ["python3"]);
    assert.equal(i.source, "path");
    assert.match(i.refused ?? "", /names the workspace folder, which is not trusted/);
  });

  test("a path that leads into the workspace is refused however it is spelled", () => {
    for (const setting of ["~/proj/.venv/bin/python", "${userHome}/proj/.venv/bin/python", "/home/u/proj/../proj/bin/py",
                           ["/usr/bin/python3", "/home/u/proj/run.py"], "/home/u/proj"]) {
      const i = untrusted(setting);
      assert.deepEqual(i.command, ["python3"], JSON.stringify(setting));
      assert.ok(i.refused, JSON.stringify(setting));
    }
  });

  test("through a symlink, in any workspace folder, and case-insensitively on Windows", () => {
    const realpath = (p: string) => p.replace(/^\/links\/py/, "/home/u/proj/.venv/bin/python");
    assert.ok(untrusted("/links/py", { realpath }).refused);
    assert.ok(untrusted("/srv/other/python", { workspaceFolders: [WS, "/srv/other"] }).refused);
    const win = chooseInterpreter({ trusted: false, platform: "win32", userSetting: "C:\\Work\\Proj\\.venv\\Scripts\\python.exe",
                                    workspaceFolder: "c:\\work\\proj", workspaceFolders: ["c:\\work\\proj"] });
    assert.deepEqual(win.command, ["python"]);
    assert.ok(win.refused);
  });

  test("a user-level Python outside the workspace is used, and nothing is asked", async () => {
    const i = untrusted("/opt/py/bin/python");
    assert.deepEqual(i, { command: ["/opt/py/bin/python"], source: "setting" });
    assert.deepEqual(untrusted("/home/u/projects-other/python").command, ["/home/u/projects-other/python"]);
    const asked: string[] = [];
    assert.deepEqual(await confirmInterpreter(i, memory(), async (q) => (asked.push(q), true)), i);
    assert.deepEqual(asked, []);
  });

  test("the workspace setting and the Python extension are never consulted", () => {
    const i = untrusted(undefined, { workspaceSetting: ["sh", "-c", "payload"], pythonExtension: `${WS}/.venv/bin/python` });
    assert.deepEqual(i, { command: ["python3"], source: "path" });
  });
});

function memory(): ConsentStore & { data: Map<string, unknown> } {
  const data = new Map<string, unknown>();
  return { data, get: (key) => data.get(key), update: (key, value) => void data.set(key, value) };
}

function asker(answers: (boolean | undefined)[]) {
  const questions: string[] = [];
  const ask = async (question: string) => {
    questions.push(question);
    return answers.shift();
  };
  return { questions, ask };
}

const PAYLOAD = ["sh", "-c", 'payload; exec python3 "$@"', "sh"];

describe("a trusted workspace's choice of program runs only once the user allowed it (item 3)", () => {
  test("the workspace setting needs consent; allowed once, it is not asked again", async () => {
    const choice = chooseInterpreter({ ...base, trusted: true, workspaceSetting: PAYLOAD });
    assert.deepEqual(choice.command, PAYLOAD);
    assert.match(choice.consent?.why ?? "", /the workspace's sharpbits.interpreter/);
    const store = memory();
    const { questions, ask } = asker([true]);
    assert.deepEqual(await confirmInterpreter(choice, store, ask), { command: PAYLOAD, source: "setting" });
    assert.deepEqual(await confirmInterpreter(choice, store, ask), { command: PAYLOAD, source: "setting" });
    assert.equal(questions.length, 1);
    assert.match(questions[0], /This workspace chooses the Python that JAX Sharp Bits runs: sh -c/);
  });

  test("declined: the PATH's Python, remembered; dismissed: the PATH's Python, asked again next time", async () => {
    const choice = chooseInterpreter({ ...base, trusted: true, workspaceSetting: PAYLOAD });
    const store = memory();
    const { questions, ask } = asker([undefined, false]);
    const dismissed = await confirmInterpreter(choice, store, ask);
    assert.deepEqual(dismissed.command, ["python3"]);
    assert.equal(store.data.size, 0);
    const declined = await confirmInterpreter(choice, store, ask);
    assert.deepEqual(declined.command, ["python3"]);
    assert.match(declined.refused ?? "", /is not run: you chose not to run it/);
    assert.deepEqual((await confirmInterpreter(choice, store, ask)).command, ["python3"]);
    assert.equal(questions.length, 2);
    assert.equal(store.data.get(consentKey(PAYLOAD)), "deny");
  });

  test("a changed command is asked about again", async () => {
    const store = memory();
    const { questions, ask } = asker([true, true]);
    await confirmInterpreter(chooseInterpreter({ ...base, trusted: true, workspaceSetting: PAYLOAD }), store, ask);
    const changed = [...PAYLOAD.slice(0, 2), "other; exec python3", "sh"];
    await confirmInterpreter(chooseInterpreter({ ...base, trusted: true, workspaceSetting: changed }), store, ask);
    assert.equal(questions.length, 2);
  });

  test("the Python extension's .venv inside the workspace needs consent; one outside does not", async () => {
    const inside = chooseInterpreter({ ...base, trusted: true, pythonExtension: `${WS}/.venv/bin/python` });
    assert.match(inside.consent?.why ?? "", /the Python extension's environment: .* is inside the workspace folder/);
    const { questions, ask } = asker([false]);
    assert.deepEqual((await confirmInterpreter(inside, memory(), ask)).command, ["python3"]);
    assert.equal(questions.length, 1);
    const outside = chooseInterpreter({ ...base, trusted: true, pythonExtension: "/usr/bin/python3.12" });
    assert.deepEqual(outside, { command: ["/usr/bin/python3.12"], source: "python-extension" });
  });

  test("a user-level ${workspaceFolder} path runs the workspace's file: asked too", () => {
    const i = chooseInterpreter({ ...base, trusted: true, userSetting: "${workspaceFolder}/.venv/bin/python" });
    assert.deepEqual(i.command, [`${WS}/.venv/bin/python`]);
    assert.ok(i.consent);
    assert.equal(chooseInterpreter({ ...base, trusted: true, userSetting: "/opt/py/bin/python" }).consent, undefined);
  });
});
