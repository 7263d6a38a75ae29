/**
 * The readiness report: what "Test connection" in the settings tab and `synapse models` show.
 * Shared by the plugin and the CLI, so it lives below both.
 */
import type { Surface } from "./errors";

/** The readiness check, in words a user can act on. */
export interface ReadinessReport {
  readonly provider: string;
  readonly ok: boolean;
  readonly reachable: boolean;
  readonly version: string | null;
  /** Installed or offered models, with what each reports it can do. */
  readonly models: readonly { readonly name: string; readonly capabilities: readonly string[] }[];
  /** Whether the configured model is among them (null when the server cannot say). */
  readonly modelPresent: boolean | null;
  /** What works, one sentence each. */
  readonly details: readonly string[];
  /** What to fix, one sentence each, as a terminal shows them; empty when ok. */
  readonly problems: readonly string[];
  /**
   * The same problems as Obsidian words them (a setting's name where the terminal's text names a
   * flag or an environment variable), one for one; absent when each reads the same on both.
   */
  readonly pluginProblems?: readonly string[];
  /** True when nothing was asked because the backend is not set up yet (no key, no token, no usable address). */
  readonly notSetUp?: boolean;
  /** The largest window, in tokens, requests will run in, when the check learned it. */
  readonly contextWindow?: number | null;
}

/** A problem whose advice differs by surface, as a SynapseError or an error summary carries it. */
export interface WordedProblem {
  readonly message: string;
  readonly pluginMessage?: string;
}

/** A report's `problems` and, when any of them differs in Obsidian, `pluginProblems`. */
export function problemFields(items: readonly (string | WordedProblem)[]): Pick<ReadinessReport, "problems" | "pluginProblems"> {
  const problems = items.map((item) => (typeof item === "string" ? item : item.message));
  const plugin = items.map((item) => (typeof item === "string" ? item : (item.pluginMessage ?? item.message)));
  return plugin.some((text, i) => text !== problems[i]) ? { problems, pluginProblems: plugin } : { problems };
}

/** What to fix, as `surface` words it. */
export function problemsOn(report: ReadinessReport, surface: Surface): readonly string[] {
  return surface === "plugin" ? (report.pluginProblems ?? report.problems) : report.problems;
}
