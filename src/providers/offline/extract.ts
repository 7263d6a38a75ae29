/**
 * Deterministic extraction: what the Offline provider can honestly say about a note without a
 * language model — its title, outline, links, tags, recurring named phrases and lead paragraph.
 */
import { codeRanges } from "../../core/code-spans";
import { frontmatterList, headings, inlineTags, splitFrontmatter, stripCode, type Heading } from "../../core/markdown";
import { plainText } from "../../core/plain-text";
import { linkBasename, wikilinkTargets } from "../../core/wikilinks";
import { guessLanguage } from "./language";

export interface Term {
  readonly name: string;
  readonly count: number;
  /** The first sentence that mentions the term, trimmed. */
  readonly context: string;
}

export interface Extraction {
  readonly title: string;
  readonly language: string;
  readonly lead: string;
  readonly headings: readonly Heading[];
  readonly tags: readonly string[];
  /** Notes the source links to (wikilink targets, in order). */
  readonly links: readonly Term[];
  /** Recurring capitalised phrases, strongest first. */
  readonly namedPhrases: readonly Term[];
}

const MAX_TERMS = 12;

// Words that start sentences or name nothing; capitalised phrases made only of these are dropped.
const STOPWORDS = new Set(
  (
    "a an and are as at be but by can do does for from has have he her his how i if in into is it its may more most " +
    "no not note of on or our she so some such that the their then there these they this those to use used using " +
    "was we what when where which while who will with you your also all any each every both here see"
  ).split(" "),
);

function titleOf(path: string, frontmatter: Record<string, unknown>, outline: readonly Heading[]): string {
  const fmTitle = frontmatter.title;
  if (typeof fmTitle === "string" && fmTitle.trim()) return fmTitle.trim();
  const h1 = outline.find((h) => h.level === 1);
  if (h1) return h1.text.replace(/\[\[([^\]|]*\|)?([^\]]*)\]\]/g, "$2").trim();
  const base = path.slice(path.lastIndexOf("/") + 1);
  return base.replace(/\.md$/i, "").trim() || "Untitled";
}

export function sentences(prose: string): string[] {
  return prose
    // CJK full stops end a sentence with no space after them.
    .replace(/([.!?])\s+|([。！？])\s*/gu, "$1$2\n")
    .split(/\n+/u)
    .map((s) => s.replace(/\s+/g, " ").trim())
    .filter((s) => s.length > 0);
}

/**
 * The opening sentences of a text, whole, as many as fit in `max` characters (at least the first,
 * however long). Offline pages quote the note: a quote cut mid-sentence ("…the An…") says less
 * than it seems to and is no longer the note's words.
 */
export function wholeSentences(text: string, max: number): string {
  const all = sentences(text);
  let out = all[0] ?? "";
  for (const next of all.slice(1)) {
    if (out.length + 1 + next.length > max) break;
    out = `${out} ${next}`;
  }
  return out;
}

/** The first paragraph of prose: not a heading, list, table, quote/callout, embed or code. */
function leadParagraph(body: string): string {
  const paragraphs = stripCode(body).split(/\n\s*\n/);
  for (const paragraph of paragraphs) {
    const lines = paragraph.split("\n").map((l) => l.trim()).filter(Boolean);
    if (lines.length === 0) continue;
    const first = lines[0] ?? "";
    if (/^(#|[-*+]\s|\d+[.)]\s|\||>|!\[|<|%%|---|\$\$)/.test(first)) continue;
    const text = plainText(lines.join(" ")).replace(/\s+/g, " ").trim();
    if (text.replace(/[^\p{L}]/gu, "").length >= 20) return wholeSentences(text, 400);
  }
  return "";
}

function firstContext(allSentences: readonly string[], term: string): string {
  const needle = term.toLowerCase();
  const found = allSentences.find((s) => s.toLowerCase().includes(needle));
  // The whole sentence: the term's page quotes it, and a quote is the note's words or nothing.
  return found ?? "";
}

/** Drops phrases already covered: link targets, and the title or a part of it ("The X" → "X"). */
function isExcludedPhrase(phrase: string, exclude: ReadonlySet<string>): boolean {
  const lower = phrase.toLowerCase();
  for (const taken of exclude) if (taken === lower || taken.includes(lower)) return true;
  return false;
}

const CAPITALISED = /^(?:\p{Lu}[\p{Ll}\p{Lu}\p{N}'’-]*|\p{Lu}{2,}\p{N}*)$/u;

/** Languages whose grammar capitalises every noun: there, one capitalised word names nothing. */
const NOUNS_CAPITALISED = new Set(["de", "lb"]);

/**
 * A single capitalised word is a common word, not a name, when the note also writes it in lower case
 * ("Notes" beside "notes", "Examples" beside "example"): it was capitalised by a heading, a list
 * item or a UI label.
 */
function isCommonWord(word: string, lowerWords: ReadonlySet<string>): boolean {
  const lower = word.toLowerCase();
  return [lower, lower.replace(/s$/u, ""), lower.replace(/es$/u, ""), `${lower}s`, `${lower}es`].some((form) => lowerWords.has(form));
}

/** The word without the `.`, `!` and `?` that end it (as `/[.!?]+$/` removed, without rescanning a run of them at every dot). */
function withoutClosingPunctuation(word: string): string {
  let end = word.length;
  while (end > 0 && ".!?".includes(word[end - 1] ?? "_")) end--;
  return word.slice(0, end);
}

function namedPhrases(allSentences: readonly string[], exclude: ReadonlySet<string>, language: string): Term[] {
  const lowerWords = new Set(allSentences.flatMap((s) => s.split(/[^\p{L}\p{N}'’-]+/u)).filter((w) => /^\p{Ll}/u.test(w)));
  const isName = (phrase: string) =>
    phrase.includes(" ") || (!NOUNS_CAPITALISED.has(language) && !isCommonWord(phrase, lowerWords));
  const counts = new Map<string, number>();
  for (const sentence of allSentences) {
    const words = sentence.split(/[\s,;:()"“”«»]+/u).map(withoutClosingPunctuation);
    let run: string[] = [];
    const flush = (endIndex: number) => {
      // A first word the note also writes in lower case ("Zum Beispiel", "For Example") is capitalised
      // only because it opens the sentence.
      if (endIndex === run.length && run.length > 1 && lowerWords.has((run[0] ?? "").toLowerCase())) run = run.slice(1);
      // A lone capitalised word that opens the sentence is most likely just capitalised grammar.
      while (run.length > 0 && STOPWORDS.has((run[0] ?? "").toLowerCase())) run = run.slice(1);
      const startsSentence = endIndex - run.length === 0;
      if (run.length > 0 && !(run.length === 1 && startsSentence) && run.length <= 4) {
        const phrase = run.join(" ");
        if (phrase.length >= 3 && !isExcludedPhrase(phrase, exclude)) counts.set(phrase, (counts.get(phrase) ?? 0) + 1);
      }
      run = [];
    };
    words.forEach((word, index) => {
      if (CAPITALISED.test(word)) run.push(word);
      // "Ink & Switch", "AT&T": an ampersand joins the names around it.
      else if (word === "&" && run.length > 0 && CAPITALISED.test(words[index + 1] ?? "")) run.push(word);
      else flush(index);
    });
    flush(words.length);
  }
  return [...counts.entries()]
    .filter(([phrase, count]) => count >= 2 && isName(phrase))
    .sort((a, b) => b[1] - a[1] || b[0].length - a[0].length || a[0].localeCompare(b[0]))
    .slice(0, MAX_TERMS)
    .map(([name, count]) => ({ name, count, context: firstContext(allSentences, name) }));
}

/** Link targets written inside code spans and fenced blocks: examples of syntax, not links. */
function linksInCode(body: string): string[] {
  const code = codeRanges(body).map(({ start, end }) => body.slice(start, end)).join("\n");
  return [...code.matchAll(/\[\[([^\]|#^\n]+)/g)].map((m) => linkBasename((m[1] ?? "").trim())).filter(Boolean);
}

/** `body` without the wikilinks and Markdown links that point at an example target. */
function withoutExamples(body: string, examples: ReadonlySet<string>): string {
  if (examples.size === 0) return body;
  const isExample = (target: string) => {
    let decoded = target;
    try {
      decoded = decodeURIComponent(target);
    } catch {
      // A malformed escape: compare the target as written.
    }
    return examples.has(linkBasename(decoded.replace(/[#^].*$/u, "").trim()).toLowerCase());
  };
  return body
    .replace(/\[\[([^\]|#^\n]+)[^\]\n]*\]\]/g, (link, target: string) => (isExample(target) ? " " : link))
    .replace(/\[[^\]\n]*\]\(([^)\s]+)\)/g, (link, target: string) => (isExample(target) ? " " : link));
}

/** "Charles Babbage", "Analytical Engine": two or more words, each capitalised. */
export function isProperName(name: string): boolean {
  const words = name.trim().split(/\s+/u);
  return words.length >= 2 && words.every((w) => CAPITALISED.test(w) || w === "&");
}

export function extract(path: string, text: string): Extraction {
  const { frontmatter, body } = splitFrontmatter(text);
  const outline = headings(body);
  const title = titleOf(path, frontmatter, outline);
  // A link the note also shows as code ("`[[Example]]` displays as [[Example]]") demonstrates syntax:
  // neither it nor its display text ("Custom name") is a term of the note.
  const examples = new Set(linksInCode(body).map((t) => t.toLowerCase()));
  const prose = plainText(withoutExamples(body, examples));
  const allSentences = sentences(prose);
  const tags = [...new Set([...frontmatterList(frontmatter.tags), ...inlineTags(body)])];

  const linkCounts = new Map<string, number>();
  const targets = wikilinkTargets(stripCode(body)).map(linkBasename).filter((t) => t.trim());
  const allTargets = [...stripCode(body).matchAll(/(^|[^!])\[\[([^\]|#^\n]+)/g)].map((m) => linkBasename((m[2] ?? "").trim()));
  for (const t of allTargets) linkCounts.set(t, (linkCounts.get(t) ?? 0) + 1);
  const links = targets
    .filter((t, i, all) => all.indexOf(t) === i && t.toLowerCase() !== title.toLowerCase() && !examples.has(t.toLowerCase()))
    .map((name) => ({ name, count: linkCounts.get(name) ?? 1, context: firstContext(allSentences, name) }));

  const exclude = new Set([title.toLowerCase(), ...links.map((l) => l.name.toLowerCase()), ...examples]);
  const language = guessLanguage(prose);
  return {
    title,
    language,
    lead: leadParagraph(body),
    headings: outline,
    tags,
    links,
    namedPhrases: namedPhrases(allSentences, exclude, language),
  };
}
