/** The CLI's two outputs for an ingest: the JSON report (one object) and the human summary. */
import { plural } from "../core/plural";
import type { ProviderMode } from "../core/capabilities";
import type { ErrorKind } from "../core/errors";
import type { ProgressEvent } from "../core/run-context";
import type { ProviderId } from "../settings/schema";
import { formatUsageLine } from "../providers/usage-summary";
import type { IngestReport } from "../wiki/ingest-types";
import { EXIT } from "./io";

/**
 * Exactly the documented shape, nothing internal. With `diffs` (from --diff), each page also carries
 * the unified diff of its change (null when it does not change).
 */
export function jsonReportObject(report: IngestReport, diffs?: ReadonlyMap<string, string>): Record<string, unknown> {
  return {
    converged: report.converged,
    // Why the run ended ("converged", "max_iter", "budget", "deadline", "cancelled", "error",
    // "up_to_date", "unreadable"), and the last problems found: a failed ingest explains itself.
    stopReason: report.stopReason,
    issues: [...report.issues],
    upToDate: report.upToDate !== null,
    attempts: { analyze: report.attempts.analyze, generate: report.attempts.generate },
    pages: report.pages.map((p) => ({
      path: p.path,
      type: p.type,
      title: p.title,
      action: p.action,
      ...(p.detail ? { detail: p.detail } : {}),
      ...(diffs ? { diff: diffs.get(p.path) ?? null } : {}),
    })),
    contradictions: report.contradictions.map((c) => ({ page: c.page, sources: [...c.sources], passages: [...c.passages] })),
    locked: report.locked.map((l) => ({ path: l.path, title: l.title, wouldAdd: l.wouldAdd })),
    linkedNotes: report.linkedNotes.map((l) => ({ title: l.title, note: l.notePath, sentence: l.sentence })),
    usage: {
      inputTokens: report.usage.inputTokens,
      outputTokens: report.usage.outputTokens,
      cacheReadTokens: report.usage.cacheReadTokens ?? 0,
      cacheWriteTokens: report.usage.cacheWriteTokens ?? 0,
      costUsd: report.usage.costUsd,
      estimatedCalls: report.usage.estimatedCalls ?? 0,
    },
    provider: { name: report.provider.name, mode: report.provider.mode, isLocal: report.provider.isLocal },
    error: report.error ? { kind: report.error.kind, message: report.error.message } : null,
  };
}

export function jsonReport(report: IngestReport, diffs?: ReadonlyMap<string, string>): string {
  return JSON.stringify(jsonReportObject(report, diffs));
}

const MODES: Readonly<Record<ProviderId, ProviderMode>> = { offline: "offline", ollama: "local", anthropic: "api", openai: "api", cli: "cli" };

/** The report when the provider could not even be built (missing key, bad URL…). */
export function jsonProviderFailure(id: ProviderId, kind: ErrorKind, message: string): string {
  return JSON.stringify({
    converged: false,
    stopReason: "error",
    issues: [],
    upToDate: false,
    attempts: { analyze: 0, generate: 0 },
    pages: [],
    contradictions: [],
    locked: [],
    linkedNotes: [],
    usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: null, estimatedCalls: 0 },
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
  const line = formatUsageLine(report.usage, report.provider, report.usage.costUsd);
  const estimated = report.usage.estimatedCalls ?? 0;
  return estimated > 0 ? `${line} (${plural(estimated, "request")} never returned usage: ${estimated === 1 ? "its tokens are" : "their tokens are"} estimated)` : line;
}

function indent(text: string, prefix: string): string[] {
  const lines = text.split("\n");
  const shown = lines.slice(0, 12).map((l) => `${prefix}${l}`);
  return lines.length > 12 ? [...shown, `${prefix}… (${lines.length - 12} more lines)`] : shown;
}

const DRY_WORDS: Record<string, string> = { created: "create", updated: "update", merged: "merge", unchanged: "keep" };

/** One line per page: what happens to it, where it is, and its title. */
function pageLine(page: IngestReport["pages"][number], dryRun: boolean): string {
  const what = `(${page.type}${page.action === "created" || dryRun ? "" : `, ${page.action}`})`;
  if (dryRun) return `  ${(DRY_WORDS[page.action] ?? page.action).padEnd(6)} ${page.path}  "${page.title}" ${what}`;
  return `  ${SYMBOL[page.action] ?? "·"} ${page.path}  ${what}`;
}

export function humanReport(report: IngestReport, notePath: string): string {
  const lines: string[] = [];
  const seconds = (report.durationMs / 1000).toFixed(1);
  if (report.upToDate) {
    const since = report.upToDate.since.slice(0, 16).replace("T", " ");
    const moved = report.upToDate.movedFrom ? ` (as ${report.upToDate.movedFrom}, since moved)` : "";
    lines.push(`Already up to date: ${notePath} has not changed since it was ingested on ${since} UTC${moved}.`);
    lines.push("Nothing was sent to a provider and nothing was written; --force ingests it again.");
    return `${lines.join("\n")}\n`;
  }
  if (report.converged) {
    const counts = new Map<string, number>();
    for (const p of report.pages) counts.set(p.action, (counts.get(p.action) ?? 0) + 1);
    const summary = [...counts.entries()].map(([action, n]) => `${n} ${action}`).join(", ") || "no pages";
    lines.push(`${report.dryRun ? "Planned (dry run, nothing written)" : "Done"} in ${seconds} s: ${summary}.`);
    for (const p of report.pages) {
      lines.push(pageLine(p, report.dryRun));
      if (p.detail) lines.push(`      ${p.detail}`);
    }
    for (const l of report.linkedNotes) lines.push(`  → ${l.notePath}  (${l.sentence})`);
    for (const l of report.locked) {
      lines.push(`  ! ${l.path}  (locked: left alone; Synapse would have added)`);
      lines.push(...indent(l.wouldAdd, "      | "));
    }
    for (const c of report.contradictions) {
      lines.push(`  ! ${c.page}: contradiction between ${c.sources[0]} and ${c.sources[1] || "the page"}`);
      lines.push(`      ${c.sources[0]}: ${c.passages[0]}`, `      ${c.sources[1] || "the page"}: ${c.passages[1]}`);
    }
    if (report.dangling.length > 0) lines.push(`  ${plural(report.dangling.length, "link")} ${report.dangling.length === 1 ? "points" : "point"} to pages that do not exist yet.`);
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
          : `${plural(report.attempts.generate, "generation attempt")} all failed validation`;
    lines.push(`Not converged: ${why}. Nothing was written for ${notePath}.`);
    if (report.issues.length > 0) lines.push("Last problems:", ...report.issues.slice(0, 10).map((i) => `  - ${i}`));
  }
  lines.push(`Provider: ${report.provider.name}${report.provider.model ? ` (${report.provider.model})` : ""}, ${report.provider.isLocal ? "local" : "sends the note off this machine"}; ${tokens(report)}.`);
  return `${lines.join("\n")}\n`;
}

