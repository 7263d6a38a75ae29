/**
 * Recorded contradictions in lint: the open ones are findings; resolving one keeps one side's
 * passage and edits the pages through the write path (the other side's sentence and the warning
 * callout go); dismissing one only changes its status. A dismissed record is never raised again:
 * its id is drawn from both sources and both passages, so only changed passages make a new one.
 */
import { SynapseError } from "../core/errors";
import { splitFrontmatter } from "../core/markdown";
import { contentHash } from "../core/content-hash";
import { HASH_KEY } from "../wiki/page-markdown";
import { keepOwnership } from "../wiki/provenance";
import { sourceKey } from "../core/sources";
import { quoted, type ContradictionRecord } from "../wiki/contradictions";
import type { PlannedChange } from "../write/planned-change";
import { basenameOf } from "../wiki/page-paths";
import type { WikiSnapshot } from "./snapshot";
import type { Finding, Fix } from "./types";

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

function short(text: string, max = 120): string {
  const flat = quoted(text);
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

const ORDINAL = ["the first source", "the second source"] as const;

/**
 * How a person tells the two sides apart: each source's name, its path when both share a name,
 * and "the first/second source" when both sides come from one note (two fix buttons never read
 * the same).
 */
export function sideName(record: ContradictionRecord, side: 0 | 1): string {
  const [first = "", second = ""] = record.sources;
  const source = side === 0 ? first : second;
  if (!source || sourceKey(first) === sourceKey(second)) return ORDINAL[side];
  return basenameOf(first).toLowerCase() === basenameOf(second).toLowerCase() ? source : basenameOf(source);
}

/** One finding per open record, on the first of its pages that still exists. */
export function contradictionFindings(records: readonly ContradictionRecord[], snapshot: WikiSnapshot): Finding[] {
  const existing = new Set(snapshot.pages.map((p) => p.path));
  const out: Finding[] = [];
  for (const record of records) {
    if (record.status !== "open") continue;
    const page = record.pages.find((p) => existing.has(p)) ?? record.pages[0] ?? snapshot.wikiFolder;
    const [a = "", b = ""] = record.passages;
    const fixes: Fix[] = ([0, 1] as const).map((side) => ({
      kind: "resolve-contradiction" as const,
      label: `Keep what ${sideName(record, side)} says`,
      safe: false,
      params: { id: record.id, keep: side === 0 ? "1" : "2" },
    }));
    fixes.push({ kind: "dismiss-contradiction", label: "Dismiss it: not a real contradiction", safe: false, params: { id: record.id } });
    out.push({
      check: "contradiction",
      severity: "warning",
      page,
      message: `${capitalised(sideName(record, 0))} says "${short(a)}" but ${sideName(record, 1)} says "${short(b)}".`,
      fixes,
    });
  }
  return out;
}

/** The side `--keep` names: 1 or 2, or one of the record's sources (by path or name). */
export function keptSide(record: ContradictionRecord, keep: string): 0 | 1 {
  const wanted = keep.trim();
  if (wanted === "1" || wanted === "2") return wanted === "1" ? 0 : 1;
  const key = sourceKey(wanted);
  const matches = ([0, 1] as const).filter((side) => {
    const source = record.sources[side] ?? "";
    return source !== "" && (sourceKey(source) === key || basenameOf(source).toLowerCase() === basenameOf(wanted).toLowerCase());
  });
  if (matches.length !== 1 || matches[0] === undefined) {
    throw new SynapseError("input", `--keep takes 1, 2 or one of the sources of ${record.id} (${record.sources.filter(Boolean).join(", ") || "none recorded"}), not "${keep}".`);
  }
  return matches[0];
}

const CALLOUT = /^>\s*\[!warning\][-+]?\s*Contradiction/i;

/** Removes the warning callouts that quote this passage, with the blank line after each. */
function withoutCallouts(lines: string[], passage: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    if (!CALLOUT.test(line.trim())) {
      out.push(line);
      continue;
    }
    let end = i + 1;
    while (end < lines.length && (lines[end] ?? "").trim().startsWith(">")) end++;
    const block = lines.slice(i, end).join(" ");
    if (!block.includes(quoted(passage))) {
      out.push(...lines.slice(i, end));
      i = end - 1;
      continue;
    }
    if ((lines[end] ?? "").trim() === "" && end < lines.length) end++;
    i = end - 1;
  }
  return out;
}

/** Removes a passage from the prose (outside callouts): its whole line when it is the line, else the sentence. */
function withoutPassage(lines: string[], passage: string): string[] {
  const text = passage.trim();
  if (!text) return lines;
  const out: string[] = [];
  let done = false;
  for (const line of lines) {
    if (done || line.trim().startsWith(">") || !line.includes(text)) {
      out.push(line);
      continue;
    }
    done = true;
    const rest = line.replace(text, "").replace(/^(\s*(?:[-*+]|\d+[.)])?\s*)\s+/, "$1").trimEnd();
    if (rest.replace(/^\s*(?:[-*+]|\d+[.)])\s*/, "").trim() !== "") out.push(rest);
  }
  return out;
}

/** The legacy body fingerprint in the frontmatter, brought up to date when it matched the body before. */
function withLegacyHash(before: string, after: string): string {
  const old = splitFrontmatter(before);
  const hash = old.frontmatter[HASH_KEY];
  if (typeof hash !== "string" || hash !== contentHash(old.body)) return after;
  const next = splitFrontmatter(after);
  const line = new RegExp(`^(${HASH_KEY}:\\s*["']?)${hash}(["']?\\s*)$`, "m");
  const block = after.slice(0, after.length - next.body.length);
  return block.replace(line, `$1${contentHash(next.body)}$2`) + next.body;
}

/**
 * The page with the other side's passage and the callout about it taken out. It is Synapse's edit
 * by the user's choice, so what Synapse owned before stays Synapse's: unedited source sections and
 * an old page's body fingerprint are re-hashed, and later revisions still reach them.
 */
export function resolvedText(markdown: string, record: ContradictionRecord, keep: 0 | 1): string {
  const drop = record.passages[keep === 0 ? 1 : 0] ?? "";
  const lines = withoutPassage(withoutCallouts(markdown.split("\n"), drop), drop);
  const edited = lines.join("\n").replace(/\n{3,}/g, "\n\n");
  return edited === markdown ? markdown : withLegacyHash(markdown, keepOwnership(markdown, edited));
}

/** The page edits a resolution makes: one change per page of the record that still exists. */
export function planResolution(record: ContradictionRecord, keep: 0 | 1, snapshot: WikiSnapshot): PlannedChange[] {
  const pages = new Map(snapshot.pages.map((p) => [p.path, p]));
  const changes: PlannedChange[] = [];
  for (const path of record.pages) {
    const page = pages.get(path);
    if (!page) continue;
    changes.push({
      path,
      type: page.type || "page",
      title: page.title,
      action: "updated",
      update: (current) => {
        const next = resolvedText(current, record, keep);
        return { content: next, action: next === current ? "unchanged" : "updated" };
      },
    });
  }
  return changes;
}
