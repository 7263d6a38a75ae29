/**
 * A readiness report as "Test connection" shows it: one headline that says which of four states
 * the backend is in — not set up, unreachable, model missing, ready (with the context window in
 * use) — then at most three lines, what to fix first. The backend is named as the settings name
 * it, never by its internal id.
 */
import { problemsOn, type ReadinessReport } from "../core/readiness";

export type ReadinessState = "not-set-up" | "unreachable" | "model-missing" | "not-ready" | "ready";

export interface ReadinessText {
  readonly ok: boolean;
  readonly state: ReadinessState;
  readonly headline: string;
  /** At most three: what to fix first, then what works. */
  readonly lines: readonly string[];
  /** How many of `lines` are things to fix (they come first). */
  readonly fixes: number;
}

const MAX_LINES = 3;

const NAMES: Record<string, string> = {
  offline: "The offline provider",
  ollama: "Ollama",
  anthropic: "Anthropic",
  openai: "The server",
  "claude-agent": "The bridge",
  cli: "The bridge",
};

export function readinessState(report: ReadinessReport): ReadinessState {
  if (report.notSetUp) return "not-set-up";
  if (!report.reachable) return "unreachable";
  if (report.modelPresent === false) return "model-missing";
  return report.ok ? "ready" : "not-ready";
}

function headlineOf(report: ReadinessReport, state: ReadinessState): string {
  const name = NAMES[report.provider] ?? "The backend";
  const version = report.version ? ` ${report.version}` : "";
  switch (state) {
    case "not-set-up":
      return `${name} is not set up yet.`;
    case "unreachable":
      return `${name} could not be reached.`;
    case "model-missing":
      return `${name}${version} answers, but the model is missing.`;
    case "not-ready":
      return `${name}${version} answers, but is not ready.`;
    case "ready": {
      const window = report.contextWindow ? `, with a context window of up to ${report.contextWindow.toLocaleString("en-US")} tokens` : "";
      return `Ready: ${name}${version} answers${window}.`;
    }
  }
}

export function describeReadiness(report: ReadinessReport): ReadinessText {
  const state = readinessState(report);
  // The first detail repeats the headline ("Ollama 0.6.2 answers at …"); the model list is in the pickers.
  const details = report.details.filter((line) => !/ answers at /.test(line) && !/^Context window in use/.test(line));
  const problems = problemsOn(report, "plugin");
  const lines = [...problems, ...details].slice(0, MAX_LINES);
  return { ok: state === "ready", state, headline: headlineOf(report, state), lines, fixes: Math.min(problems.length, MAX_LINES) };
}

export function renderReadiness(el: HTMLElement, report: ReadinessReport): void {
  const text = describeReadiness(report);
  el.empty();
  el.toggleClass("is-ok", text.ok);
  el.toggleClass("is-problem", !text.ok);
  el.createDiv({ cls: "synapse-readiness-headline", text: text.headline });
  for (const [i, line] of text.lines.entries()) el.createDiv({ cls: i < text.fixes ? "synapse-readiness-fix" : "synapse-readiness-line", text: line });
}
