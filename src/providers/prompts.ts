/**
 * The prompts, shared by every backend so that switching providers changes transport, not
 * instructions. Each structured prompt states the JSON schema in words as well as sending it as
 * a constraint, because servers that ignore the constraint (some OpenAI-compatible ones) still
 * read the prompt.
 *
 * Ordered for prompt caching (Anthropic's `cache_control`, OpenAI's automatic prefix cache): what
 * lives longest comes first. The system prompt (instructions and schema) is the same for every
 * request of its kind; then the wiki's context, the same for notes about one subject (the related
 * pages in a stable order: wiki/ingest/related-order.ts); then what belongs to one note (its rules, its
 * analysis, its text), the same for every attempt at it; and last what changes on a retry (the
 * validation feedback). No text sits before a part that lives longer than it.
 */
import { isIso6391 } from "../core/iso639";
import type { GenerationInput } from "../core/provider";
import { PAGE_TYPES, type Message } from "../core/schemas";
import type { RunContext } from "../core/run-context";
import { OMITTED } from "../core/note-excerpt";
import { describeLanguage } from "../core/wiki-language";

/** A start of a prompt's user message that repeats, and across what. */
export interface StablePart {
  /** The text the user message begins with. */
  readonly text: string;
  /**
   * `"notes"`: the same for other notes (the wiki's context): read again by the next note about
   * the subject, worth a cache mark. `"retries"`: the same only for this note's own requests (a
   * retry after validation); most notes need one attempt, so a mark would mostly be paid for
   * (Anthropic writes at 1.25×) and never read. OpenAI's automatic cache needs no mark for either.
   */
  readonly stableFor: "notes" | "retries";
}

export interface PromptPair {
  /** The same for every request of its kind: instructions and schema. */
  readonly system: string;
  readonly user: string;
  /** The parts of `user` that repeat, longest-lived first, each a start of the next and of `user`. */
  readonly stable?: readonly StablePart[];
}

/** The source path the pages must cite, exactly as the validator will compare it. */
export function sourcePathOf(run: RunContext): string {
  return run.source?.path ?? "";
}

function schemaBlock(schema: Record<string, unknown>): string {
  return ["Reply with exactly one JSON object, no prose and no code fences, that follows this JSON Schema:", JSON.stringify(schema)].join("\n");
}

/** `partial`: the note is shown in parts (note-excerpt.ts), and the prompt says so. */
export function analyzePrompt(sourceText: string, vaultContext: string, schema: Record<string, unknown>, run: RunContext, partial = false): PromptPair {
  const path = sourcePathOf(run);
  const system = [
    "You analyse one source note for a personal wiki kept in an Obsidian vault.",
    "Say what the source is about: its title, its main language as an ISO 639-1 code (two lowercase letters such as \"en\", \"de\", \"ja\"),",
    "a two- or three-sentence summary, its topics, the entities it names (people, organisations, products, places, works) and the concepts it explains.",
    "Use only what the source says; do not invent facts.",
    schemaBlock(schema),
  ].join("\n");
  // The wiki's context before the note: it repeats across the notes about one subject.
  const wiki = vaultContext.trim() ? `What the wiki already holds:\n${vaultContext.trim()}\n\n` : "";
  const heading = partial ? `Source note "${path}", shown in parts: "${OMITTED}" marks what was left out; do not guess at it.` : `Source note "${path}":`;
  const note = [heading, "<source>", sourceText, "</source>"].join("\n");
  return { system, user: `${wiki}${note}`, ...(wiki ? { stable: [{ text: wiki, stableFor: "notes" as const }] } : {}) };
}

export function generatePrompt(input: GenerationInput, schema: Record<string, unknown>, run: RunContext): PromptPair {
  const { analysis, note, related, feedback } = input;
  const path = sourcePathOf(run);
  const fixed = run.wikiLanguage;
  // Only a real code reaches the instructions (the orchestrator has refused any other already).
  const given = analysis.language.trim();
  const lang = isIso6391(given) ? given : "en";
  // The user may fix the wiki's language; otherwise each page follows its note.
  const language = fixed
    ? `- Write every page, titles included, in ${describeLanguage(fixed)}, whatever the source's language; keep names and quotations as the source writes them. "frontmatter.lang" is "${fixed}".`
    : `- "frontmatter.lang" is the ISO 639-1 code of the page's language; write in the source's language ("${lang}").`;
  const system = [
    "You write pages for a personal wiki kept in an Obsidian vault, from one source note and its analysis.",
    "Rules for every page:",
    `- "type" is one of: ${PAGE_TYPES.join(", ")}. Write one "source" page for the note itself, and entity or concept pages for what deserves its own page.`,
    '- "frontmatter.sources" lists the source note\'s path exactly as the message gives it.',
    '- "frontmatter.tags" holds a few lowercase tags.',
    '- "content" is the Markdown body without frontmatter; link other pages with [[Page Title]] wikilinks.',
    "- When the wiki already has a page for the same subject (perhaps under another name or in another language), use that page's exact title.",
    '- "aliases" lists other names of the subject: synonyms, abbreviations, its name in other languages; [] when there are none.',
    '- "contradicts" lists each passage of the related wiki content that the source contradicts, as {"claim": what the source says, "existing": the passage quoted exactly}; [] when there are none. Never settle a contradiction yourself.',
    "- Use only facts from the source note, its analysis and the context; quote the note where a quotation helps; do not invent.",
    `- Where the note is shown in parts, "${OMITTED}" marks what was left out; do not guess at it.`,
    schemaBlock(schema),
  ].join("\n");
  // The wiki's context first (the same for notes about one subject), then this note's own rules,
  // its analysis and its text (the same for every attempt), and a retry's feedback last.
  const wiki = related.trim() ? `Related wiki content and notes:\n${related.trim()}\n\n` : "";
  const ownPart = [
    "For this note:",
    `- "frontmatter.sources" lists "${path}" exactly as written here.`,
    language,
    `\nAnalysis of "${path}":`,
    JSON.stringify(analysis, null, 2),
    note.trim() ? `\nSource note "${path}":\n<source>\n${note}\n</source>` : "",
  ]
    .filter(Boolean)
    .join("\n");
  const forNote = `${wiki}${ownPart}`;
  const stable: StablePart[] = [...(wiki ? [{ text: wiki, stableFor: "notes" as const }] : []), { text: forNote, stableFor: "retries" }];
  return { system, user: feedback?.trim() ? `${forNote}\n\n${feedback.trim()}` : forNote, stable };
}

/** `wikiLanguage`: the ISO 639-1 code the user fixed for their wiki; answers are then written in it. */
export function chatMessages(messages: readonly Message[], retrievalContext: string, wikiLanguage?: string): Message[] {
  const system: Message = {
    role: "system",
    content: [
      "You answer questions about a personal wiki kept in an Obsidian vault.",
      "Ground every claim in the wiki excerpts below and cite the pages you used as [[Page Title]] wikilinks.",
      "If the excerpts do not answer the question, say so.",
      ...(wikiLanguage ? [`Answer in ${describeLanguage(wikiLanguage)}, whatever the language of the question or the excerpts; keep page titles in links as they are.`] : []),
      retrievalContext.trim() ? `\nWiki excerpts:\n${retrievalContext.trim()}` : "\nThe wiki has no excerpts for this question.",
    ].join("\n"),
  };
  // A system message from the caller is kept, after ours, so instructions are not silently dropped.
  return [system, ...messages];
}

/** The whole prompt as one text, for opt-in content capture and size estimates. */
export function promptText(pair: PromptPair): string {
  return `${pair.system}\n\n${pair.user}`;
}
