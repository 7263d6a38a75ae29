/**
 * Contradictions between sources are never resolved silently. They are found two ways — a model
 * may flag them (`contradicts` on a generated page) and a deterministic rule catches the plainest
 * kind for every provider, the Offline one included — then shown on the page as a callout naming
 * both sources, listed in the run result, and recorded in the StateStore for lint.
 */
import * as z from "zod";
import { SynapseError } from "../core/errors";
import type { ContradictionClaim } from "../core/schemas";
import type { StateStore } from "../vault/state-store";
import { contentHash } from "../core/content-hash";
import { CONTRADICTIONS_KEY } from "../core/state-keys";
import type { PlannedStateChange } from "../write/planned-change";

/** One contradiction on one page, as the run result reports it. */
export interface Contradiction {
  /** Vault path of the page it was found on. */
  readonly page: string;
  /** The ingested note first, then the note whose section it contradicts ("" when unknown). */
  readonly sources: readonly [string, string];
  /** What each source says, in the same order. */
  readonly passages: readonly [string, string];
}

/** Another source's part of a page, as the detection sees it. */
export interface SourcedText {
  readonly source: string;
  readonly content: string;
}

/** A contradiction found in a source's material before the page it lands on is known. */
export type FoundContradiction = Omit<Contradiction, "page">;

/** Sentences worth comparing: plain prose lines, callouts (ours included) left out. */
function sentences(markdown: string): string[] {
  const out: string[] = [];
  let inCallout = false;
  for (const raw of markdown.split("\n")) {
    const line = raw.trim();
    if (/^>\s*\[!/.test(line)) {
      inCallout = true;
      continue;
    }
    if (inCallout && line.startsWith(">")) continue;
    inCallout = false;
    if (!line || line.startsWith("#") || line.startsWith("%%") || line.startsWith("|")) continue;
    const prose = line.replace(/^(?:>\s*)+/, "").replace(/^(?:[-*+]|\d+[.)])\s+/, "");
    // Sentence ends: the punctuation stays with its sentence (no lookbehind: older iOS lacks it).
    for (const s of prose.replace(/([.!?])\s+(?=\p{Lu}|\d)/gu, "$1\n").split("\n")) if (s.trim()) out.push(s.trim());
  }
  return out;
}

const NUMBER = /\d+(?:[.,:/-]\d+)*/g;

/** A sentence with its figures taken out: two sentences with the same skeleton say the same kind of thing. */
function skeleton(sentence: string): { words: string; figures: string } | null {
  // Sentences with links are left out: their figures are often counts Synapse wrote itself.
  if (sentence.includes("[[") || sentence.includes("](")) return null;
  const figures = sentence.match(NUMBER);
  if (!figures) return null;
  const words = sentence
    .replace(NUMBER, " # ")
    .toLowerCase()
    .replace(/[^\p{L}#]+/gu, " ")
    .trim();
  if (words.split(" ").filter((w) => w !== "#").length < 4) return null;
  return { words, figures: figures.join(" ") };
}

/**
 * The deterministic rule: a sentence of the new material and one of another source with the same
 * words and different figures ("born in 1815" / "born in 1816"). Narrow on purpose — it catches
 * conflicting dates and numbers and nothing it would have to guess about.
 */
export function conflictingFigures(material: string, others: readonly SourcedText[], source: string): FoundContradiction[] {
  const theirs: { source: string; sentence: string; words: string; figures: string }[] = [];
  for (const other of others) {
    for (const sentence of sentences(other.content)) {
      const s = skeleton(sentence);
      if (s) theirs.push({ source: other.source, sentence, ...s });
    }
  }
  const found: FoundContradiction[] = [];
  for (const sentence of sentences(material)) {
    const mine = skeleton(sentence);
    if (!mine) continue;
    for (const other of theirs) {
      if (other.words === mine.words && other.figures !== mine.figures && !found.some((f) => f.passages[1] === other.sentence && f.passages[0] === sentence)) {
        found.push({ sources: [source, other.source], passages: [sentence, other.sentence] });
      }
    }
  }
  return found;
}

function squash(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim();
}

/** Claims a model flagged, attributed to the source whose section holds the passage it contradicts. */
export function flaggedContradictions(claims: readonly ContradictionClaim[], others: readonly SourcedText[], source: string): FoundContradiction[] {
  return claims
    .filter((c) => c.claim.trim() && c.existing.trim())
    .map((c) => {
      const needle = squash(c.existing);
      const owner = others.find((o) => needle && squash(o.content).includes(needle));
      return { sources: [source, owner?.source ?? ""], passages: [c.claim.trim(), c.existing.trim()] };
    });
}

function noteLink(path: string): string {
  if (!path) return "The page";
  const target = path.replace(/\.md$/i, "");
  return `[[${target}|${target.slice(target.lastIndexOf("/") + 1).replace(/[[\]|]/g, " ")}]]`;
}

export function quoted(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** The callout shown on the page, naming both sources; Obsidian renders it as a warning box. */
export function contradictionCallout(c: FoundContradiction): string {
  return [
    "> [!warning] Contradiction",
    `> ${noteLink(c.sources[0])} says: ${quoted(c.passages[0])}`,
    `> ${noteLink(c.sources[1])} says: ${quoted(c.passages[1])}`,
  ].join("\n");
}

// ---- The record lint reads -------------------------------------------------------------------

export { CONTRADICTIONS_KEY };

export const ContradictionRecordSchema = z.object({
  /** Stable: the same two passages from the same two sources are one record, however often found. */
  id: z.string(),
  pages: z.array(z.string()),
  sources: z.array(z.string()),
  passages: z.array(z.string()),
  status: z.enum(["open", "resolved", "dismissed"]),
  /** ISO day it was first found. */
  created: z.string(),
  /** How it was settled: the source whose passage was kept, or why it was dismissed (absent while open). */
  resolution: z.string().optional(),
});
export type ContradictionRecord = z.infer<typeof ContradictionRecordSchema>;

const ContradictionsFileSchema = z.object({
  version: z.literal(1),
  contradictions: z.array(ContradictionRecordSchema),
});

export function contradictionId(c: Pick<Contradiction, "sources" | "passages">): string {
  return `c-${contentHash(`${c.sources.join("\n")}\n${c.passages.map(squash).join("\n")}`)}`;
}

/** Every recorded contradiction; throws a clear error when the file is there but unreadable. */
export async function readContradictions(state: StateStore): Promise<ContradictionRecord[]> {
  return parseContradictions(await state.read(CONTRADICTIONS_KEY));
}

function parseContradictions(text: string | null): ContradictionRecord[] {
  if (text === null) return [];
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    data = null;
  }
  const parsed = ContradictionsFileSchema.safeParse(data);
  if (!parsed.success) throw new Error(`Synapse's record of contradictions (${CONTRADICTIONS_KEY}) is damaged; it was left as it is.`);
  return parsed.data.contradictions;
}

function serialiseContradictions(records: readonly ContradictionRecord[]): string {
  return `${JSON.stringify({ version: 1, contradictions: records }, null, 2)}\n`;
}

/** The records with one status changed, and the changed record; throws a clear error when no record has that id. */
function withStatus(records: ContradictionRecord[], id: string, status: ContradictionRecord["status"], resolution?: string): ContradictionRecord {
  const index = records.findIndex((r) => r.id === id);
  const known = records[index];
  if (!known) throw new SynapseError("input", `No recorded contradiction has the id "${id}".`);
  const { resolution: _previous, ...rest } = known;
  const next: ContradictionRecord = { ...rest, status, ...(resolution !== undefined && status !== "open" ? { resolution } : {}) };
  records[index] = next;
  return next;
}

/**
 * The same status change as part of a write run (see `PlannedStateChange`): written with the pages
 * the resolution edits, and undone with them.
 */
export function contradictionStatusChange(id: string, status: ContradictionRecord["status"], resolution?: string): PlannedStateChange {
  return {
    key: CONTRADICTIONS_KEY,
    update: (current) => {
      const records = parseContradictions(current);
      withStatus(records, id, status, resolution);
      return serialiseContradictions(records);
    },
  };
}

/**
 * What a run found, as part of the run (ingest's, or the one lint's model checks make). A
 * contradiction already recorded keeps its status (one the user dismissed stays dismissed) and
 * gains the page if it was seen on a new one.
 */
export function contradictionsFoundChange(found: readonly Contradiction[], date: string): PlannedStateChange {
  return {
    key: CONTRADICTIONS_KEY,
    update: (current) => {
      const records = parseContradictions(current);
      const next = withFound(records, found, date);
      return next === records ? current : serialiseContradictions(next);
    },
  };
}

/** The records with what a run found added (the same array when nothing was found). */
function withFound(records: ContradictionRecord[], found: readonly Contradiction[], date: string): ContradictionRecord[] {
  if (found.length === 0) return records;
  const byId = new Map(records.map((r) => [r.id, r]));
  for (const c of found) {
    const id = contradictionId(c);
    const known = byId.get(id);
    if (known) {
      if (!known.pages.includes(c.page)) byId.set(id, { ...known, pages: [...known.pages, c.page] });
      continue;
    }
    byId.set(id, { id, pages: [c.page], sources: [...c.sources], passages: [...c.passages], status: "open", created: date });
  }
  return [...byId.values()];
}
