// Pure logic behind the compiled-code views (no `vscode` import, so node's test runner covers it): which lines
// of a jaxpr / StableHLO / optimized HLO listing came from which source line, and a stable colour per source line.

import type { CompiledInfo, JaxprInfo, TraceResult, View } from "./protocol.generated";

export type CompiledKind = Extract<View, "jaxpr" | "stablehlo" | "hlo">;

export interface CompiledListing {
  kind: CompiledKind;
  text: string;
  /** For each listing line (0-based index), the 1-based source line it came from, or null. */
  sourceLines: (number | null)[];
}

/** The listing of one kind from a `sharpbits/trace` result, or undefined when the result lacks it. */
export function listingFromResult(result: TraceResult, kind: CompiledKind): CompiledListing | undefined {
  const section: JaxprInfo | CompiledInfo | undefined = result[kind];
  if (!section || typeof section.text !== "string") return undefined;
  const text = section.text;
  const lines = text.split("\n");
  if (lines.length && lines[lines.length - 1] === "") lines.pop();
  const sourceLines: (number | null)[] = lines.map(() => null);
  const pairs: [number, number | null | undefined][] =
    kind === "jaxpr"
      ? ((section as JaxprInfo).text_lines ?? []).map(([textLine, line]) => [textLine, line])
      : ((section as CompiledInfo).ops ?? []).map((op) => [op.text_line ?? 0, op.line]);
  for (const [textLine, line] of pairs) {
    const index = textLine - 1; // the worker counts listing lines from 1
    if (index >= 0 && index < sourceLines.length && typeof line === "number" && sourceLines[index] === null) {
      sourceLines[index] = line;
    }
  }
  return { kind, text: lines.join("\n") + "\n", sourceLines };
}

/** Listing lines (0-based) that came from a source line (1-based). */
export function listingLinesFor(listing: CompiledListing, sourceLine: number): number[] {
  const out: number[] = [];
  listing.sourceLines.forEach((line, index) => {
    if (line === sourceLine) out.push(index);
  });
  return out;
}

/** The source lines a listing came from, each with its colour slot: the line's own (line % slots), so a source
 * line has the same colour in every listing and in every view opened after it, and neighbouring lines differ. */
export function colourSlots(listing: CompiledListing, slots: number): Map<number, number> {
  const out = new Map<number, number>();
  for (const line of listing.sourceLines) {
    if (line !== null && !out.has(line)) out.set(line, line % slots);
  }
  return out;
}

/** The traced function whose lines contain `line` (1-based), if any. */
export function functionAt<T extends { line: number; endLine: number }>(functions: T[], line: number): T | undefined {
  return functions.find((f) => f.line <= line && line <= f.endLine);
}
