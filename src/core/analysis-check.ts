/**
 * An analysis is checked before anything is built from it: its fields end up in the page-writing
 * prompt (the language even in its instructions), so a model's garbage must stop here as a clear
 * `schema` failure rather than travel on. There is no repair round: the analysis is asked for once
 * per ingest by design, and a model that cannot name a language or a title for its note will not
 * write pages worth keeping either; the user retries or picks another model, and nothing is written.
 */
import { SynapseError } from "./errors";
import { isIso6391 } from "./iso639";
import type { Analysis } from "./schemas";

/** Bounds generous for any real note, tight enough that no field can carry a second prompt. */
export const ANALYSIS_LIMITS = {
  title: 300,
  summary: 2_000,
  name: 200,
  description: 1_000,
  listItems: 100,
} as const;

function problems(analysis: Analysis): string[] {
  const found: string[] = [];
  const bounded = (label: string, value: string, max: number, required: boolean) => {
    if (required && !value.trim()) found.push(`${label} is empty`);
    else if (value.length > max) found.push(`${label} is longer than ${max} characters`);
  };
  bounded("the title", analysis.title, ANALYSIS_LIMITS.title, true);
  // A summary may be empty (a note of a heading and a list has no lead): the note goes along anyway.
  bounded("the summary", analysis.summary, ANALYSIS_LIMITS.summary, false);
  const language = analysis.language.trim();
  if (!isIso6391(language)) found.push(`the language ${JSON.stringify(language.slice(0, 20))} is not an ISO 639-1 code such as "en"`);
  const lists = { topics: analysis.topics.length, entities: analysis.entities.length, concepts: analysis.concepts.length };
  for (const [name, count] of Object.entries(lists)) {
    if (count > ANALYSIS_LIMITS.listItems) found.push(`it lists more than ${ANALYSIS_LIMITS.listItems} ${name}`);
  }
  analysis.topics.forEach((topic, i) => bounded(`topic ${i + 1}`, topic, ANALYSIS_LIMITS.name, true));
  for (const [i, item] of [...analysis.entities, ...analysis.concepts].entries()) {
    bounded(`the name of entity or concept ${i + 1}`, item.name, ANALYSIS_LIMITS.name, true);
    bounded(`the description of "${item.name.slice(0, 40)}"`, item.description, ANALYSIS_LIMITS.description, false);
  }
  for (const [i, entity] of analysis.entities.entries()) bounded(`the kind of entity ${i + 1}`, entity.kind, ANALYSIS_LIMITS.name, false);
  return found;
}

/** The analysis, its language trimmed; a `schema` error naming the first problems otherwise. */
export function checkAnalysis(analysis: Analysis, model: string | null): Analysis {
  const found = problems(analysis);
  if (found.length === 0) return { ...analysis, language: analysis.language.trim() };
  const who = model ? `The model ${model}` : "The model";
  throw new SynapseError("schema", `${who} returned an unusable analysis of the note (${found.slice(0, 3).join("; ")}); nothing was written — try again or pick another model.`);
}
