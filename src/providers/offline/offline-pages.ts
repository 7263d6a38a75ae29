/**
 * The pages the Offline provider writes: one source page (lead, outline, key terms, tags) and an
 * entity or concept page for each of the strongest terms, all citing the note.
 */
import type { Analysis, WikiPage } from "../../core/schemas";
import { isProperName, type Extraction, type Term } from "./extract";

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

function sourcePage(analysis: Analysis, found: Extraction, path: string, terms: readonly Term[], entities: readonly Term[]): WikiPage {
  const parts: string[] = [
    `> [!info] Extracted without a language model\n> Synapse's Offline provider built this page from ${noteLink(path, found.title)}: the summary is the note's opening paragraph and the outline its headings.`,
  ];
  if (analysis.summary) parts.push(`## Summary\n\n${analysis.summary}`);
  const outline = found.headings.filter((h) => h.level >= 2 && h.level <= 4);
  if (outline.length > 0) {
    parts.push(`## Outline\n\n${outline.map((h) => `${"  ".repeat(h.level - 2)}- ${h.text}`).join("\n")}`);
  }
  const keyTerms = [...entities, ...terms];
  if (keyTerms.length > 0) parts.push(`## Key terms\n\n${keyTerms.map(termLine).join("\n")}`);
  const otherLinks = found.links.filter((l) => !keyTerms.includes(l));
  if (otherLinks.length > 0) parts.push(`## Also linked\n\n${otherLinks.map((l) => `- [[${l.name}]]`).join("\n")}`);
  return {
    type: "source",
    title: found.title,
    frontmatter: { sources: [path], lang: analysis.language, tags: [...found.tags] },
    content: parts.join("\n\n"),
  };
}

function termPage(type: "entity" | "concept", term: Term, found: Extraction, path: string, language: string): WikiPage {
  const mention = term.context ? `> ${term.context}` : `${term.name} is mentioned ${term.count} times.`;
  return {
    type,
    title: term.name,
    frontmatter: { sources: [path], lang: language, tags: [] },
    content: `${term.name} appears in [[${found.title}]] (${term.count === 1 ? "once" : `${term.count} times`}).\n\n## Mentioned in\n\n- [[${found.title}]]\n\n${mention}`,
  };
}

export function offlinePages(analysis: Analysis, found: Extraction, path: string): WikiPage[] {
  const byCount = [...found.links].sort((a, b) => b.count - a.count);
  // Linked proper names are things (entities); other linked terms are ideas (concepts).
  const linkedNames = byCount.filter((t) => isProperName(t.name));
  const entities = [...linkedNames, ...found.namedPhrases].slice(0, MAX_ENTITY_PAGES);
  const concepts = byCount.filter((t) => !isProperName(t.name)).slice(0, MAX_CONCEPT_PAGES);
  const language = analysis.language;
  return [
    sourcePage(analysis, found, path, concepts, entities),
    ...entities.map((t) => termPage("entity", t, found, path, language)),
    ...concepts.map((t) => termPage("concept", t, found, path, language)),
  ];
}
