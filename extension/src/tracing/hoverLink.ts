// The links from a traced function's hover and run-time inlay hint to its trace report (pure: no `vscode` import,
// unit-tested). The
// server's hover on a traced function's name starts `**name** traced on`, on a line inside it `line N of **name**
// accounts for`; both get a command link that opens the report of that function (the hover is added to by the
// client's middleware, client.ts: other editors get the server's hover as it is).
import type { TraceTarget } from "./protocol.generated";

export const REPORT_COMMAND = "sharpbits.showTraceReport";

const TRACED_HOVER = [/^\*\*([\w.<>]+)\*\* traced on /, /^line \d+ of \*\*([\w.<>]+)\*\* accounts for /];

/** The function a trace hover is about; undefined for any other hover. */
export function tracedFunctionOf(markdown: string): string | undefined {
  for (const re of TRACED_HOVER) {
    const m = re.exec(markdown);
    if (m) return m[1];
  }
  return undefined;
}

/** A command URI that opens the report of `target` (the command's one argument, JSON in the query). */
export function reportCommandUri(target: TraceTarget): string {
  return `command:${REPORT_COMMAND}?${encodeURIComponent(JSON.stringify([target]))}`;
}

/** The Markdown line the hover gets: a link to the report of the function it is about; undefined for a hover that
 * is not about a trace. `uri`: the hovered document (a notebook cell's uri in a notebook). */
export function reportLinkMarkdown(hoverMarkdown: string, uri: string): string | undefined {
  const fn = tracedFunctionOf(hoverMarkdown);
  if (!fn) return undefined;
  return `[$(graph) Open the trace report of \`${fn}\`](${reportCommandUri({ uri, function: fn })} "Inputs, stages, cost and time, roofline and sharding of this trace")`;
}

/** The inlay hint after a traced function's def line (`run 715.4 µs · memory-bound: 40% of peak`): the client
 * makes it a link to the function's report. */
export const isRunTimeHint = (label: string): boolean => /^run \d/.test(label);

/** The traced function whose def line (1-based `line`, as `sharpbits/tracedFunctions` gives it) holds the hint at
 * 0-based `hintLine`. */
export function functionOfHint(functions: readonly { function: string; line: number }[], hintLine: number): string | undefined {
  return functions.find((f) => f.line === hintLine + 1)?.function;
}
