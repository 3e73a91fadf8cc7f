import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, test } from "node:test";
import type { TraceResult } from "../../extension/src/tracing/protocol.generated";
import { functionOfHint, isRunTimeHint, reportCommandUri, reportLinkMarkdown, tracedFunctionOf } from "../../extension/src/tracing/hoverLink";
import { clampPercent, GRID_COLOURS, percentText, reportFacts, reportHtml } from "../../extension/src/tracing/reportHtml";

const root = process.env.SHARPBITS_REPO ?? path.resolve(__dirname, "..", "..");
const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));

/** Every `match`/`begin`/`end` of a TextMate grammar, as JS regular expressions (close enough to Oniguruma for
 * the constructs these grammars use), and the scopes that match each token of a sample line. */
function grammar(file: string): { scopes: (line: string) => Set<string> } {
  const g = JSON.parse(fs.readFileSync(path.join(root, file), "utf8"));
  const rules: { re: RegExp; name?: string; captures?: Record<string, { name: string }> }[] = [];
  const walk = (node: any) => {
    if (!node || typeof node !== "object") return;
    for (const key of ["match", "begin"]) {
      if (typeof node[key] === "string") rules.push({ re: new RegExp(node[key], "g"), name: node.name, captures: node.captures });
    }
    for (const value of Object.values(node)) walk(value);
  };
  walk(g.repository);
  return {
    scopes: (line) => {
      const out = new Set<string>();
      for (const r of rules) {
        for (const m of line.matchAll(r.re)) {
          if (r.name) out.add(`${r.name}:${m[0]}`);
          for (const [i, c] of Object.entries(r.captures ?? {})) if (m[Number(i)]) out.add(`${c.name}:${m[Number(i)]}`);
        }
      }
      return out;
    },
  };
}

describe("listings get their language and grammar", () => {
  test("package.json contributes a language and a grammar for each listing, by the view's file extension", () => {
    const languages = Object.fromEntries(pkg.contributes.languages.map((l: any) => [l.id, l.extensions]));
    assert.deepEqual(languages.jaxpr, [".jaxpr"]);
    assert.ok(languages.stablehlo.includes(".stablehlo"));
    assert.deepEqual(languages.hlo, [".hlo"]);
    for (const g of pkg.contributes.grammars) assert.ok(fs.existsSync(path.join(root, g.path)), g.path);
    const shipped = fs.readFileSync(path.join(root, ".vscodeignore"), "utf8");
    assert.match(shipped, /!extension\/syntaxes\/\*\.tmLanguage\.json/, "the grammars are packaged");
  });

  test("jaxpr: primitives, typed variables and keywords have scopes", () => {
    const s = grammar("extension/syntaxes/jaxpr.tmLanguage.json").scopes("    b:f32[16] = sin a");
    assert.ok(s.has("entity.name.function.primitive.jaxpr:sin"), [...s].join("\n"));
    assert.ok(s.has("storage.type.dtype.jaxpr:f32"));
    assert.ok(grammar("extension/syntaxes/jaxpr.tmLanguage.json").scopes("{ lambda ; a:f32[16]. let").has("keyword.control.jaxpr:lambda"));
  });

  test("StableHLO and HLO: ops, values and types have scopes", () => {
    const s = grammar("extension/syntaxes/stablehlo.tmLanguage.json").scopes("    %0 = stablehlo.sine %arg0 : tensor<16xf32>");
    assert.ok(s.has("entity.name.function.op.stablehlo:stablehlo.sine"), [...s].join("\n"));
    assert.ok(s.has("variable.other.ssa.stablehlo:%arg0"));
    assert.ok(s.has("storage.type.stablehlo:tensor<16xf32>"));
    const h = grammar("extension/syntaxes/hlo.tmLanguage.json").scopes("  ROOT %add.3 = f32[16]{0} add(f32[16]{0} %sine.1, f32[16]{0} %c)");
    assert.ok(h.has("entity.name.function.opcode.hlo:add"), [...h].join("\n"));
    assert.ok(h.has("keyword.control.hlo:ROOT"));
  });
});

const RESULT: TraceResult = {
  ok: true,
  spec: { source: "directive", text: "x=f32[1000000]", line: 7 },
  timings: { module_s: 0.8, trace_s: 0.01, lower_s: 0.005, compile_s: 0.03, compile_cache: "hit", first_call_s: 0.04, run: { median_s: 0.0012, p10_s: 0.0011, p90_s: 0.0014, n: 50 }, eager: { run: { median_s: 0.006 } } },
  compile: { trace_s: 0.01, lower_s: 0.005, compile_s: 0.03, total_s: 0.045, cache: "hit" },
  jaxpr: { text: "{ lambda ; }", eqns: 7 },
  cost: { flops: 4e6, transcendentals: 1e6, bytes_accessed: 8e6, memory: { argument_size_bytes: 4e6, output_size_bytes: 4e6, temp_size_bytes: 0 } },
  roofline: { bound: "memory", fraction_of_peak: 3.85, flops_fraction: 0.02, bytes_fraction: 3.85 },
  device: { platform: "cpu", device_kind: "cpu", count: 1 },
};

describe("the trace report", () => {
  test("says the inputs (directive first), each stage with its time, and the table with the compile split and cache hit", () => {
    const f = reportFacts("selu", RESULT);
    assert.deepEqual(f.inputs, { text: "x=f32[1000000]", source: "from the # sharpbits: trace(...) comment on line 7" });
    assert.deepEqual(f.stages.map((s) => s.name), ["import", "trace", "lower", "compile", "run"]);
    assert.equal(f.stages[3].note, "cache hit");
    const rows = Object.fromEntries(f.rows);
    assert.equal(rows["jaxpr equations"], "7");
    assert.match(rows.compile, /^45\.0 ms = tracing 10\.0 ms \+ lowering 5\.0 ms \+ XLA compile 30\.0 ms \(cache hit\)$/);
    assert.match(rows["run (eager)"], /jit is 5\.0× faster/);
  });

  test("the roofline chart never shows more than 100% of peak", () => {
    const f = reportFacts("selu", RESULT);
    assert.equal(f.roofline!.percent, 100);
    assert.equal(clampPercent(-1), 0);
    assert.equal(clampPercent(Number.NaN), 0);
    // a share that rounds to 0 but is not 0 says so (the hover's "<1% of peak"), never "0% of peak"
    assert.deepEqual([percentText(0.3), percentText(0), percentText(37.4), percentText(100)], ["<1%", "0%", "37%", "100%"]);
    const tiny = reportHtml(reportFacts("layer", { ...RESULT, roofline: { bound: "memory", fraction_of_peak: 0.003, flops_fraction: 0.0001, bytes_fraction: 0.003 } }),
      { cspSource: "vscode-webview://x", nonce: "N0nce" });
    assert.match(tiny, /<b>memory-bound: &lt;1% of peak<\/b>/);
    const html = reportHtml(f, { cspSource: "vscode-webview://x", nonce: "N0nce" });
    assert.ok(!/\b(1\d\d|[2-9]\d\d)% of peak/.test(html.replaceAll("100% of peak", "")), "no figure above 100%");
  });

  test("the page loads nothing remote, runs only its own nonce'd script, and escapes what it shows", () => {
    const html = reportHtml(reportFacts("<img src=x onerror=alert(1)>", { ...RESULT, spec: { source: "explicit", text: '"><script>x</script>', line: null } }),
      { cspSource: "vscode-webview://x", nonce: "N0nce" });
    assert.match(html, /Content-Security-Policy" content="default-src 'none'; img-src vscode-webview:\/\/x data:; style-src 'nonce-N0nce'; script-src 'nonce-N0nce';"/);
    assert.ok(!/https?:\/\//.test(html), "no remote resource");
    assert.ok(!html.includes("<img src=x"), "the function name is escaped");
    assert.ok(!html.includes("<script>x</script>"), "the inputs are escaped");
    assert.equal((html.match(/<script/g) ?? []).length, 1);
    assert.ok(!/\sstyle="/.test(html), "no inline style attribute (the CSP allows none)");
  });
});

// examples/tracing_sharding.py's layer over 8 host devices, as the worker reports it (tests/trace/test_sharding.py)
const SHARDED: TraceResult = {
  ...RESULT,
  device: { platform: "cpu", device_kind: "cpu", count: 8 },
  sharding: {
    device_count: 8,
    arguments: [
      { name: "x", shape: [64, 32], dtype: "float32", sharding: "NamedSharding", spec: "P('data', None)", devices: 8, replicated: false,
        grid: { rows: [[0, 16], [16, 32], [32, 48], [48, 64]], cols: [[0, 32]], cells: [[[0, 1]], [[2, 3]], [[4, 5]], [[6, 7]]] } },
      { name: "w", shape: [32, 16], dtype: "float32", sharding: "NamedSharding", spec: "P(None, 'model')", devices: 8, replicated: false,
        grid: { rows: [[0, 32]], cols: [[0, 8], [8, 16]], cells: [[[0, 2, 4, 6], [1, 3, 5, 7]]] } },
      { name: "b", shape: [16], dtype: "float32", sharding: "NamedSharding", spec: "P('model')", devices: 8, replicated: false,
        grid: { rows: [[0, 8], [8, 16]], cols: [[0, 1]], cells: [[[0, 2, 4, 6]], [[1, 3, 5, 7]]] } },
    ],
    results: [{ name: "result", shape: [], dtype: "float32", sharding: "NamedSharding", spec: "P()", devices: 8, replicated: true,
      grid: { rows: [[0, 1]], cols: [[0, 1]], cells: [[[0, 1, 2, 3, 4, 5, 6, 7]]] } }],
  },
  collectives: [{ op: "all-gather", bytes: 1024, shape: "f32[16,16]", line: 24, text_line: 40 }, { op: "all-reduce", bytes: 4, shape: "f32[]", line: 27, text_line: 52 }],
};

describe("the trace report's sharding", () => {
  test("each sharded value's device grid: row and column blocks, the devices of each block, one colour per device set", () => {
    const s = reportFacts("layer", SHARDED).sharding!;
    assert.equal(s.devices, 8);
    const [x, w, b, result] = s.values;
    assert.deepEqual([x.role, x.type, x.spec, x.how], ["argument", "float32[64, 32]", "P('data', None)", "split over 8 devices"]);
    assert.deepEqual(x.grid!.rows, ["0:16", "16:32", "32:48", "48:64"]);
    assert.deepEqual(x.grid!.cols, ["0:32"]);
    assert.deepEqual(x.grid!.cells.map((r) => r.map((c) => c.devices)), [[[0, 1]], [[2, 3]], [[4, 5]], [[6, 7]]]);
    assert.deepEqual(x.grid!.cells.map((r) => r[0].colour), [0, 1, 2, 3], "four device sets, four colours");
    assert.deepEqual(w.grid!.cols, ["0:8", "8:16"]);
    assert.deepEqual(w.grid!.cells[0].map((c) => [c.devices, c.colour]), [[[0, 2, 4, 6], 0], [[1, 3, 5, 7], 1]]);
    assert.deepEqual(b.grid!.cols, [], "a value of one axis has no column ranges: its blocks are rows");
    assert.deepEqual([result.role, result.replicated, result.how, result.grid], ["result", true, "replicated on 8 devices", undefined]);
    assert.deepEqual(s.collectives, ["all-gather 1.00 KiB (line 24)", "all-reduce 4 B (line 27)"]);
    assert.equal(reportFacts("selu", RESULT).sharding, undefined, "one device: no sharding section");
  });

  test("the page draws each grid as a table, coloured by theme classes, and names the collectives", () => {
    const html = reportHtml(reportFacts("layer", SHARDED), { cspSource: "vscode-webview://x", nonce: "N0nce" });
    assert.match(html, /<section id="sharding"><h2>Sharding over 8 devices<\/h2>/);
    const grids = [...html.matchAll(/<table class="grid" data-value="(\w+)"[^>]*>(.*?)<\/table>/g)];
    assert.deepEqual(grids.map((g) => g[1]), ["x", "w", "b"], "a grid for each split value, none for the replicated result");
    const cells = (table: string) => [...table.matchAll(/<td class="block c(\d)"[^>]*>([^<]*)<\/td>/g)].map((m) => [m[2], Number(m[1])]);
    assert.deepEqual(cells(grids[0][2]), [["0,1", 0], ["2,3", 1], ["4,5", 2], ["6,7", 3]]);
    assert.deepEqual(cells(grids[1][2]), [["0,2,4,6", 0], ["1,3,5,7", 1]]);
    assert.match(grids[1][2], /<th scope="col">0:8<\/th><th scope="col">8:16<\/th>/);
    assert.match(grids[0][2], /title="x\[16:32, 0:32\] on devices 2, 3"/);
    for (let i = 0; i < GRID_COLOURS; i++) assert.match(html, new RegExp(`table\\.grid td\\.c${i} \\{ background: color-mix\\(in srgb, var\\(--vscode-charts-`), `colour ${i} from the theme`);
    assert.match(html, /<p id="collectives">Collectives: all-gather 1\.00 KiB \(line 24\), all-reduce 4 B \(line 27\)<\/p>/);
    assert.ok(!/\sstyle="/.test(html), "no inline style attribute (the CSP allows none)");
    const many = { ...SHARDED, sharding: { ...SHARDED.sharding!, arguments: [{ ...SHARDED.sharding!.arguments[0],
      grid: { rows: [0, 1, 2, 3, 4, 5, 6, 7].map((i) => [i, i + 1]), cols: [[0, 32]], cells: [0, 1, 2, 3, 4, 5, 6, 7].map((i) => [[i]]) } }] } };
    assert.deepEqual(reportFacts("layer", many).sharding!.values[0].grid!.cells.map((r) => r[0].colour), [0, 1, 2, 3, 4, 5, 0, 1], "colours cycle past six");
  });
});

describe("a traced function's hover links to its report", () => {
  test("the hover on the name and on a line inside get the link; other hovers do not", () => {
    assert.equal(tracedFunctionOf("**selu** traced on `cpu`\n\njaxpr 7 eqns"), "selu");
    assert.equal(tracedFunctionOf("line 9 of **Model.apply** accounts for 3 jaxpr equations (of 7, with what it calls): `sin`"), "Model.apply");
    assert.equal(tracedFunctionOf("`trace(...)`: example inputs for **selu** traced on"), undefined);
    assert.equal(reportLinkMarkdown("a rule's page", "file:///a.py"), undefined);
    const link = reportLinkMarkdown("**selu** traced on `cpu`", "file:///w/tracing_selu.py")!;
    const uri = reportCommandUri({ uri: "file:///w/tracing_selu.py", function: "selu" });
    assert.ok(link.includes(`](${uri} "`), link);
    assert.match(uri, /^command:sharpbits\.showTraceReport\?/);
    assert.deepEqual(JSON.parse(decodeURIComponent(uri.split("?")[1])), [{ uri: "file:///w/tracing_selu.py", function: "selu" }]);
    assert.ok(pkg.contributes.commands.some((c: { command: string }) => c.command === "sharpbits.showTraceReport"), "the command exists");
  });

  test("the run-time inlay hint after a def line is the one that links, to the function defined on its line", () => {
    assert.equal(isRunTimeHint("run 715.4 µs · memory-bound: 40% of peak"), true);
    assert.equal(isRunTimeHint("run 1.2 ms"), true);
    assert.equal(isRunTimeHint("  7 eqns"), false);
    assert.equal(isRunTimeHint("  all-gather 1.00 KiB"), false);
    const functions = [{ function: "selu", line: 8 }, { function: "Model.apply", line: 20 }];
    assert.equal(functionOfHint(functions, 7), "selu", "hint lines are 0-based, function lines 1-based");
    assert.equal(functionOfHint(functions, 19), "Model.apply");
    assert.equal(functionOfHint(functions, 8), undefined);
  });
});

describe("the extension page", () => {
  test("is the user's README, with every image it shows shipped in the .vsix, an icon and a category beyond Linters", () => {
    const build = fs.readFileSync(path.join(root, "scripts", "build_vsix.sh"), "utf8");
    const readme = fs.readFileSync(path.join(root, "extension", "README.md"), "utf8");
    assert.doesNotMatch(readme, /make editor|make test|pytest/, "no developer instructions on the extension page");
    // (an alt text may hold `.at[]`: a bracket inside backticks does not end it)
    const images = [...readme.matchAll(/!\[(?:[^\]`]|`[^`]*`)*\]\(([^)]+)\)/g)].map((m) => m[1]);
    assert.equal(images.length, (readme.match(/!\[/g) ?? []).length, "every image found");
    assert.ok(images.length >= 3, "screenshots");
    // an extension's page shows only https: images: build_vsix.sh links them to SHARPBITS_README_IMAGES_URL, or
    // leaves them out of the packaged README
    assert.match(build, /SHARPBITS_README_IMAGES_URL/);
    assert.match(build, /--readme-path build\/vsix\/README\.md/);
    for (const image of images) {
      assert.match(image, /^extension\/images\/[\w.-]+\.png$/, "a screenshot under extension/images/ (what build_vsix.sh inlines)");
      assert.ok(fs.existsSync(path.join(root, image)), `${image} exists`);
    }
    assert.ok(fs.existsSync(path.join(root, pkg.icon)), "the icon");
    assert.ok(pkg.categories.length > 2);
    // every setting has a title a person would write at the start of its description
    for (const [key, value] of Object.entries<any>(pkg.contributes.configuration.properties)) {
      assert.match(value.markdownDescription ?? "", /^\*\*[A-Z“][^*]+\.\*\* /, `${key} has a title`);
    }
  });
});
