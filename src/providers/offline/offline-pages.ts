/**
 * The pages the Offline provider writes: one source page (lead, outline, key terms, tags) and an
 * entity or concept page for each of the strongest terms, all citing the note. The fixed words are
 * in the page language (the wiki language the user chose, else the note's); what was extracted
 * stays as the note wrote it.
 */
import type { Analysis, WikiPage } from "../../core/schemas";
import { isProperName, type Extraction, type Term } from "./extract";
import { offlinePhrases, type OfflinePhrases } from "./phrases";

/** How many term pages one note may produce: the strongest few, not every capitalised word. */
const MAX_ENTITY_PAGES = 4;
const MAX_CONCEPT_PAGES = 4;

function noteLink(path: string, title: string): string {
  const target = path.replace(/\.md$/i, "");
  return `[[${target}|${title.replace(/[[\]|]/g, " ")}]]`;
}

function termLine(term: Term): string {
  return term.context ? `- [[${term.name}]]: ${term.context}` : `- [[${term.name}]]`;
}

/** Joins sections: under a heading where the language has one, else set apart by a rule. */
function sections(parts: readonly (readonly [string | null, string])[]): string {
  return parts.map(([heading, body], i) => (heading ? `## ${heading}\n\n${body}` : i === 0 ? body : `---\n\n${body}`)).join("\n\n");
}

function sourcePage(phrases: OfflinePhrases, analysis: Analysis, found: Extraction, path: string, terms: readonly Term[], entities: readonly Term[]): WikiPage {
  const note = noteLink(path, found.title);
  const notice = `> [!info] ${phrases.notice}\n> ${phrases.noticeBody ? phrases.noticeBody(note) : note}`;
  const parts: [string | null, string][] = [];
  if (analysis.summary) parts.push([phrases.summary, analysis.summary]);
  const outline = found.headings.filter((h) => h.level >= 2 && h.level <= 4);
  if (outline.length > 0) parts.push([phrases.outline, outline.map((h) => `${"  ".repeat(h.level - 2)}- ${h.text}`).join("\n")]);
  const keyTerms = [...entities, ...terms];
  if (keyTerms.length > 0) parts.push([phrases.keyTerms, keyTerms.map(termLine).join("\n")]);
  const otherLinks = found.links.filter((l) => !keyTerms.includes(l));
  if (otherLinks.length > 0) parts.push([phrases.alsoLinked, otherLinks.map((l) => `- [[${l.name}]]`).join("\n")]);
  return {
    type: "source",
    title: found.title,
    frontmatter: { sources: [path], lang: analysis.language, tags: [...found.tags] },
    content: parts.length > 0 ? `${notice}\n\n${sections(parts)}` : notice,
  };
}

function termPage(phrases: OfflinePhrases, type: "entity" | "concept", term: Term, found: Extraction, path: string, language: string): WikiPage {
  const source = `[[${found.title}]]`;
  // No sentence about the term: "X appears N times" needs plural and agreement rules in every
  // language, and the list and the quote already say where and how the note mentions it.
  const parts = [
    phrases.mentionedIn ? `## ${phrases.mentionedIn}\n\n- ${source}` : `- ${source}`,
    term.context ? `> ${term.context}` : "",
  ];
  return {
    type,
    title: term.name,
    frontmatter: { sources: [path], lang: language, tags: [] },
    content: parts.filter(Boolean).join("\n\n"),
  };
}

/**
 * `pageLanguage` is the language of the fixed words (the wiki language when the user chose one);
 * `lang` stays the note's language, since nearly all of a page's text is the note's own.
 */
export function offlinePages(analysis: Analysis, found: Extraction, path: string, pageLanguage = analysis.language): WikiPage[] {
  const phrases = offlinePhrases(pageLanguage);
  const byCount = [...found.links].sort((a, b) => b.count - a.count);
  // Linked proper names are things (entities); other linked terms are ideas (concepts).
  const linkedNames = byCount.filter((t) => isProperName(t.name));
  const entities = [...linkedNames, ...found.namedPhrases].slice(0, MAX_ENTITY_PAGES);
  const concepts = byCount.filter((t) => !isProperName(t.name)).slice(0, MAX_CONCEPT_PAGES);
  const language = analysis.language;
  return [
    sourcePage(phrases, analysis, found, path, concepts, entities),
    ...entities.map((t) => termPage(phrases, "entity", t, found, path, language)),
    ...concepts.map((t) => termPage(phrases, "concept", t, found, path, language)),
  ];
}
