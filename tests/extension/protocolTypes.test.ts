// No `any` on the trace protocol, checked twice:
// - at run time (node's test runner): no `any` written anywhere in the extension's source;
// - at compile time (tsc --noEmit -p extension, which typecheck.test.ts runs as a test case): the params and
//   replies of every request and command the extension can send, as ServerController and ProtocolClient type
//   them from the generated mirror, hold no `any` down to their last field (an `any` that comes in from another
//   file or a library, where no `any` is written in ours, fails the `Assert` lines below).
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, test } from "node:test";
import type { ServerController } from "../../extension/src/client";
import type { ProtocolClient } from "../../extension/src/tracing/traceCommand";
import type { Commands, Requests, TraceResult } from "../../extension/src/tracing/protocol.generated";

// ---- compile time

type IsAny<T> = 0 extends 1 & T ? true : false;
type Less = [never, 0, 1, 2, 3, 4, 5, 6, 7, 8];
/** true when T is or holds `any` (a union member, an array's items, a property), down to 9 levels. */
type HoldsAny<T, D extends number = 9> = [D] extends [never]
  ? false
  : IsAny<T> extends true
    ? true
    : T extends readonly (infer U)[]
      ? HoldsAny<U, Less[D]>
      : T extends object
        ? true extends { [K in keyof T]-?: HoldsAny<T[K], Less[D]> }[keyof T]
          ? true
          : false
        : false;
/** Whether any part of T (any member of a union) holds `any`. */
type Holds<T> = true extends HoldsAny<T> ? true : false;
type Assert<T extends false> = T;
type Sees<T extends true> = T;

type Method = ServerController["request"];
type Command = ServerController["executeCommand"];
export type Checks = [
  // the check itself sees an `any` however deep
  Sees<Holds<{ a: { b: [1, { c: any }] } }>>,
  Sees<Holds<string | { a: any }[]>>,
  Assert<Holds<TraceResult>>,
  // the protocol maps: every request's params and reply, every command's argument and reply
  Assert<Holds<{ [M in keyof Requests]: Requests[M] }>>,
  Assert<Holds<{ [C in keyof Commands]: Commands[C] }>>,
  // what the extension's request functions take and return
  Assert<Holds<Parameters<Method>[0] | Parameters<Method>[1] | Awaited<ReturnType<Method>>>>,
  Assert<Holds<Parameters<Command>[0] | Parameters<Command>[1] | Awaited<ReturnType<Command>>>>,
  Assert<Holds<Parameters<ProtocolClient["request"]>[1] | Awaited<ReturnType<ProtocolClient["request"]>>>>,
  Assert<Holds<Parameters<ProtocolClient["executeCommand"]>[1] | Awaited<ReturnType<ProtocolClient["executeCommand"]>>>>,
];

// ---- run time

const root = process.env.SHARPBITS_REPO ?? path.resolve(__dirname, "..", "..");
const SRC = path.join(root, "extension", "src");

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return e.name.endsWith(".ts") ? [full] : [];
  });
}

/** TypeScript source with comments, strings, template literals and regular expressions blanked (newlines kept). */
export function codeOnly(text: string): string {
  let out = "";
  let i = 0;
  let last = ""; // the last significant character of code, to tell a regex from a division
  const blank = (s: string) => s.replace(/[^\n]/g, " ");
  while (i < text.length) {
    const c = text[i];
    const two = text.slice(i, i + 2);
    let end = -1;
    if (two === "//") end = text.indexOf("\n", i) === -1 ? text.length : text.indexOf("\n", i);
    else if (two === "/*") end = text.indexOf("*/", i + 2) + 2;
    else if (c === '"' || c === "'" || c === "`" || (c === "/" && (last === "" || "(,=:[!&|?{};+-*%<>~^".includes(last)))) {
      end = i + 1;
      let klass = false;
      while (end < text.length && (text[end] !== c || klass)) {
        if (text[end] === "\\") end++;
        else if (c === "/" && text[end] === "[") klass = true;
        else if (c === "/" && text[end] === "]") klass = false;
        else if (c !== "`" && text[end] === "\n") break;
        end++;
      }
      end++;
    }
    if (end > i) {
      out += blank(text.slice(i, end));
      if (c !== "/" || (two !== "//" && two !== "/*")) last = "x"; // a literal is a value
      i = end;
      continue;
    }
    out += c;
    if (!/\s/.test(c)) last = c;
    i++;
  }
  return out;
}

/** `file:line` of every `any` in the code of a source text. */
function anyIn(fileName: string, text: string): string[] {
  return codeOnly(text).split("\n").flatMap((line, i) => (/\bany\b/.test(line) ? [`${path.relative(root, fileName)}:${i + 1}`] : []));
}

describe("no any on the trace protocol", () => {
  test("the scan finds an `any` in code, and not in comments, strings or regular expressions", () => {
    const sample = [
      "let a: Promise<any>;", // 1
      "const b = x as any; // any", // 2
      "const c = 'any' + \"any\" + `any ${d}`;", // 3
      "/* any */ const e = /-none-any\\.whl$/.test(f) ? g / h : 2;", // 4
      "function i(j: unknown[]): any[] { return j; }", // 5
      "const company = 1; let many: unknown;", // 6
    ].join("\n");
    assert.deepEqual(anyIn(path.join(root, "x.ts"), sample), ["x.ts:1", "x.ts:2", "x.ts:5"]);
  });

  test("the extension's source has no `any`", () => {
    const files = sourceFiles(SRC);
    assert.ok(files.some((f) => f.endsWith(path.join("tracing", "protocol.generated.ts"))));
    assert.deepEqual(files.flatMap((f) => anyIn(f, fs.readFileSync(f, "utf8"))), []);
  });
});
