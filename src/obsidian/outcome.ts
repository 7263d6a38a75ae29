/**
 * The words an ingest ends with: the notice for one note or a folder, and the listing the result
 * modal shows (pages grouped by what happened to them, failures, usage, and the call log).
 * Plain functions over the IngestReport, tested without Obsidian.
 */
import { backendName } from "../core/backend-name";
import { costText } from "../core/cost-text";
import { messageOn } from "../core/errors";
import { plural } from "../core/plural";
import { describeContext, type CallEvent, type ContextEvent } from "../core/log";
import type { IngestReport, PageAction } from "../wiki/ingest-types";
import { formatTokens } from "./progress";

export interface IngestedNote {
  readonly notePath: string;
  readonly report: IngestReport;
  /** What the run's logger recorded, one event per provider call. */
  readonly calls?: readonly CallEvent[];
  /** What the run put into the model's context from the wiki, and what it left out for lack of room. */
  readonly contexts?: readonly ContextEvent[];
}

export interface OutcomeText {
  readonly text: string;
  /** True when pages were written (or there was nothing new to write). */
  readonly ok: boolean;
}

export function noteName(notePath: string): string {
  return (notePath.split("/").pop() ?? notePath).replace(/\.md$/i, "");
}

export { plural };

const ACTION_WORDS: Record<PageAction, string> = {
  created: "created",
  updated: "updated",
  merged: "merged",
  unchanged: "unchanged",
};

/** "2 pages created, 1 updated" — only the actions that happened. */
export function countPages(report: IngestReport): string {
  const counts = new Map<PageAction, number>();
  for (const page of report.pages) counts.set(page.action, (counts.get(page.action) ?? 0) + 1);
  const parts: string[] = [];
  for (const action of ["created", "updated", "merged", "unchanged"] as const) {
    const n = counts.get(action) ?? 0;
    if (n > 0) parts.push(parts.length === 0 ? `${plural(n, "page")} ${ACTION_WORDS[action]}` : `${n} ${ACTION_WORDS[action]}`);
  }
  return parts.join(", ");
}

const ERROR_HINTS: Partial<Record<string, string>> = {
  transport: "Use the test connection button in the settings to check the server.",
  timeout: "Raise the request timeout in settings, or try a smaller model.",
  unavailable: "Use the test connection button in the settings to check the provider.",
  rate_limit: "The provider is limiting requests; try again in a moment.",
  request: "Check the model name and the API key in the settings.",
  config: "Check the provider settings.",
  capability: "Pick a provider for ingest that supports it.",
};

/**
 * Most provider errors end with their own advice ("…; check that it is running"); a second hint
 * after it would only say the same thing again, so a notice carries one.
 */
const OWN_HINT = /[;.:,]\s+(?:check|try|pick|raise|lower|set|use|add|install|start|run|open|make sure|is it)\b/i;

/** Only API services have an API key setting; a hint must not send anyone looking for one elsewhere. */
function hintFor(kind: string, mode: IngestReport["provider"]["mode"], message: string): string | undefined {
  if (OWN_HINT.test(message)) return undefined;
  if (kind === "request" && mode !== "api") return "Check the model name in the settings.";
  return ERROR_HINTS[kind];
}

export function outcomeNotice(notePath: string, report: IngestReport): OutcomeText {
  const name = noteName(notePath);
  const tokens = report.usage.inputTokens + report.usage.outputTokens;
  if (report.upToDate) {
    const since = report.upToDate.since.slice(0, 10);
    const moved = report.upToDate.movedFrom ? ` (as "${report.upToDate.movedFrom}", since moved)` : "";
    return { ok: true, text: `"${name}" is already up to date: it has not changed since its ingest on ${since}${moved}, so nothing was sent or written.` };
  }
  if (report.converged) {
    const changed = report.pages.some((p) => p.action !== "unchanged");
    const declined = report.declined.length;
    if (declined > 0 && !changed) {
      return { ok: true, text: `Nothing written for "${name}": you applied none of its ${plural(declined, "change")}.` };
    }
    // The note is recorded as partly applied, so a plain ingest offers these again.
    const left = declined > 0 ? ` ${plural(declined, "change")} left out at review: ingest the note again to review ${declined === 1 ? "it" : "them"}.` : "";
    return changed || report.pages.length === 0
      ? { ok: true, text: `Synapse ingested "${name}": ${countPages(report) || "no pages"}.${left}` }
      : { ok: true, text: `Synapse ingested "${name}": nothing new, the wiki already had it.` };
  }
  switch (report.stopReason) {
    case "cancelled":
      return { ok: false, text: `Ingest of "${name}" cancelled; nothing was written.` };
    case "max_iter": {
      // The issues are the user's sentences (validator.ts `forUser`), never the model's instructions.
      const first = report.issues[0];
      return {
        ok: false,
        text: `Synapse wrote nothing for "${name}": the pages failed the checks ${report.attempts.generate === 1 ? "once" : `${report.attempts.generate} times`}.${first ? ` ${first}` : ""}`,
      };
    }
    case "budget":
      return {
        ok: false,
        text: `Synapse stopped "${name}" at the token budget (${formatTokens(tokens)} tokens); nothing was written. Raise it in the settings (0 means no limit).`,
      };
    case "deadline":
      return { ok: false, text: `Synapse stopped "${name}" at the run time limit; nothing was written. Raise the run timeout in the settings.` };
    default: {
      const message = report.error ? messageOn(report.error, "plugin") : "the ingest failed.";
      const hint = report.error ? hintFor(report.error.kind, report.provider.mode, message) : undefined;
      return { ok: false, text: `Synapse could not ingest "${name}": ${message}${hint ? ` ${hint}` : ""}` };
    }
  }
}

/** The notice that closes a batch: a folder (`folder`, "" for the whole vault) or, with `label`, a resume or retry. */
export function batchNotice(folder: string, notes: readonly IngestedNote[], dropped: number, label?: string): OutcomeText {
  const ok = notes.filter((n) => n.report.converged).length;
  const current = notes.filter((n) => n.report.upToDate !== null).length;
  const failed = notes.length - ok;
  const where = folder === "" ? "the vault" : `"${folder}"`;
  const parts = [`${plural(ok - current, "note")} ingested`];
  if (current > 0) parts.push(`${current} already up to date`);
  if (failed > 0) parts.push(`${failed} not`);
  if (dropped > 0) parts.push(`${dropped} cancelled`);
  return { ok: failed === 0 && dropped === 0, text: `Synapse, ${label ?? `folder ${where}`}: ${parts.join(", ")}.` };
}

export interface ListedPage {
  readonly path: string;
  readonly title: string;
  readonly type: string;
}

export interface ResultListing {
  readonly title: string;
  readonly groups: readonly { readonly heading: string; readonly pages: readonly ListedPage[] }[];
  readonly failures: readonly { readonly notePath: string; readonly message: string; readonly issues: readonly string[] }[];
  /** Locked pages left alone, with what Synapse would have added. */
  readonly locked: readonly { readonly path: string; readonly title: string; readonly wouldAdd: string }[];
  /** Contradictions between notes, one sentence each, with the page they are shown on. */
  readonly contradictions: readonly { readonly path: string; readonly text: string }[];
  /** Sentences about single pages, e.g. that the user's edit was kept. */
  readonly details: readonly { readonly path: string; readonly text: string }[];
  /** One line per note: provider, tokens, cost, time. */
  readonly summary: readonly string[];
  readonly calls: readonly { readonly line: string; readonly prompt?: string; readonly reply?: string }[];
  /** The run log's context lines: related passages quoted, and those left out. */
  readonly context: readonly string[];
}

const GROUP_HEADINGS: Record<PageAction, string> = {
  created: "Created",
  updated: "Updated",
  merged: "Merged beside other notes' parts or your text",
  unchanged: "Already up to date",
};

export function describeCall(event: CallEvent): string {
  const model = event.model ? ` (${event.model})` : "";
  const tokens = event.inputTokens !== undefined || event.outputTokens !== undefined
    ? ` · ${event.inputTokens ?? 0} in, ${event.outputTokens ?? 0} out`
    : "";
  const outcome = event.outcome === "ok" ? "ok" : `failed: ${event.outcome}${event.note ? ` (${event.note})` : ""}`;
  const limit = event.outputLimit ? ` · limit ${event.outputLimit}` : "";
  return `${event.operation} · ${event.provider}${model} · attempt ${event.attempt} · ${outcome} · ${Math.round(event.durationMs)} ms${tokens}${limit}`;
}

function summaryLine(note: IngestedNote): string {
  const r = note.report;
  const model = r.provider.model ? ` (${r.provider.model})` : "";
  const tokens = r.usage.inputTokens + r.usage.outputTokens;
  const cost = r.provider.model || r.provider.isLocal || r.usage.costUsd !== null ? ` · ${costText(r.usage.costUsd, r.provider)}` : "";
  // A local run's cost says "free (runs on this computer)" already: where it ran needs no second word.
  const where = r.provider.isLocal ? "" : ", sent off this machine";
  // Input read from the prompt cache is billed at a fraction of the price: worth a word when there was some.
  const cached = (r.usage.cacheReadTokens ?? 0) > 0 ? ` (${formatTokens(r.usage.cacheReadTokens ?? 0)} from the prompt cache)` : "";
  return `${noteName(note.notePath)}: ${backendName(r.provider.name)}${model}${where} · ${formatTokens(tokens)} tokens${cached}${cost} · ${(r.durationMs / 1000).toFixed(1)} s`;
}

export function buildResultListing(notes: readonly IngestedNote[], title: string): ResultListing {
  const byAction = new Map<PageAction, ListedPage[]>();
  const seen = new Set<string>();
  for (const note of notes) {
    for (const page of note.report.pages) {
      if (seen.has(page.path)) continue;
      seen.add(page.path);
      const list = byAction.get(page.action) ?? [];
      list.push({ path: page.path, title: page.title, type: page.type });
      byAction.set(page.action, list);
    }
  }
  const groups = (["created", "updated", "merged", "unchanged"] as const)
    .filter((action) => (byAction.get(action)?.length ?? 0) > 0)
    .map((action) => ({
      heading: `${GROUP_HEADINGS[action]} (${byAction.get(action)?.length ?? 0})`,
      pages: [...(byAction.get(action) ?? [])].sort((a, b) => a.title.localeCompare(b.title)),
    }));
  const failures = notes
    .filter((n) => !n.report.converged)
    .map((n) => {
      const message = outcomeNotice(n.notePath, n.report).text;
      // Each problem once: not again under the message that already names it, nor twice in the list.
      const issues = [...new Set(n.report.issues)].filter((issue) => !message.includes(issue));
      return { notePath: n.notePath, message, issues };
    });
  const calls = notes.flatMap((n) =>
    (n.calls ?? []).map((event) => ({
      line: describeCall(event),
      ...(event.content?.prompt !== undefined ? { prompt: event.content.prompt } : {}),
      ...(event.content?.reply !== undefined ? { reply: event.content.reply } : {}),
    })),
  );
  const converged = notes.filter((n) => n.report.converged);
  const locked = converged.flatMap((n) => n.report.locked.map((l) => ({ path: l.path, title: l.title, wouldAdd: l.wouldAdd })));
  const contradictions = converged.flatMap((n) =>
    n.report.contradictions.map((c) => ({
      path: c.page,
      text: `${noteName(c.sources[0])} says "${c.passages[0]}"; ${c.sources[1] ? noteName(c.sources[1]) : "the page"} says "${c.passages[1]}".`,
    })),
  );
  const details = converged.flatMap((n) => [
    ...n.report.pages.flatMap((p) => {
      const text = p.pluginDetail ?? p.detail;
      return text ? [{ path: p.path, text }] : [];
    }),
    ...n.report.declined.map((p) => ({ path: p.path, text: "Left out at review: not written." })),
    ...n.report.linkedNotes.map((l) => ({ path: l.notePath, text: l.sentence })),
  ]);
  const context = notes.flatMap((n) => (n.contexts ?? []).map((c) => `${notes.length > 1 ? `${noteName(n.notePath)}: ` : ""}${describeContext(c)}`));
  return { title, groups, failures, locked, contradictions, details, summary: notes.map(summaryLine), calls, context };
}
