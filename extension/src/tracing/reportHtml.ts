// The trace report's page, built from the one stored TraceResult of a function (pure: no `vscode` import,
// unit-tested). Theme-styled with VS Code's CSS variables; nothing remote: a strict CSP allows only this page's
// own style and script (by nonce). The script only posts the user's clicks back to the extension.
import type { ShardedValue, TraceResult } from "./protocol.generated";

/** One value's sharding as the report draws it: its device grid over the first two axes (block rows down, block
 * columns across, the devices that hold each block), as jax.debug.visualize_array_sharding draws it. */
export interface ShardedFacts {
  role: "argument" | "result";
  name: string;
  type: string;
  spec: string;
  /** "split over 8 devices", "replicated on 8 devices" */
  how: string;
  replicated: boolean;
  grid?: {
    rows: string[];
    /** empty for a value of one axis (its blocks are rows) */
    cols: string[];
    /** each block: its devices and a colour (the same device set, the same colour within the value) */
    cells: { devices: number[]; colour: number }[][];
  };
}

export interface ShardingFacts {
  devices: number;
  values: ShardedFacts[];
  collectives: string[];
}

export interface ReportFacts {
  fn: string;
  inputs: { text: string; source: string };
  stages: { name: string; seconds: number | null; note?: string }[];
  rows: [string, string][];
  /** percentages clamped to 100; `above`: the measured rate exceeded the peak figure (the peak is too low) */
  roofline?: { bound: string; percent: number; flopsPercent: number; bytesPercent: number; note?: string; above?: boolean; cacheResident?: boolean };
  /** each argument's and result's device grid, and the collectives, for a function sharded over several devices */
  sharding?: ShardingFacts;
  listings: string[];
  ok: boolean;
  error?: string;
}

const esc = (s: unknown): string =>
  String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

export function duration(s: number | null | undefined): string {
  if (s === null || s === undefined || !Number.isFinite(s)) return "—";
  if (s >= 1) return `${s.toFixed(2)} s`;
  if (s >= 1e-3) return `${(s * 1e3).toFixed(s >= 0.1 ? 0 : 1)} ms`;
  return `${(s * 1e6).toFixed(1)} µs`;
}

function si(n: number | null | undefined, unit: string): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return "—";
  const prefixes = ["", "k", "M", "G", "T", "P"];
  let i = 0;
  let v = n;
  while (Math.abs(v) >= 1000 && i < prefixes.length - 1) {
    v /= 1000;
    i++;
  }
  return `${v.toFixed(v >= 100 || i === 0 ? 0 : 1)} ${prefixes[i]}${unit}`;
}

function bytes(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return "—";
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let i = 0;
  let v = n;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(i === 0 ? 0 : 2)} ${units[i]}`;
}

/** A percentage for the chart: never above 100 (a figure above the peak says the peak is wrong, not the code). */
export const clampPercent = (fraction: number | null | undefined): number =>
  fraction === null || fraction === undefined || !Number.isFinite(fraction) ? 0 : Math.max(0, Math.min(100, 100 * fraction));

const INPUT_SOURCES: Record<string, string> = {
  directive: "from the # sharpbits: trace(...) comment",
  explicit: "typed in the editor",
  jaxtyping: "from the annotations",
  "none-needed": "none needed",
};

/** What the report says, as data (the e2e tests read it through the test hook). */
export function reportFacts(fn: string, result: TraceResult): ReportFacts {
  const spec = result.spec;
  const where = spec?.source === "directive" && spec.line ? ` on line ${spec.line}` : "";
  const inputs = { text: spec?.text ?? "", source: spec ? `${INPUT_SOURCES[spec.source] ?? spec.source}${where}` : "not known" };
  const t = result.timings ?? {};
  const comp = result.compile ?? {};
  const cache = comp.cache ?? t.compile_cache;
  const stages = [
    { name: "import", seconds: t.module_s ?? null, note: "the module's top level ran" },
    { name: "trace", seconds: comp.trace_s ?? t.trace_s ?? null },
    { name: "lower", seconds: comp.lower_s ?? t.lower_s ?? null },
    { name: "compile", seconds: comp.compile_s ?? t.compile_s ?? null, note: cache === "hit" ? "cache hit" : cache ? `cache ${cache}` : undefined },
    { name: "run", seconds: t.run?.median_s ?? null, note: t.run?.n ? `median of ${t.run.n}` : undefined },
  ];
  const rows: [string, string][] = [];
  const jaxpr = result.jaxpr;
  if (jaxpr?.eqns !== undefined) rows.push(["jaxpr equations", String(jaxpr.eqns)]);
  const cost = result.cost;
  if (cost) {
    rows.push(["FLOPs", si(cost.flops, "FLOP")]);
    if (cost.transcendentals) rows.push(["transcendentals", si(cost.transcendentals, "")]);
    rows.push(["bytes accessed", bytes(cost.bytes_accessed)]);
    const m = cost.memory;
    if (m) {
      rows.push(["arguments", bytes(m.argument_size_bytes)]);
      rows.push(["outputs", bytes(m.output_size_bytes)]);
      rows.push(["temporaries", bytes(m.temp_size_bytes)]);
      if (m.peak_memory_bytes !== undefined) rows.push(["peak memory", bytes(m.peak_memory_bytes)]);
    }
  }
  if (comp.total_s !== undefined) {
    const parts = [`tracing ${duration(comp.trace_s)}`, `lowering ${duration(comp.lower_s)}`, `XLA compile ${duration(comp.compile_s)}`];
    rows.push(["compile", `${duration(comp.total_s)} = ${parts.join(" + ")}${cache === "hit" ? " (cache hit)" : ""}`]);
  } else if (t.compile_s !== undefined) {
    rows.push(["compile", `${duration(t.compile_s)}${cache === "hit" ? " (cache hit)" : ""}`]);
  }
  if (t.first_call_s !== undefined) rows.push(["first call (jit)", duration(t.first_call_s)]);
  if (t.run?.median_s !== undefined) {
    const spread = t.run.p10_s !== undefined && t.run.p90_s !== undefined ? ` (p10 ${duration(t.run.p10_s)}, p90 ${duration(t.run.p90_s)})` : "";
    rows.push(["run (jit)", `${duration(t.run.median_s)}${spread}`]);
  }
  if (t.eager?.run?.median_s !== undefined) {
    const speedup = t.run?.median_s ? ` · jit is ${(t.eager.run.median_s / t.run.median_s).toFixed(1)}× faster` : "";
    rows.push(["run (eager)", `${duration(t.eager.run.median_s)}${speedup}`]);
  } else if (t.eager?.skipped) {
    rows.push(["run (eager)", `not measured: ${t.eager.skipped}`]);
  }
  const device = result.device;
  if (device) rows.push(["device", `${device.device_kind ?? "?"}${device.count && device.count > 1 ? ` × ${device.count}` : ""}`]);
  const r = result.roofline;
  const roofline = r?.bound
    ? { bound: r.bound, percent: clampPercent(r.fraction_of_peak), flopsPercent: clampPercent(r.flops_fraction), bytesPercent: clampPercent(r.bytes_fraction), note: r.note,
        above: r.above_peak ?? (r.fraction_of_peak ?? 0) > 1, cacheResident: r.cache_resident }
    : undefined;
  const listings = (["jaxpr", "stablehlo", "hlo"] as const).filter((k) => k === "jaxpr" ? !!result.jaxpr : true);
  const error = result.ok ? undefined : `${result.error?.type ?? "error"}: ${String(result.error?.message ?? "").split("\n")[0]}`;
  return { fn, inputs, stages, rows, roofline, sharding: shardingFacts(result), listings, ok: !!result.ok, error };
}

/** The theme's chart colours the grid's blocks cycle through (classes c0..c5, styled with --vscode-charts-*). */
export const GRID_COLOURS = 6;

function shardedFacts(role: ShardedFacts["role"], v: ShardedValue): ShardedFacts {
  const shape = v.shape ?? [];
  const replicated = !!v.replicated;
  const facts: ShardedFacts = {
    role,
    name: v.name ?? "?",
    type: `${v.dtype ?? "?"}[${shape.join(", ")}]`,
    spec: v.spec ?? v.sharding ?? "",
    how: replicated ? `replicated on ${v.devices ?? "every"} devices` : `split over ${v.devices ?? "?"} devices`,
    replicated,
  };
  const grid = v.grid;
  if (grid && !replicated && grid.cells.length) {
    const sets = new Map<string, number>();
    const colour = (devices: number[]) => {
      const key = devices.join(",");
      if (!sets.has(key)) sets.set(key, sets.size % GRID_COLOURS);
      return sets.get(key)!;
    };
    facts.grid = {
      rows: grid.rows.map(([a, b]) => `${a}:${b}`),
      cols: shape.length >= 2 ? grid.cols.map(([a, b]) => `${a}:${b}`) : [],
      cells: grid.cells.map((row) => row.map((devices) => ({ devices, colour: colour(devices) }))),
    };
  }
  return facts;
}

/** The sharding the report draws; undefined when every argument and result sits on one device. */
export function shardingFacts(result: TraceResult): ShardingFacts | undefined {
  const info = result.sharding;
  if (!info) return undefined;
  const values = [...info.arguments.map((v) => shardedFacts("argument", v)), ...info.results.map((v) => shardedFacts("result", v))];
  const collectives = (result.collectives ?? []).map((c) => `${c.op} ${bytes(c.bytes)}${c.line ? ` (line ${c.line})` : ""}`);
  return { devices: info.device_count, values, collectives };
}

function gridHtml(v: ShardedFacts): string {
  const g = v.grid!;
  const label = (devices: number[]) => (devices.length ? devices.join(",") : "—");
  const head = g.cols.length ? `<tr><td></td>${g.cols.map((c) => `<th scope="col">${esc(c)}</th>`).join("")}</tr>` : "";
  const body = g.rows.map((r, i) => `<tr><th scope="row">${esc(r)}</th>` + g.cells[i].map((cell, j) =>
    `<td class="block c${cell.colour}" title="${esc(`${v.name}[${r}${g.cols.length ? `, ${g.cols[j]}` : ""}] on device${cell.devices.length === 1 ? "" : "s"} ${cell.devices.join(", ")}`)}">` +
    `${esc(label(cell.devices))}</td>`).join("") + "</tr>").join("");
  return `<table class="grid" data-value="${esc(v.name)}" aria-label="${esc(`device grid of ${v.name}: rows ${g.rows.join(" ")}${g.cols.length ? `, columns ${g.cols.join(" ")}` : ""}`)}">${head}${body}</table>`;
}

function shardingHtml(s: ShardingFacts): string {
  const values = s.values.map((v) =>
    `<div class="sharded" data-role="${v.role}"><p><code>${esc(v.name)}</code> ${v.name === v.role ? "" : `<span class="note">${esc(v.role)}</span> `}` +
    `<code>${esc(v.type)}</code> <code>${esc(v.spec)}</code> (${esc(v.how)})</p>${v.grid ? gridHtml(v) : ""}</div>`).join("");
  const collectives = s.collectives.length ? s.collectives.map(esc).join(", ") : "none";
  return `<section id="sharding"><h2>Sharding over ${s.devices} devices</h2>` +
    `<p class="note">Each grid: the value's first axis in blocks down, its second across; in each block the devices that hold it.</p>` +
    `${values}<p id="collectives">Collectives: ${collectives}</p></section>`;
}

const LISTING_TITLES: Record<string, string> = { jaxpr: "jaxpr", stablehlo: "StableHLO", hlo: "optimized HLO" };

/** `37%`; `<1%` for a share above 0 that rounds to 0 (as the hover says it). */
export const percentText = (pct: number): string => (pct > 0 && pct < 0.5 ? "<1%" : `${pct.toFixed(0)}%`);

function rooflineSvg(r: NonNullable<ReportFacts["roofline"]>): string {
  const bar = (y: number, label: string, pct: number, bound: boolean) =>
    `<text x="0" y="${y + 12}" class="label">${esc(label)}</text>` +
    `<rect x="90" y="${y}" width="200" height="16" class="track"/>` +
    `<rect x="90" y="${y}" width="${(2 * pct).toFixed(1)}" height="16" class="${bound ? "fill bound" : "fill"}"/>` +
    `<text x="298" y="${y + 12}" class="value">${esc(percentText(pct))}</text>`;
  return `<svg class="roofline" viewBox="0 0 340 48" width="340" height="48" role="img" aria-label="roofline: ${esc(r.bound)}-bound, ${esc(percentText(r.percent))} of peak">` +
    bar(4, "compute", r.flopsPercent, r.bound === "compute") + bar(26, "memory", r.bytesPercent, r.bound === "memory") + "</svg>";
}

/** The whole page. `cspSource`: the webview's own origin (nothing else may load); `nonce`: for the style and
 * the script; `stale`: the document changed since this trace. */
export function reportHtml(facts: ReportFacts, options: { cspSource: string; nonce: string; stale?: boolean }): string {
  const { nonce } = options;
  const csp = `default-src 'none'; img-src ${options.cspSource} data:; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}';`;
  const total = facts.stages.reduce((n, s) => n + (s.seconds ?? 0), 0) || 1;
  const stages = facts.stages.map((s) =>
    `<li class="stage ${s.seconds === null ? "missing" : "done"}" data-stage="${esc(s.name)}"><span class="name">${esc(s.name)}</span>` +
    `<svg class="bar" viewBox="0 0 100 8" preserveAspectRatio="none" height="8"><rect class="track" width="100" height="8"/>` +
    `<rect class="fill" width="${s.seconds ? Math.max(2, (100 * s.seconds) / total).toFixed(1) : 0}" height="8"/></svg>` +
    `<span class="time">${s.seconds === null ? "—" : esc(duration(s.seconds))}${s.note ? ` <span class="note">(${esc(s.note)})</span>` : ""}</span></li>`).join("");
  const rows = facts.rows.map(([k, v]) => `<tr><th scope="row">${esc(k)}</th><td>${esc(v)}</td></tr>`).join("");
  const roofline = facts.roofline
    ? `<section id="roofline"><h2>Roofline</h2><p><b>${esc(facts.roofline.bound)}-bound: ${esc(percentText(facts.roofline.percent))} of peak</b>` +
      (facts.roofline.above ? ` <span class="note">(measured above the peak figure it is compared with)</span>` : "") +
      (facts.roofline.cacheResident ? ` <span class="note">(the working set fits in cache: compared with the cache's bandwidth)</span>` : "") + "</p>" +
      rooflineSvg(facts.roofline) + (facts.roofline.note ? `<p class="note">${esc(facts.roofline.note)}</p>` : "") + "</section>"
    : "";
  const links = facts.listings.map((k) => `<button class="link" data-listing="${esc(k)}">Open ${esc(LISTING_TITLES[k])}</button>`).join(" ");
  // (no inline style attributes: the CSP allows only the nonce'd <style>; bar widths are SVG attributes)
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Trace report: ${esc(facts.fn)}</title>
<style nonce="${nonce}">
body { font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); color: var(--vscode-foreground); background: var(--vscode-editor-background); padding: 0 16px 16px; }
h1 { font-size: 1.3em; font-weight: 600; } h2 { font-size: 1.05em; font-weight: 600; margin: 18px 0 6px; }
.error { color: var(--vscode-errorForeground); } .stale { color: var(--vscode-editorWarning-foreground); }
.note { color: var(--vscode-descriptionForeground); }
input[type=text] { width: 100%; box-sizing: border-box; font-family: var(--vscode-editor-font-family); color: var(--vscode-input-foreground); background: var(--vscode-input-background); border: 1px solid var(--vscode-input-border, transparent); padding: 4px 6px; }
button { color: var(--vscode-button-foreground); background: var(--vscode-button-background); border: none; padding: 4px 10px; cursor: pointer; margin-top: 6px; }
button:hover { background: var(--vscode-button-hoverBackground); }
button.link { color: var(--vscode-textLink-foreground); background: none; padding: 2px 4px; }
ol.stages { list-style: none; padding: 0; margin: 0; }
.stage { display: grid; grid-template-columns: 70px 1fr 190px; gap: 8px; align-items: center; margin: 3px 0; }
.stage svg.bar { width: 100%; height: 8px; }
.stage svg.bar .track { fill: var(--vscode-editorWidget-border, rgba(128,128,128,.25)); }
.stage svg.bar .fill { fill: var(--vscode-progressBar-background); }
.stage.missing .name { color: var(--vscode-disabledForeground); }
table { border-collapse: collapse; } th, td { text-align: left; padding: 3px 12px 3px 0; border-bottom: 1px solid var(--vscode-editorWidget-border, rgba(128,128,128,.2)); }
th { font-weight: normal; color: var(--vscode-descriptionForeground); }
td { font-family: var(--vscode-editor-font-family); }
svg.roofline text { fill: var(--vscode-foreground); font-size: 11px; }
svg.roofline .track { fill: var(--vscode-editorWidget-border, rgba(128,128,128,.25)); }
table.grid { margin: 4px 0 12px; } table.grid th { font-family: var(--vscode-editor-font-family); font-size: 0.9em; padding: 2px 8px; border: none; text-align: center; }
table.grid th[scope=row] { text-align: right; }
table.grid td.block { min-width: 56px; padding: 8px; text-align: center; border: 1px solid var(--vscode-editor-background); color: var(--vscode-foreground); }
table.grid td.c0 { background: color-mix(in srgb, var(--vscode-charts-blue, #3794ff) 40%, transparent); }
table.grid td.c1 { background: color-mix(in srgb, var(--vscode-charts-orange, #d18616) 40%, transparent); }
table.grid td.c2 { background: color-mix(in srgb, var(--vscode-charts-green, #89d185) 40%, transparent); }
table.grid td.c3 { background: color-mix(in srgb, var(--vscode-charts-purple, #b180d7) 40%, transparent); }
table.grid td.c4 { background: color-mix(in srgb, var(--vscode-charts-yellow, #cca700) 40%, transparent); }
table.grid td.c5 { background: color-mix(in srgb, var(--vscode-charts-red, #f14c4c) 40%, transparent); }
.sharded p { margin: 8px 0 2px; }
svg.roofline .fill { fill: var(--vscode-charts-blue, #3794ff); } svg.roofline .fill.bound { fill: var(--vscode-charts-orange, #d18616); }
</style></head>
<body>
<h1>Trace report: <code>${esc(facts.fn)}</code></h1>
${options.stale ? `<p class="stale">The code changed since this trace: trace again to update it.</p>` : ""}
${facts.ok ? "" : `<p class="error" id="error">${esc(facts.error)}</p>`}
<section id="inputs"><h2>Inputs</h2>
<p class="note" id="inputs-source">${esc(facts.inputs.source)}</p>
<input type="text" id="inputs-text" value="${esc(facts.inputs.text)}" aria-label="example inputs" spellcheck="false">
<button id="retrace">Trace again with these inputs</button>
</section>
<section id="stages"><h2>Stages</h2><ol class="stages">${stages}</ol></section>
<section id="numbers"><h2>Cost, memory and time</h2><table id="table">${rows}</table></section>
${roofline}
${facts.sharding ? shardingHtml(facts.sharding) : ""}
<section id="listings"><h2>Listings</h2>${links}</section>
<script nonce="${nonce}">
const vscode = acquireVsCodeApi();
document.getElementById("retrace").addEventListener("click", () =>
  vscode.postMessage({ type: "retrace", inputs: document.getElementById("inputs-text").value }));
document.getElementById("inputs-text").addEventListener("keydown", (e) => {
  if (e.key === "Enter") vscode.postMessage({ type: "retrace", inputs: e.target.value });
});
for (const b of document.querySelectorAll("button[data-listing]"))
  b.addEventListener("click", () => vscode.postMessage({ type: "open", listing: b.dataset.listing }));
</script>
</body></html>`;
}
