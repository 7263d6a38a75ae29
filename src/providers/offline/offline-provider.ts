/**
 * The Offline provider: the zero-setup default. It is extraction, not AI, and says so on every page
 * it writes. Deterministic, local, and held to the same validator as every model.
 */
import { defineCapabilities, type ProviderCapabilities } from "../../core/capabilities";
import { SynapseError } from "../../core/errors";
import { ANALYSIS_LIMITS } from "../../core/analysis-check";
import type { GenerationInput, InferenceProvider } from "../../core/provider";
import { throwIfStopped, type RunContext } from "../../core/run-context";
import type { Analysis, Message, WikiPage } from "../../core/schemas";
import { plainText } from "../../core/plain-text";
import { extract, isProperName, sentences } from "./extract";
import { offlinePages } from "./offline-pages";

const CAPABILITIES = defineCapabilities({
  name: "offline",
  mode: "offline",
  model: null,
  isLocal: true,
  structuredOutput: "none",
  streaming: true,
});

export class OfflineProvider implements InferenceProvider {
  capabilities(): ProviderCapabilities {
    return CAPABILITIES;
  }

  analyze(sourceText: string, _vaultContext: string, run: RunContext): Promise<Analysis> {
    throwIfStopped(run);
    const path = run.source?.path ?? "note.md";
    const found = extract(path, sourceText);
    // Held to the analysis' bounds (analysis-check.ts): extraction copies the note, and a note's
    // heading or link may be as long as the note itself.
    const clip = (text: string, max: number) => {
      if (text.length <= max) return text;
      // Never half a surrogate pair.
      const cut = text.slice(0, max);
      return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
    };
    const items = ANALYSIS_LIMITS.listItems;
    return Promise.resolve({
      title: clip(found.title, ANALYSIS_LIMITS.title),
      language: found.language,
      summary: clip(found.lead, ANALYSIS_LIMITS.summary),
      topics: [...found.headings.filter((h) => h.level <= 2).map((h) => h.text), ...found.tags].slice(0, 12).map((t) => clip(t, ANALYSIS_LIMITS.name)),
      entities: [...found.links.filter((t) => isProperName(t.name)), ...found.namedPhrases].slice(0, items).map((t) => ({
        name: clip(t.name, ANALYSIS_LIMITS.name),
        kind: "named",
        description: clip(t.context, ANALYSIS_LIMITS.description),
      })),
      concepts: found.links
        .filter((t) => !isProperName(t.name))
        .slice(0, items)
        .map((t) => ({ name: clip(t.name, ANALYSIS_LIMITS.name), description: clip(t.context, ANALYSIS_LIMITS.description) })),
    });
  }

  /** Extractive and windowless: it reads the whole note from `run.source`, not the packed `input.note`. */
  generate({ analysis }: GenerationInput, run: RunContext): Promise<WikiPage[]> {
    throwIfStopped(run);
    const source = run.source;
    if (!source) throw new SynapseError("config", "The Offline provider needs the source note to generate pages.");
    // Extraction is cheap and deterministic, so generate re-reads the note rather than keeping state.
    const found = extract(source.path, source.text);
    // A wiki language the user fixed sets the fixed words; the extracted text stays the note's.
    return Promise.resolve(offlinePages(analysis, found, source.path, run.wikiLanguage ?? analysis.language));
  }

  async *chat(messages: Message[], retrievalContext: string, run: RunContext): AsyncIterable<string> {
    throwIfStopped(run);
    const question = [...messages].reverse().find((m) => m.role === "user")?.content ?? "";
    const passages = bestPassages(question, retrievalContext);
    if (passages.length === 0) {
      yield "Nothing in the wiki matches the question.";
      return;
    }
    yield "Offline mode has no language model, so this is not an answer: these are the passages of your wiki that share the most words with your question.\n\n";
    for (const { title, text } of passages) yield `> ${text}\n\n— [[${title}]]\n\n`;
  }

}

/** Most characters quoted from one passage: whole sentences only, so a quote may run a little short of it. */
const QUOTE_CHARS = 600;

/** A sentence of prose: letters, and the punctuation that ends one (a heading or a list item's name has none). */
const PROSE_SENTENCE = /\p{L}.*[.!?。！？]["'”»)]*$/u;

/** The question's words worth matching: short ones ("was", "and", "she") match every passage. */
/** The text without its callouts ("> [!info] …" and the quoted lines under it). */
function withoutCallouts(text: string): string {
  let callout = false;
  return text
    .split("\n")
    .filter((line) => {
      if (!line.startsWith(">")) callout = false;
      else if (/^>\s*\[!/.test(line)) callout = true;
      return !callout;
    })
    .join("\n");
}

/** Lines that are not prose: headings, list items, table rows. */
const LABEL_LINE = /^\s*(?:#{1,6}\s|[-*+]\s|\d+[.)]\s|\|)/;

const wordsOf = (text: string) => text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 3);

/**
 * The context's passages ("[n] [[Title]] (…)" then the text) that share the most words with the
 * question, best first, each with the page it came from so the quote can be cited. A quote is
 * whole sentences of the passage as plain text — no headings, list marks, nested quotes or
 * markers, never cut mid-word — the sentences sharing the most words with the question, in the
 * page's order; a sentence another passage already quoted (one note's pages quote it alike) is
 * not repeated.
 */
function bestPassages(question: string, context: string): { title: string; text: string }[] {
  const words = new Set(wordsOf(question));
  const scored = context
    .split(/\n\s*\n(?=\[\d+\] \[\[)/)
    .map((block) => {
      const header = /^\[\d+\] \[\[([^\]\n]+)\]\][^\n]*\n?/.exec(block);
      const body = header ? block.slice(header[0].length) : block;
      // Prose only: a heading, a list item or a table row is a label or a line of an outline, a
      // page's list of terms repeats the sentences its pages quote ("Analytical Engine: Augusta …"),
      // and a callout is Synapse's notice about the page ("Extracted without a language model").
      const prose = withoutCallouts(body).split("\n").filter((line) => !LABEL_LINE.test(line)).join("\n");
      const candidates = sentences(plainText(prose))
        .filter((s) => PROSE_SENTENCE.test(s))
        .map((text, at) => ({ text, at, score: wordsOf(text).filter((w) => words.has(w)).length }))
        .filter((s) => s.score > 0);
      return { title: header?.[1] ?? "", candidates, score: candidates.reduce((sum, s) => sum + s.score, 0) };
    })
    .filter((x) => x.score > 0 && x.title)
    .sort((a, b) => b.score - a.score);
  const quoted = new Set<string>();
  const passages: { title: string; text: string }[] = [];
  for (const { title, candidates } of scored) {
    const chosen: typeof candidates = [];
    let length = 0;
    for (const s of [...candidates].sort((a, b) => b.score - a.score || a.at - b.at)) {
      if (quoted.has(s.text) || (chosen.length > 0 && length + s.text.length > QUOTE_CHARS)) continue;
      chosen.push(s);
      length += s.text.length + 1;
    }
    if (chosen.length === 0) continue;
    for (const s of chosen) quoted.add(s.text);
    passages.push({ title, text: chosen.sort((a, b) => a.at - b.at).map((s) => s.text).join(" ") });
    if (passages.length === 3) break;
  }
  return passages;
}
