/**
 * What one source's material does to a page body that already exists:
 *
 * - revise: the source has a section Synapse wrote and nobody edited → that section is replaced,
 *   so what the note no longer says disappears from the page;
 * - credit: everything the material says is already on the page → the source still gets a section
 *   of its own, holding only its attribution, so `sources`, lint, revision and retract know the
 *   note backs the page;
 * - skip: the same, for a source whose section the user edited → nothing changes (it is credited);
 * - merge: part of it is already on the page → the source's section holds only the rest;
 * - append: it is all new → a new section for the source;
 * - contradicts: on top of any of these, a conflict with another source's section is shown as a
 *   callout in this source's section and reported.
 *
 * The user's text and every other source's section are never changed; `keepsOthers` checks that
 * on the result and refuses a body that would drop any of it.
 */
import type { ContradictionClaim } from "../../core/schemas";
import { sourceKey } from "../../core/sources";
import { conflictingFigures, contradictionCallout, flaggedContradictions, type FoundContradiction, type SourcedText } from "../contradictions";
import { attribution, isUnedited, newSection, parseBody, type Segment, type SourceSection } from "../provenance";

export type Decision = "unchanged" | "revise" | "skip" | "credit" | "merge" | "append";

export interface SourceMaterial {
  readonly source: string;
  readonly sourceTitle: string;
  /** The generated body for the page (links already rewritten). */
  readonly content: string;
  /** Contradictions the model flagged for this page. */
  readonly claims?: readonly ContradictionClaim[];
}

export interface TriageResult {
  readonly decision: Decision;
  readonly segments: readonly Segment[];
  readonly contradictions: readonly FoundContradiction[];
  /** A sentence for the run result when the user's edit of this source's section was kept. */
  readonly detail?: string;
}

const ATTRIBUTION_LINE = /^\*From \[\[[^\]]*\]\]\*$/;

/**
 * Is a section this source's? Compared by `sourceKey`, as retract compares them: the same note cited
 * decomposed (macOS) then composed, or in another case, is one source with one section.
 */
function isFrom(segment: Segment, source: string): segment is SourceSection {
  return segment.kind === "section" && sourceKey(segment.source) === sourceKey(source);
}

/** The material itself: markers an agent copied back are unwrapped; other sources' sections dropped. */
function ownMaterial(content: string, source: string): string {
  return parseBody(content)
    .filter((s) => s.kind === "text" || isFrom(s, source))
    .map((s) => (s.kind === "text" ? s.text : s.content))
    .join("\n\n")
    .split("\n")
    .filter((line) => !ATTRIBUTION_LINE.test(line.trim()))
    .join("\n")
    .trim();
}

interface Unit {
  readonly block: number;
  readonly text: string;
  readonly heading: boolean;
}

/** Paragraphs, with headings and list items as units of their own, so lists merge item by item. */
function units(markdown: string): Unit[] {
  const out: Unit[] = [];
  markdown.split(/\n[ \t]*\n/).forEach((block, index) => {
    const lines = block.split("\n").filter((l) => l.trim());
    let prose: string[] = [];
    const flush = () => {
      if (prose.length) out.push({ block: index, text: prose.join("\n"), heading: false });
      prose = [];
    };
    for (const line of lines) {
      if (/^#{1,6}\s/.test(line.trim())) {
        flush();
        out.push({ block: index, text: line, heading: true });
      } else if (/^\s*(?:[-*+]|\d+[.)])\s/.test(line)) {
        flush();
        out.push({ block: index, text: line, heading: false });
      } else prose.push(line);
    }
    flush();
  });
  return out;
}

function squash(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** Drops units already on the page elsewhere; a heading stays only above something that stays. */
function withoutKnown(material: string, elsewhere: readonly string[]): { kept: string; dropped: number; total: number } {
  const known = new Set(elsewhere.flatMap((t) => units(t)).map((u) => squash(u.text)));
  const all = units(material);
  const keep = all.map((u) => u.heading || !known.has(squash(u.text)));
  all.forEach((u, i) => {
    if (!u.heading) return;
    let next = i + 1;
    while (next < all.length && !all[next]?.heading && !keep[next]) next++;
    keep[i] = next < all.length && !all[next]?.heading;
  });
  const blocks = new Map<number, string[]>();
  all.forEach((u, i) => {
    if (keep[i]) blocks.set(u.block, [...(blocks.get(u.block) ?? []), u.text]);
  });
  const content = all.filter((u) => !u.heading);
  const dropped = content.filter((u) => !keep[all.indexOf(u)]).length;
  return { kept: [...blocks.values()].map((b) => b.join("\n")).join("\n\n"), dropped, total: content.length };
}

function textOf(segment: Segment): string {
  return segment.kind === "text" ? segment.text : segment.content;
}

/** True when every user text and every other source's section of `before` is still in `after`, unchanged. */
export function keepsOthers(before: readonly Segment[], after: readonly Segment[], source: string): boolean {
  const rendered = new Set(after.map((s) => `${s.kind}\n${s.kind === "section" ? `${s.source}\n${s.hash}\n` : ""}${textOf(s)}`));
  return before
    .filter((s) => !isFrom(s, source) || !isUnedited(s))
    .every((s) => rendered.has(`${s.kind}\n${s.kind === "section" ? `${s.source}\n${s.hash}\n` : ""}${textOf(s)}`));
}

export function triage(current: readonly Segment[], material: SourceMaterial): TriageResult {
  const { source } = material;
  const mine = current.filter((s): s is SourceSection => isFrom(s, source));
  const replaceable = mine.find(isUnedited);
  const edited = mine.filter((s) => !isUnedited(s));
  // Everything on the page but the section being revised: the user's text, other sources, edits.
  const elsewhere = current.filter((s) => s !== replaceable);
  const others: SourcedText[] = current.filter((s): s is SourceSection => s.kind === "section" && !isFrom(s, source));

  const { kept, dropped, total } = withoutKnown(ownMaterial(material.content, source), elsewhere.map(textOf));
  const contradictions = [...conflictingFigures(kept, others, source), ...flaggedContradictions(material.claims ?? [], others, source)];
  const parts = [attribution(source, material.sourceTitle), ...contradictions.map(contradictionCallout), kept].filter((p) => p.trim());
  const nothingNew = kept.trim() === "" || total === 0;
  // With nothing new, the section credits the note: its attribution (and any callout) alone.
  const section = newSection(source, parts.join("\n\n"));

  if (replaceable) {
    // A second unedited section of the same source (a copy-paste) goes too: one source, one voice.
    const next = current.flatMap((s) => {
      if (s === replaceable) return [section];
      return isFrom(s, source) && isUnedited(s) ? [] : [s];
    });
    const same = section.content === replaceable.content && next.length === current.length;
    return { decision: same ? "unchanged" : "revise", segments: same ? current : next, contradictions };
  }
  if (edited.some((s) => s.hash === section.hash)) {
    // Synapse would write what it wrote before; the user's edit of it stands.
    return { decision: "unchanged", segments: current, contradictions: [] };
  }
  if (nothingNew && edited.length > 0) return { decision: "skip", segments: current, contradictions: [] };
  if (nothingNew) return { decision: "credit", segments: [...current, section], contradictions };

  // After this source's edited section if it has one, else at the end of the page.
  const last = edited.length ? current.lastIndexOf(edited[edited.length - 1] as Segment) : current.length - 1;
  const next = [...current.slice(0, last + 1), section, ...current.slice(last + 1)];
  const detail = edited.length
    ? `Your edit of what ${material.sourceTitle || source} contributed was kept; the new version was added below it.`
    : undefined;
  return { decision: dropped > 0 ? "merge" : "append", segments: next, contradictions, ...(detail ? { detail } : {}) };
}
