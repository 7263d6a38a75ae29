/**
 * Labelled queries for the retrieval-quality benchmark, made from the obsidian-help corpus itself,
 * deterministically (a seeded shuffle), with no model. Each query lists the notes that are relevant.
 * Queries are given as the index's own words (tokenize: folded, Chinese/Japanese/Thai cut into words)
 * so that "remove the title's words" means the same thing in every script.
 *
 * Five kinds (see KIND_NOTES): a note's distinctive passage (English, and the other 33 languages
 * apart), its headings, and for a wikilink its surrounding sentence or its label (relevant: the
 * link's target, so found only through the text of the linking note and the graph). Every query
 * drops the words of the relevant note's title and aliases, which the index boosts and which would
 * make the query trivial.
 */
import { parse as parseYaml } from "yaml";
import { tokenize } from "../src/core/tokenize";
import { seededRandom } from "../test/helpers/seeded-random";

export type QueryKind = "passage-en" | "passage-other" | "headings" | "link-sentence" | "link-label";

export const KIND_NOTES: Record<QueryKind, string> = {
  "passage-en": "10 consecutive words (title and alias words dropped) of a sentence of an English note, occurring in no other note → that note",
  "passage-other": "the same, from the other 33 languages' notes (4 per language) → that note",
  headings: "the words of a note's section headings (title and alias words dropped, at most 12) → that note",
  "link-sentence": "the sentence around a wikilink (the target's title and alias words dropped, at most 16 words) → the link's target, not the note it is in",
  "link-label": "a wikilink's display text (the target's title and alias words dropped, 2+ words left) → the link's target",
};

export interface LabelledQuery {
  readonly kind: QueryKind;
  readonly query: string;
  /** Relevant notes (vault-relative paths). */
  readonly relevant: readonly string[];
}

export interface CorpusNote {
  readonly path: string;
  readonly text: string;
}

/** How links resolve: the index's own resolver, so labels and retrieval agree on targets. */
export type Resolve = (target: string, from: string) => string | null;

const PER_KIND: Record<QueryKind, number> = { "passage-en": 120, "passage-other": 132, headings: 100, "link-sentence": 120, "link-label": 100 };
const PASSAGE_WORDS = 10;
const MIN_PASSAGE_WORDS = 6;


function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  const random = seededRandom(seed);
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

interface Parsed {
  readonly path: string;
  /** Title (file name) and alias words: never in a query for this note. */
  readonly nameWords: ReadonlySet<string>;
  readonly headings: readonly string[];
  /** Body lines, code removed, frontmatter removed. */
  readonly lines: readonly string[];
  /** The note's words, joined by spaces (for "occurs in no other note"). */
  readonly joined: string;
}

function frontmatterAliases(text: string): { body: string; aliases: string[] } {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(text);
  if (!match) return { body: text, aliases: [] };
  let aliases: string[] = [];
  try {
    const data: unknown = parseYaml(match[1] ?? "");
    const raw = data && typeof data === "object" ? (data as Record<string, unknown>).aliases : undefined;
    if (typeof raw === "string") aliases = [raw];
    else if (Array.isArray(raw)) aliases = raw.filter((a): a is string => typeof a === "string");
  } catch {
    // Frontmatter that does not parse has no aliases for us; the index reads it its own way.
  }
  return { body: text.slice(match[0].length), aliases };
}

const withoutCode = (body: string) => body.replace(/```[\s\S]*?```/g, "").replace(/~~~[\s\S]*?~~~/g, "").replace(/%%[\s\S]*?%%/g, "").replace(/`[^`\n]*`/g, " ");

/** Markdown to the words a reader sees: links by their label, embeds and markup removed. */
export function plain(line: string): string {
  return line
    .replace(/!\[\[[^\]]*\]\]/g, " ")
    .replace(/\[\[([^\]|]*)\|([^\]]*)\]\]/g, "$2")
    .replace(/\[\[([^\]]*)\]\]/g, (_, t: string) => t.replace(/#\^?/g, " "))
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/<[^>]+>/g, " ")
    .replace(/https?:\/\/\S+/g, " ");
}

const basename = (path: string) => (path.split("/").pop() ?? path).replace(/\.md$/i, "");

function parseNote(note: CorpusNote): Parsed {
  const { body, aliases } = frontmatterAliases(note.text);
  const nameWords = new Set([basename(note.path), ...aliases].flatMap((n) => tokenize(n)));
  const headings: string[] = [];
  const lines: string[] = [];
  for (const line of withoutCode(body).split(/\r?\n/)) {
    const heading = /^#{1,6}\s+(.+)$/.exec(line);
    if (heading) headings.push(heading[1] ?? "");
    else if (line.trim() !== "") lines.push(line.replace(/^\s*(?:>\s*)*(?:\[![^\]]*\][+-]?)?\s*(?:[-*+]|\d+[.)])?\s*/, ""));
  }
  return { path: note.path, nameWords, headings, lines, joined: ` ${tokenize(plain(withoutCode(body))).join(" ")} ` };
}

/** Sentences of a line: after . ! ? followed by a space, and after the CJK full stops. */
const sentencesOf = (line: string) =>
  line
    .replace(/([.!?])\s+|([。！？])/gu, "$1$2\n")
    .split("\n")
    .filter((s) => s.trim() !== "");

/** The first window of a sentence with enough words other than `drop`, as a query; null when none. */
function passageOf(sentence: string, drop: ReadonlySet<string>): { query: string; window: string } | null {
  const words = tokenize(plain(sentence));
  const kept: string[] = [];
  let end = 0;
  for (; end < words.length && kept.length < PASSAGE_WORDS; end++) if (!drop.has(words[end] as string)) kept.push(words[end] as string);
  if (kept.length < MIN_PASSAGE_WORDS) return null;
  return { query: kept.join(" "), window: ` ${words.slice(0, end).join(" ")} ` };
}

/** A note's rarest-word index: which notes hold a word, so "in no other note" checks a few notes only. */
function notesByWord(notes: readonly Parsed[]): Map<string, number[]> {
  const byWord = new Map<string, number[]>();
  notes.forEach((note, id) => {
    for (const word of new Set(note.joined.split(" "))) {
      if (word === "") continue;
      const list = byWord.get(word);
      if (list) list.push(id);
      else byWord.set(word, [id]);
    }
  });
  return byWord;
}

function occursElsewhere(window: string, self: number, notes: readonly Parsed[], byWord: Map<string, number[]>): boolean {
  const words = window.trim().split(" ");
  let rarest: number[] | undefined;
  for (const w of words) {
    const list = byWord.get(w) ?? [];
    if (!rarest || list.length < rarest.length) rarest = list;
  }
  return (rarest ?? []).some((id) => id !== self && notes[id]?.joined.includes(window));
}

const language = (path: string) => path.split("/")[0] ?? "";
const isTranslation = (path: string) => /^[a-z]{2}(?:-[A-Za-z]{2})?$/.test(language(path)) && language(path) !== "en";

function passages(notes: readonly Parsed[], byWord: Map<string, number[]>, pick: (n: Parsed) => boolean, count: number, seed: number, perLanguage = Infinity): LabelledQuery[] {
  const out: LabelledQuery[] = [];
  const taken = new Map<string, number>();
  const ids = shuffled([...notes.keys()].filter((id) => pick(notes[id] as Parsed)), seed);
  const random = seededRandom(seed + 1);
  for (const id of ids) {
    if (out.length >= count) break;
    const note = notes[id] as Parsed;
    if ((taken.get(language(note.path)) ?? 0) >= perLanguage) continue;
    const sentences = shuffled(note.lines.flatMap(sentencesOf), Math.floor(random() * 2 ** 31));
    for (const sentence of sentences) {
      const passage = passageOf(sentence, note.nameWords);
      if (!passage || occursElsewhere(passage.window, id, notes, byWord)) continue;
      out.push({ kind: isTranslation(note.path) ? "passage-other" : "passage-en", query: passage.query, relevant: [note.path] });
      taken.set(language(note.path), (taken.get(language(note.path)) ?? 0) + 1);
      break;
    }
  }
  return out;
}

function headingQueries(notes: readonly Parsed[], count: number, seed: number): LabelledQuery[] {
  const out: LabelledQuery[] = [];
  const seen = new Set<string>();
  for (const note of shuffled(notes.filter((n) => !n.path.startsWith("Release notes/")), seed)) {
    if (out.length >= count) break;
    const words = note.headings.flatMap((h) => tokenize(plain(h))).filter((w) => !note.nameWords.has(w));
    const query = [...new Set(words)].slice(0, 12).join(" ");
    if (new Set(words).size < 3 || seen.has(query)) continue;
    seen.add(query);
    out.push({ kind: "headings", query, relevant: [note.path] });
  }
  return out;
}

interface LinkUse {
  readonly target: string;
  readonly label: string | null;
  readonly sentence: string;
}

/** A wikilink (group 1 "!" for an embed, then target, then label). */
const LINK = /(!?)\[\[([^\]|#]*)(?:#[^\]|]*)?(?:\|([^\]]*))?\]\]/g;

function linkUses(note: Parsed): LinkUse[] {
  const uses: LinkUse[] = [];
  for (const line of note.lines) {
    for (const sentence of sentencesOf(line)) {
      for (const m of sentence.matchAll(LINK)) if (m[1] !== "!") uses.push({ target: m[2] ?? "", label: m[3] ?? null, sentence });
    }
  }
  return uses;
}

function linkQueries(notes: readonly Parsed[], resolve: Resolve, seed: number): LabelledQuery[] {
  const byPath = new Map(notes.map((n) => [n.path, n]));
  const sentencesOut: LabelledQuery[] = [];
  const labelsOut: LabelledQuery[] = [];
  const seen = new Set<string>();
  for (const note of shuffled(notes, seed)) {
    for (const use of linkUses(note)) {
      const before = sentencesOut.length + labelsOut.length;
      if (use.target.trim() === "") continue;
      const target = resolve(use.target, note.path);
      const targetNote = target ? byPath.get(target) : undefined;
      if (!target || !targetNote || target === note.path) continue;
      const drop = targetNote.nameWords;
      const sentence = tokenize(plain(use.sentence)).filter((w) => !drop.has(w)).slice(0, 16);
      if (sentencesOut.length < PER_KIND["link-sentence"] && sentence.length >= 5) {
        const query = sentence.join(" ");
        if (!seen.has(query)) {
          seen.add(query);
          sentencesOut.push({ kind: "link-sentence", query, relevant: [target] });
        }
      }
      const label = use.label ? tokenize(plain(use.label)).filter((w) => !drop.has(w)) : [];
      if (labelsOut.length < PER_KIND["link-label"] && label.length >= 2) {
        const query = label.join(" ");
        if (!seen.has(`${query}\u0000${target}`)) {
          seen.add(`${query}\u0000${target}`);
          labelsOut.push({ kind: "link-label", query, relevant: [target] });
        }
      }
      // One link per note keeps the set spread over the corpus.
      if (sentencesOut.length + labelsOut.length > before) break;
    }
    if (sentencesOut.length >= PER_KIND["link-sentence"] && labelsOut.length >= PER_KIND["link-label"]) break;
  }
  return [...sentencesOut, ...labelsOut];
}

/** Every labelled query, in a fixed order. */
export function labelledQueries(corpus: readonly CorpusNote[], resolve: Resolve): LabelledQuery[] {
  const notes = corpus.map(parseNote);
  const byWord = notesByWord(notes);
  return [
    ...passages(notes, byWord, (n) => !isTranslation(n.path), PER_KIND["passage-en"], 1),
    ...passages(notes, byWord, (n) => isTranslation(n.path), PER_KIND["passage-other"], 2, 4),
    ...headingQueries(notes, PER_KIND.headings, 3),
    ...linkQueries(notes, resolve, 4),
  ];
}
