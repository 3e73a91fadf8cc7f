import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { describe, test } from "node:test";
import {
  installCommand,
  missingPackagesMessage,
  parsePreflightOutput,
  pickWheel,
  PREFLIGHT_SCRIPT,
  shellQuote,
} from "../../extension/src/installCommand";

describe("install command", () => {
  test("is exactly <python> -m pip install <wheel>", () => {
    assert.equal(
      installCommand(["/home/me/.venv/bin/python"], "/ext/extension/bundled/sharpbits-0.1.0-py3-none-any.whl", "linux"),
      "/home/me/.venv/bin/python -m pip install /ext/extension/bundled/sharpbits-0.1.0-py3-none-any.whl",
    );
  });

  test("quotes paths with spaces and quotes for a POSIX shell", () => {
    assert.equal(
      installCommand(["/Users/Jo Doe/py"], "/x/it's.whl", "darwin"),
      `'/Users/Jo Doe/py' -m pip install '/x/it'\\''s.whl'`,
    );
  });

  test("uses PowerShell quoting and the call operator on Windows", () => {
    assert.equal(
      installCommand(["C:\\Program Files\\Python\\python.exe"], "C:\\ext\\w.whl", "win32"),
      `& 'C:\\Program Files\\Python\\python.exe' -m pip install C:\\ext\\w.whl`,
    );
    assert.equal(shellQuote("a'b", "win32"), "'a''b'");
  });

  test("falls back to the package name without a bundled wheel; keeps interpreter arguments", () => {
    assert.equal(installCommand(["py", "-3.12"], undefined, "linux"), "py -3.12 -m pip install sharpbits");
  });

  test("the quoted command survives a real shell", () => {
    const args = JSON.parse(execFileSync("sh", ["-c", `node -e 'console.log(JSON.stringify(process.argv.slice(1)))' ${shellQuote("a b'c")} ${shellQuote("$HOME")}`]).toString());
    assert.deepEqual(args, ["a b'c", "$HOME"]);
  });
});

describe("bundled wheel", () => {
  test("picks the highest sharpbits py3-none-any wheel", () => {
    assert.equal(
      pickWheel(["sharpbits-0.9.0-py3-none-any.whl", "sharpbits-0.10.0-py3-none-any.whl", "other-1.0-py3-none-any.whl", "README"]),
      "sharpbits-0.10.0-py3-none-any.whl",
    );
    assert.equal(pickWheel(["sharpbits-0.1.0-cp311-cp311-linux_x86_64.whl"]), undefined);
    assert.equal(pickWheel([]), undefined);
  });
});

describe("preflight", () => {
  test("parses the script's JSON line", () => {
    assert.deepEqual(parsePreflightOutput('noise\n{"missing": ["pygls"], "version": "0.1.0", "python": "/p"}\n'), {
      missing: ["pygls"],
      version: "0.1.0",
      python: "/p",
    });
    assert.throws(() => parsePreflightOutput("Traceback ..."));
    assert.throws(() => parsePreflightOutput('{"nope": 1}'));
  });

  test("the script runs under python3 and names what is missing", (t) => {
    let out: string;
    try {
      out = execFileSync("python3", ["-c", PREFLIGHT_SCRIPT], { env: { PATH: process.env.PATH ?? "", PYTHONNOUSERSITE: "1" } }).toString();
    } catch {
      t.skip("python3 not available");
      return;
    }
    const result = parsePreflightOutput(out);
    assert.ok(Array.isArray(result.missing));
    assert.ok(result.python);
  });

  test("the error message names the interpreter and each missing package", () => {
    assert.equal(
      missingPackagesMessage(["/usr/bin/python3"], ["sharpbits", "pygls", "libcst"]),
      "JAX Sharp Bits: sharpbits, pygls and libcst are not installed in /usr/bin/python3. Install into that interpreter, or pick another one in the setting sharpbits.interpreter.",
    );
    assert.match(missingPackagesMessage(["/p"], ["libcst"]), /libcst is not installed in \/p/);
  });
});
