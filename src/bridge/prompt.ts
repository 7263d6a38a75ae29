/**
 * What the agent is told: the wiki's conventions and the page schema (system prompt), and the
 * task for this note (user prompt). Paths are given relative to the staging folder, which mirrors
 * the vault's layout, so what the agent writes maps one to one onto vault paths.
 */
import { PAGE_TYPES } from "../core/schemas";
import { describeLanguage } from "../core/wiki-language";
import { TYPE_FOLDERS } from "../wiki/page-paths";

/** `wikiLanguage`: the ISO 639-1 code every page must be written in, or undefined to follow the note. */
export function systemPrompt(wikiFolder: string, wikiLanguage?: string): string {
  const folders = PAGE_TYPES.map((t) => `${t} pages in "${wikiFolder}/${TYPE_FOLDERS[t]}/"`).join(", ");
  return [
    "You maintain a wiki of Markdown pages inside an Obsidian vault. Raw source notes stay untouched;",
    "the wiki is yours to write. You work in a copy of the vault's wiki folder; only what you write",
    `as Markdown files under "${wikiFolder}/" is kept, and every page is validated before it is filed.`,
    "",
    "Tools: Read, Glob and Grep to look at the note and the existing wiki; Write and Edit to create or",
    `update pages under "${wikiFolder}/". There is no shell and no web access. Paths outside the working`,
    "folder are refused.",
    "",
    "Every page is one file with YAML frontmatter followed by a Markdown body:",
    "",
    "---",
    `type: one of ${PAGE_TYPES.join(", ")}`,
    "title: the page's title (the file name is the title plus .md)",
    "sources:",
    "  - the vault-relative path of every note the page is drawn from; always include the note you ingest, exactly as given",
    "lang: the ISO 639-1 code of the page's language, such as en, de or ja",
    "tags:",
    "  - short lowercase tags",
    "---",
    "",
    "Conventions:",
    `- A new page goes to "${wikiFolder}/<type folder>/<title>.md": ${folders}.`,
    "- One source page per ingested note summarising it; entity pages for people, organisations,",
    "  products, places and works; concept pages for ideas, methods and terms; synthesis and comparison",
    "  pages only when the note gives real material for them.",
    "- Link pages with [[wikilinks]] by title. Prefer updating an existing page (add the note to its",
    "  sources and extend its body) over creating a near-duplicate.",
    wikiLanguage
      ? `- Write every page, titles included, in ${describeLanguage(wikiLanguage)}, whatever the note's language, and set lang: ${wikiLanguage}. State only what the sources support.`
      : "- Write in the note's language. State only what the sources support.",
    "- Keep existing frontmatter fields and the user's text when you edit a page.",
    "- When you are done, answer with one short sentence listing the pages you wrote.",
  ].join("\n");
}

export function taskPrompt(notePath: string, wikiFolder: string, retrievalContext: string, repair: boolean): string {
  const lines = [
    `Ingest the note "${notePath}" into the wiki under "${wikiFolder}/".`,
    `Read "${notePath}" first, look at the existing pages with Glob and Grep, then write the pages.`,
    `Every page you write must list "${notePath}" in its frontmatter sources.`,
  ];
  if (repair) {
    lines.push(
      "",
      `Your previous pages are already in "${wikiFolder}/". They were rejected; fix every problem listed below by editing them.`,
    );
  }
  if (retrievalContext.trim()) lines.push("", "Context from the wiki and the previous attempt:", "", retrievalContext.trim());
  return lines.join("\n");
}

/** What a question's agent is told: read the wiki, answer from it, cite it; it can write nothing. */
export function querySystemPrompt(wikiFolder: string, wikiLanguage?: string): string {
  return [
    "You answer questions about a personal wiki kept in an Obsidian vault. You work in a read-only copy",
    `of the vault: the wiki's pages are under "${wikiFolder}/"; any other Markdown files are the user's source notes.`,
    "",
    "Tools: Read, Glob and Grep. There is no Write or Edit, no shell and no web access; paths outside the",
    "working folder are refused.",
    "",
    "How to answer:",
    "- Start from the numbered excerpts in the question; use the tools only to look further into the wiki and the notes.",
    "- Do not write any text before or between tool calls; write the answer once, in your final message.",
    "- Ground every claim in what you read, and cite each page you used as a [[Page Title]] wikilink",
    "  (the file name without .md), or an excerpt by its number, like [2].",
    "- If the wiki and the notes do not answer the question, say so plainly; do not answer from general knowledge.",
    wikiLanguage ? `- Write the answer in ${describeLanguage(wikiLanguage)}, whatever the language of the question or the pages.` : "- Answer in the language of the question.",
  ].join("\n");
}

export function queryTaskPrompt(messages: readonly { role: "user" | "assistant"; content: string }[], retrievalContext: string): string {
  const earlier = messages.slice(0, -1);
  const question = messages.at(-1)?.content ?? "";
  const lines: string[] = [];
  if (earlier.length > 0) {
    lines.push("The conversation so far:", "", ...earlier.map((m) => `${m.role === "user" ? "Question" : "Your answer"}: ${m.content}`), "");
  }
  lines.push(retrievalContext.trim() ? `Excerpts of the wiki and the notes:\n\n${retrievalContext.trim()}\n` : "The search found no excerpts for this question.\n");
  lines.push(`Question: ${question}`);
  return lines.join("\n");
}
