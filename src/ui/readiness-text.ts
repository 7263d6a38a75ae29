/**
 * A readiness report in words: whether the backend answered, its version, whether the model is
 * there, what it can do, and what to fix. Used by every "Test connection" button.
 */
import type { ReadinessReport } from "../core/readiness";

export interface ReadinessText {
  readonly ok: boolean;
  readonly headline: string;
  readonly lines: readonly string[];
  readonly fixes: readonly string[];
}

export function describeReadiness(report: ReadinessReport): ReadinessText {
  const headline = report.ok
    ? `Ready: ${report.provider} answered${report.version ? ` (version ${report.version})` : ""}.`
    : report.reachable
      ? `${report.provider} answered${report.version ? ` (version ${report.version})` : ""}, but is not ready yet.`
      : `${report.provider} could not be reached.`;
  const lines: string[] = [];
  if (report.modelPresent === true) lines.push("The configured model is available.");
  else if (report.modelPresent === false) lines.push("The configured model is not available on this server.");
  if (report.models.length > 0) {
    const shown = report.models.slice(0, 8).map((m) => (m.capabilities.length > 0 ? `${m.name} (${m.capabilities.join(", ")})` : m.name));
    const more = report.models.length > shown.length ? `, and ${report.models.length - shown.length} more` : "";
    lines.push(`Models: ${shown.join("; ")}${more}.`);
  }
  lines.push(...report.details);
  return { ok: report.ok, headline, lines, fixes: report.problems };
}

export function renderReadiness(el: HTMLElement, report: ReadinessReport): void {
  const text = describeReadiness(report);
  el.empty();
  el.toggleClass("is-ok", text.ok);
  el.toggleClass("is-problem", !text.ok);
  el.createDiv({ cls: "synapse-readiness-headline", text: text.headline });
  for (const line of text.lines) el.createDiv({ text: line });
  for (const fix of text.fixes) el.createDiv({ cls: "synapse-readiness-fix", text: `To fix: ${fix}` });
}
