// How the extension starts Python, checked two ways: the command lines themselves, and the real server and
// preflight started with exactly those command lines (launch.ts) for a hostile workspace: a folder whose
// json.py, enum.py, typing_extensions.py, ... each write a marker file when imported. No marker may appear.
import assert from "node:assert/strict";
import { ChildProcessWithoutNullStreams, execFileSync, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { after, before, describe, test } from "node:test";
import { parsePreflightOutput } from "../../extension/src/installCommand";
import { isolationFlags, preflightLaunch, serverLaunch } from "../../extension/src/launch";
import type { Requests } from "../../extension/src/tracing/protocol.generated";

describe("launch command lines", () => {
  test("the server: -E, plus -P where Python has it, in the neutral folder; interpreter arguments kept", () => {
    assert.deepEqual(serverLaunch(["/v/bin/python"], [3, 11], "/ext/storage"), {
      command: "/v/bin/python",
      args: ["-E", "-P", "-m", "sharpbits", "serve"],
      cwd: "/ext/storage",
    });
    assert.deepEqual(serverLaunch(["py", "-3.12"], [3, 12], "/n").args, ["-3.12", "-E", "-P", "-m", "sharpbits", "serve"]);
    assert.deepEqual(serverLaunch(["/p"], [3, 10], "/n").args, ["-E", "-m", "sharpbits", "serve"]);
    assert.deepEqual(serverLaunch(["/p"], undefined, "/n").args, ["-E", "-m", "sharpbits", "serve"]);
  });

  test("-P only from Python 3.11 on (3.10 would refuse the flag)", () => {
    assert.deepEqual(isolationFlags([3, 10]), ["-E"]);
    assert.deepEqual(isolationFlags([3, 11]), ["-E", "-P"]);
    assert.deepEqual(isolationFlags([4, 0]), ["-E", "-P"]);
    assert.deepEqual(isolationFlags(), ["-E"]);
  });

  test("the preflight: -E -c, in the neutral folder, and its script clears sys.path[0] before any import", () => {
    const launch = preflightLaunch(["/v/bin/python"], "/ext/storage");
    assert.deepEqual(launch.args.slice(0, 2), ["-E", "-c"]);
    assert.equal(launch.cwd, "/ext/storage");
    const script = launch.args[2].split("\n");
    assert.equal(script[0], "import sys");
    assert.match(script[1], /^sys\.path\[:\] = /);
  });
});

// ---- the real server, started as the extension starts it ------------------------------------------------

const REPO = process.env.SHARPBITS_REPO ?? path.resolve(__dirname, "../..");
const PYTHON = path.join(REPO, ".venv", "bin", "python");
/** Named like the server's dependencies and the standard-library modules it imports. */
const HOSTILE = ["json", "enum", "uuid", "typing_extensions", "typing", "logging", "asyncio", "dataclasses",
  "pathlib", "re", "inspect", "pygls", "lsprotocol", "cattrs", "attrs", "attr", "libcst", "tomli", "sharpbits",
  "importlib", "runpy", "warnings", "contextlib", "threading", "concurrent", "argparse"];

function hostileWorkspace(markers: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sb-hostile-ws-"));
  for (const name of HOSTILE) {
    fs.writeFileSync(path.join(dir, `${name}.py`), `open(${JSON.stringify(path.join(markers, name))}, "w").close()\n`);
  }
  fs.writeFileSync(path.join(dir, "model.py"), "import jax\n\n\n@jax.jit\ndef f(x):\n    x[0] = 1\n    return x\n");
  return dir;
}

/** A minimal LSP client over the process's stdio (Content-Length framing). */
class Lsp {
  private buffer = Buffer.alloc(0);
  private nextId = 1;
  private readonly waiting = new Map<number, (msg: any) => void>();
  readonly notifications: any[] = [];

  constructor(readonly proc: ChildProcessWithoutNullStreams) {
    proc.stdout.on("data", (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      for (;;) {
        const end = this.buffer.indexOf("\r\n\r\n");
        if (end < 0) return;
        const length = Number(/Content-Length: (\d+)/i.exec(this.buffer.subarray(0, end).toString())?.[1]);
        if (this.buffer.length < end + 4 + length) return;
        const msg = JSON.parse(this.buffer.subarray(end + 4, end + 4 + length).toString("utf8"));
        this.buffer = this.buffer.subarray(end + 4 + length);
        if (msg.id !== undefined && this.waiting.has(msg.id)) {
          this.waiting.get(msg.id)!(msg);
          this.waiting.delete(msg.id);
        } else if (msg.id !== undefined && msg.method) {
          this.send({ jsonrpc: "2.0", id: msg.id, result: null }); // server-to-client requests
        } else if (msg.method) {
          this.notifications.push(msg);
        }
      }
    });
  }

  private send(msg: object): void {
    const body = Buffer.from(JSON.stringify(msg), "utf8");
    this.proc.stdin.write(`Content-Length: ${body.length}\r\n\r\n`);
    this.proc.stdin.write(body);
  }

  request(method: string, params: unknown, timeoutMs = 60_000): Promise<any> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer to ${method}`)), timeoutMs);
      this.waiting.set(id, (msg) => {
        clearTimeout(timer);
        resolve(msg);
      });
      this.send({ jsonrpc: "2.0", id, method, params });
    });
  }

  notify(method: string, params: unknown): void {
    this.send({ jsonrpc: "2.0", method, params });
  }

  async waitFor(predicate: (msg: any) => boolean, timeoutMs = 60_000): Promise<any> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const found = this.notifications.find(predicate);
      if (found) return found;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error("timed out waiting for a notification");
  }
}

describe("a hostile workspace, the real server and preflight started as the extension starts them", { concurrency: false }, () => {
  let markers: string;
  let workspace: string;
  let neutral: string;
  // What the extension host passes on, plus a PYTHONPATH pointing into the workspace (-E must ignore it).
  let env: NodeJS.ProcessEnv;

  before(() => {
    assert.ok(fs.existsSync(PYTHON), `${PYTHON} is missing: run scripts/setup_python.sh`);
    markers = fs.mkdtempSync(path.join(os.tmpdir(), "sb-markers-"));
    workspace = hostileWorkspace(markers);
    neutral = fs.mkdtempSync(path.join(os.tmpdir(), "sb-neutral-"));
    env = { ...process.env, PYTHONPATH: workspace };
  });

  after(() => {
    for (const dir of [markers, workspace, neutral]) fs.rmSync(dir, { recursive: true, force: true });
  });

  test("the hostile modules are real: a plain `python -c` in that folder imports its json.py", () => {
    execFileSync(PYTHON, ["-c", "import json"], { cwd: workspace });
    assert.deepEqual(fs.readdirSync(markers), ["json"]);
    fs.rmSync(path.join(markers, "json"));
  });

  test("the preflight finds the installed packages and imports nothing from the workspace", () => {
    const launch = preflightLaunch([PYTHON], neutral);
    const out = execFileSync(launch.command, launch.args, { cwd: launch.cwd, env }).toString();
    const result = parsePreflightOutput(out);
    assert.deepEqual(result.missing, []);
    assert.ok(result.pythonVersion && result.pythonVersion[0] === 3);
    assert.deepEqual(fs.readdirSync(markers), []);
  });

  test("the server analyses the workspace's files and imports nothing from it", async () => {
    const check = parsePreflightOutput(execFileSync(PYTHON, preflightLaunch([PYTHON], neutral).args, { cwd: neutral }).toString());
    const launch = serverLaunch([PYTHON], check.pythonVersion, neutral);
    const proc = spawn(launch.command, launch.args, { cwd: launch.cwd, env, stdio: "pipe" });
    let stderr = "";
    proc.stderr.on("data", (c) => (stderr += c.toString()));
    const lsp = new Lsp(proc);
    try {
      const root = `file://${workspace}`;
      const init = await lsp.request("initialize", {
        processId: process.pid,
        rootUri: root,
        workspaceFolders: [{ uri: root, name: "hostile" }],
        capabilities: {},
        initializationOptions: { trusted: false, trace: { enabled: false } },
      });
      assert.ok(init.result?.capabilities, `no initialize result: ${JSON.stringify(init)} ${stderr}`);
      lsp.notify("initialized", {});
      const uri = `${root}/model.py`;
      lsp.notify("textDocument/didOpen", {
        textDocument: { uri, languageId: "python", version: 1, text: fs.readFileSync(path.join(workspace, "model.py"), "utf8") },
      });
      const published = await lsp.waitFor((m) => m.method === "textDocument/publishDiagnostics" && m.params.uri === uri);
      assert.deepEqual(published.params.diagnostics.map((d: any) => d.code), ["SB101"]);
      const params: Requests["sharpbits/trace"]["params"] = { uri, function: "f", args: "x=f32[3]" };
      const refused: { result: Requests["sharpbits/trace"]["result"] } = await lsp.request("sharpbits/trace", params);
      assert.equal(refused.result.error?.type, "WorkspaceNotTrusted");
      await lsp.request("shutdown", null);
      lsp.notify("exit", null);
    } finally {
      await new Promise<void>((resolve) => {
        if (proc.exitCode !== null) return resolve();
        const timer = setTimeout(() => proc.kill("SIGKILL"), 10_000);
        proc.on("exit", () => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    assert.deepEqual(fs.readdirSync(markers), [], `the server imported from the workspace; stderr: ${stderr}`);
  });
});
