/** The CLI's two outputs for an ingest: the JSON report (one object) and the human summary. */
import type { ProviderMode } from "../core/capabilities";
import type { ErrorKind } from "../core/errors";
import type { ProgressEvent } from "../core/run-context";
import type { ProviderId } from "../settings/schema";
import { formatUsageLine } from "../providers/usage-summary";
import type { IngestReport } from "../wiki/ingest-types";
import { EXIT } from "./io";

/** Exactly the documented shape, nothing internal. */
export function jsonReport(report: IngestReport): string {
  return JSON.stringify({
    converged: report.converged,
    attempts: { analyze: report.attempts.analyze, generate: report.attempts.generate },
    pages: report.pages.map((p) => ({ path: p.path, type: p.type, title: p.title, action: p.action, ...(p.detail ? { detail: p.detail } : {}) })),
    contradictions: report.contradictions.map((c) => ({ page: c.page, sources: [...c.sources], passages: [...c.passages] })),
    locked: report.locked.map((l) => ({ path: l.path, title: l.title, wouldAdd: l.wouldAdd })),
    usage: { inputTokens: report.usage.inputTokens, outputTokens: report.usage.outputTokens, costUsd: report.usage.costUsd },
    provider: { name: report.provider.name, mode: report.provider.mode, isLocal: report.provider.isLocal },
    error: report.error ? { kind: report.error.kind, message: report.error.message } : null,
  });
}

const MODES: Readonly<Record<ProviderId, ProviderMode>> = { offline: "offline", ollama: "local", anthropic: "api", openai: "api", cli: "cli" };

/** The report when the provider could not even be built (missing key, bad URL…). */
export function jsonProviderFailure(id: ProviderId, kind: ErrorKind, message: string): string {
  return JSON.stringify({
    converged: false,
    attempts: { analyze: 0, generate: 0 },
    pages: [],
    contradictions: [],
    locked: [],
    usage: { inputTokens: 0, outputTokens: 0, costUsd: null },
    provider: { name: id, mode: MODES[id], isLocal: id === "offline" },
    error: { kind, message },
  });
}

export function exitCodeFor(report: IngestReport): number {
  if (report.converged) return EXIT.ok;
  if (["max_iter", "budget", "deadline"].includes(report.stopReason)) return EXIT.notConverged;
  const kind = report.error?.kind;
  if (kind === "cancelled") return EXIT.cancelled;
  if (kind === "input") return EXIT.usage;
  if (kind === "vault") return EXIT.failure;
  return EXIT.provider;
}

export function describeProgress(event: ProgressEvent): string | null {
  switch (event.type) {
    case "phase":
      if (event.phase === "generating" && event.attempt) return `generating (attempt ${event.attempt} of ${event.maxAttempts ?? "?"})`;
      if (event.phase === "validating") return null;
      return event.phase === "delegating" ? "running the agent" : event.phase;
    case "retry":
      return `retrying in ${(event.delayMs / 1000).toFixed(1)} s (attempt ${event.attempt}): ${event.reason}`;
    case "activity":
      return event.message;
    case "usage":
      return null;
  }
}

const SYMBOL: Record<string, string> = { created: "+", updated: "~", merged: "⋯", unchanged: "=" };

function tokens(report: IngestReport): string {
  if (report.usage.inputTokens + report.usage.outputTokens === 0 && report.provider.model === null) return "no model, no tokens";
  return formatUsageLine(report.usage, report.provider.model, report.usage.costUsd);
}

function indent(text: string, prefix: string): string[] {
  const lines = text.split("\n");
  const shown = lines.slice(0, 12).map((l) => `${prefix}${l}`);
  return lines.length > 12 ? [...shown, `${prefix}… (${lines.length - 12} more lines)`] : shown;
}

export function humanReport(report: IngestReport, notePath: string): string {
  const lines: string[] = [];
  const seconds = (report.durationMs / 1000).toFixed(1);
  if (report.converged) {
    const counts = new Map<string, number>();
    for (const p of report.pages) counts.set(p.action, (counts.get(p.action) ?? 0) + 1);
    const summary = [...counts.entries()].map(([action, n]) => `${n} ${action}`).join(", ") || "no pages";
    lines.push(`${report.dryRun ? "Planned (dry run, nothing written)" : "Done"} in ${seconds} s: ${summary}.`);
    for (const p of report.pages) {
      lines.push(`  ${SYMBOL[p.action] ?? "·"} ${p.path}  (${p.type}${p.action === "created" ? "" : `, ${p.action}`})`);
      if (p.detail) lines.push(`      ${p.detail}`);
    }
    for (const l of report.locked) {
      lines.push(`  ! ${l.path}  (locked: left alone; Synapse would have added)`);
      lines.push(...indent(l.wouldAdd, "      | "));
    }
    for (const c of report.contradictions) {
      lines.push(`  ! ${c.page}: contradiction between ${c.sources[0]} and ${c.sources[1] || "the page"}`);
      lines.push(`      ${c.sources[0]}: ${c.passages[0]}`, `      ${c.sources[1] || "the page"}: ${c.passages[1]}`);
    }
    if (report.dangling.length > 0) lines.push(`  ${report.dangling.length} link(s) point to pages that do not exist yet.`);
    for (const warning of report.issues) lines.push(`  Warning: ${warning}`);
  } else if (report.error && !["max_iter", "budget", "deadline"].includes(report.stopReason)) {
    lines.push(`Error (${report.error.kind}): ${report.error.message}`);
    lines.push(`Nothing was written for ${notePath}.`);
  } else {
    const why =
      report.stopReason === "budget"
        ? "the token budget ran out (setting \"Token budget\")"
        : report.stopReason === "deadline"
          ? "the run reached its time limit (setting \"Run timeout\")"
          : `${report.attempts.generate} generation attempt(s) all failed validation`;
    lines.push(`Not converged: ${why}. Nothing was written for ${notePath}.`);
    if (report.issues.length > 0) lines.push("Last problems:", ...report.issues.slice(0, 10).map((i) => `  - ${i}`));
  }
  lines.push(`Provider: ${report.provider.name}${report.provider.model ? ` (${report.provider.model})` : ""}, ${report.provider.isLocal ? "local" : "sends the note off this machine"}; ${tokens(report)}.`);
  return `${lines.join("\n")}\n`;
}

