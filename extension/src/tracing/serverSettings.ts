// What the extension sends the server (initializationOptions and didChangeConfiguration), from the
// `sharpbits.*` settings. Pure, so the trust rules are unit-tested: in an untrusted workspace nothing may run
// user code (tracing is off) and no interpreter or launch prefix comes from the workspace's own settings.
import type { Platform } from "./protocol.generated";

export interface SettingValue<T> {
  /** user (global) settings */
  globalValue?: T;
  /** workspace or folder settings (may come from a repository: not trusted until the workspace is) */
  workspaceValue?: T;
  workspaceFolderValue?: T;
  defaultValue?: T;
}

export type Inspect = <T>(key: string) => SettingValue<T> | undefined;

function effective<T>(inspect: Inspect, key: string, trusted: boolean, fallback: T): T {
  const v = inspect<T>(key);
  if (!v) return fallback;
  if (trusted) return (v.workspaceFolderValue ?? v.workspaceValue ?? v.globalValue ?? v.defaultValue ?? fallback) as T;
  return (v.globalValue ?? v.defaultValue ?? fallback) as T;
}

/** Settings that can execute programs: ignored from the workspace until it is trusted. */
export const RESTRICTED = ["interpreter", "trace.interpreter", "trace.launchPrefix"];

export function serverSettings(inspect: Inspect, trusted: boolean, lensCommand: string): Record<string, unknown> {
  const get = <T>(key: string, fallback: T): T =>
    effective<T>(inspect, key, RESTRICTED.includes(key) ? trusted : true, fallback);
  const interpreter = get<string | string[]>("trace.interpreter", "");
  const memoryLimitMb = get<number | null>("trace.memoryLimitMb", null);
  return {
    // The server enforces trust itself: with `trusted: false` every trace request is refused and no worker starts.
    trusted,
    select: get<string[]>("select", []),
    ignore: get<string[]>("ignore", []),
    severity: get<Record<string, string>>("severity", {}),
    maxFileSizeKB: get<number>("maxFileSizeKB", 4096),
    analysisTimeoutMs: get<number>("analysisTimeoutMs", 10000),
    analysisBudgetMs: get<number>("analysisBudgetMs", 30000),
    traceLensCommand: lensCommand,
    codeActions: {
      fixAllIncludesUnsafe: get<boolean>("codeActions.fixAllIncludesUnsafe", false),
      showUnsafeFixes: get<boolean>("codeActions.showUnsafeFixes", true),
      disableForThisLine: get<boolean>("codeActions.disableForThisLine", true),
    },
    docsUrl: get<string>("docsUrl", ""),
    trace: {
      enabled: trusted && get<boolean>("trace.enabled", true),
      platform: get<Platform>("trace.platform", "auto"),
      interpreter: Array.isArray(interpreter) ? interpreter[0] ?? "" : interpreter,
      launchPrefix: get<string>("trace.launchPrefix", ""),
      timeout: get<number>("trace.timeoutSeconds", 120),
      autoRetrace: get<boolean>("trace.autoRetrace", false),
      checkKeyReuse: get<boolean>("trace.checkKeyReuse", true),
      ...(typeof memoryLimitMb === "number" && memoryLimitMb >= 0 ? { memoryLimitMb } : {}),
      inlayHints: {
        runTime: get<boolean>("trace.inlayHints.runTime", true),
        roofline: get<boolean>("trace.inlayHints.roofline", true),
        collectives: get<boolean>("trace.inlayHints.collectives", true),
        equations: get<boolean>("trace.inlayHints.equations", true),
      },
    },
  };
}
