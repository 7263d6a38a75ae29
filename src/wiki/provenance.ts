/**
 * Provenance inside a page body: what each source note contributed sits in its own section between
 * two Obsidian comments, which do not render and which Obsidian's editor leaves alone:
 *
 *     %% synapse:source notes/a.md hash=0123456789abcdef %%
 *     *From [[notes/a|A]]*
 *
 *     …what notes/a.md says…
 *
 *     %% /synapse:source %%
 *
 * `hash` fingerprints the section as Synapse last wrote it, so a user's edit inside it is noticed
 * and never overwritten. Everything outside the markers is the user's and is kept as it stands.
 */
import { contentHash } from "../core/content-hash";

export interface SourceSection {
  readonly kind: "section";
  /** Vault path of the note this section was drawn from. */
  readonly source: string;
  /** Fingerprint of the content as Synapse wrote it. */
  readonly hash: string;
  /** Lines between the markers, trimmed of blank lines at both ends. */
  readonly content: string;
}

export interface UserText {
  readonly kind: "text";
  readonly text: string;
}

export type Segment = SourceSection | UserText;

const OPEN = /^%% synapse:source (.+) hash=([0-9a-f]{16}) %%[ \t]*$/;
const CLOSE = /^%% \/synapse:source %%[ \t]*$/;

/** `%` and line breaks would end the comment or the marker line, so a path spells them as %XX. */
function encodePath(path: string): string {
  return path.replace(/[%\r\n]/g, (c) => `%${c.charCodeAt(0).toString(16).padStart(2, "0").toUpperCase()}`);
}

function decodePath(text: string): string {
  return text.replace(/%([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/**
 * True when the section still holds exactly what Synapse wrote there — but for the target of its
 * attribution link: Obsidian rewrites links to a note that is moved or renamed (`[[notes/a|A]]` →
 * `[[archive/a|A]]`), and that is no edit of the user's.
 */
export function isUnedited(section: SourceSection): boolean {
  if (contentHash(section.content) === section.hash) return true;
  const target = section.source.replace(/\.md$/i, "");
  const asWritten = section.content.replace(/^\*From \[\[[^\]|\n]*\|([^\]\n]*)\]\]\*/, (_line, label: string) => `*From [[${target}|${label}]]*`);
  return asWritten !== section.content && contentHash(asWritten) === section.hash;
}

/** A section as Synapse writes it: the hash is taken of the content it is given. */
export function newSection(source: string, content: string): SourceSection {
  const trimmed = trimBlankLines(content);
  return { kind: "section", source, hash: contentHash(trimmed), content: trimmed };
}

function trimBlankLines(text: string): string {
  return text.replace(/\r\n/g, "\n").replace(/^(?:[ \t]*\n)+/, "").replace(/(?:\n[ \t]*)+$/, "").replace(/^[ \t]+$/, "");
}

/**
 * Splits a body into the user's text and source sections. Parsing never drops a line: an opening
 * marker without its closing one runs to the next opening marker or the end of the body, and a
 * stray closing marker is kept as the user's text.
 */
export function parseBody(body: string): Segment[] {
  const lines = body.replace(/\r\n/g, "\n").split("\n");
  const segments: Segment[] = [];
  let text: string[] = [];
  let open: { source: string; hash: string; lines: string[] } | null = null;
  const flushText = () => {
    const t = trimBlankLines(text.join("\n"));
    if (t.trim()) segments.push({ kind: "text", text: t });
    text = [];
  };
  const flushSection = () => {
    if (!open) return;
    segments.push({ kind: "section", source: open.source, hash: open.hash, content: trimBlankLines(open.lines.join("\n")) });
    open = null;
  };
  for (const line of lines) {
    const opening = OPEN.exec(line);
    if (opening) {
      flushSection();
      flushText();
      open = { source: decodePath(opening[1] ?? ""), hash: opening[2] ?? "", lines: [] };
    } else if (open && CLOSE.test(line)) {
      flushSection();
    } else if (open) {
      open.lines.push(line);
    } else {
      text.push(line);
    }
  }
  flushSection();
  flushText();
  return segments;
}

export function renderSection(section: SourceSection): string {
  // The blank line keeps the closing marker out of a quote or list that ends the content.
  const inner = section.content ? `${section.content}\n\n` : "";
  return `%% synapse:source ${encodePath(section.source)} hash=${section.hash} %%\n${inner}%% /synapse:source %%`;
}

export function renderBody(segments: readonly Segment[]): string {
  return segments.map((s) => (s.kind === "text" ? s.text : renderSection(s))).join("\n\n");
}

/** The source every section marker of a body names, in order (a quick scan, no full parse). */
export function markedSources(body: string): string[] {
  if (!body.includes("%% synapse:source ")) return [];
  return [...body.matchAll(/^%% synapse:source (.+) hash=[0-9a-f]{16} %%[ \t]*\r?$/gm)].map((m) => decodePath(m[1] ?? ""));
}

/** Does the body carry any source marker? (Pages written before provenance sections had none.) */
export function hasSections(segments: readonly Segment[]): boolean {
  return segments.some((s) => s.kind === "section");
}

/** The visible attribution opening each section. */
export function attribution(sourcePath: string, sourceTitle: string): string {
  const target = sourcePath.replace(/\.md$/i, "");
  const label = sourceTitle.replace(/[[\]|]/g, " ").replace(/\s+/g, " ").trim() || target;
  return `*From [[${target}|${label}]]*`;
}

/** Is the whole body Synapse's own text: source sections only, none edited, nothing of the user's? */
export function isAllSynapseText(body: string): boolean {
  const segments = parseBody(body);
  return segments.length > 0 && segments.every((s) => s.kind === "section" && isUnedited(s));
}

/**
 * After Synapse itself edits a page it wrote (settling a contradiction the user chose), the
 * sections it owned stay its own: their markers take the hash of their new content, so a later
 * revision from the same note still revises them. A section the user had edited stays theirs.
 * Both texts are whole pages or bodies; `after` must keep the sections of `before`, in order.
 */
export function keepOwnership(before: string, after: string): string {
  const sections = (text: string) => parseBody(text).filter((s): s is SourceSection => s.kind === "section");
  const was = sections(before);
  const now = sections(after);
  if (was.length !== now.length || was.some((s, i) => s.source !== now[i]?.source)) return after;
  let i = -1;
  return after
    .split("\n")
    .map((line) => {
      const opening = OPEN.exec(line.replace(/\r$/, ""));
      if (!opening) return line;
      i++;
      const [old, edited] = [was[i], now[i]];
      if (!old || !edited || !isUnedited(old) || isUnedited(edited)) return line;
      return line.replace(`hash=${opening[2] ?? ""}`, `hash=${contentHash(edited.content)}`);
    })
    .join("\n");
}
