/**
 * The output limit (num_predict) each kind of request asks for. Without one Ollama writes until
 * the context is full, which on a CPU at a few tokens a second is many minutes of a runaway reply.
 * Each step gets room for what it produces; the "Max output tokens" setting caps them all, and a
 * reply cut off at its limit is asked again with a larger one (output-limit.ts).
 */
export type OutputStep = "analysis" | "pages" | "answer" | "check";

const STEP_TOKENS: Readonly<Record<OutputStep, number>> = {
  // Title, language, a summary, topics, entities and concepts.
  analysis: 1_024,
  // A source page and a few entity or concept pages, Markdown bodies included.
  pages: 4_096,
  // A grounded answer with citations.
  answer: 1_024,
  // A pair verdict: two quoted passages and a reason (lint reserves its own, smaller, cap).
  check: 800,
};

/** The step's limit, capped by the setting (0: no cap). */
export function stepOutputLimit(step: OutputStep, configured: number): number {
  const own = STEP_TOKENS[step];
  return configured > 0 ? Math.min(own, configured) : own;
}
