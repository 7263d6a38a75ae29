/**
 * How a prompt is measured for the context window it will run in, shared by the adapters (which
 * plan each request's window with it) and the query (which packs a question's passages with it),
 * so that what the query packs is what the adapter finds room for. The adapters' calibration
 * (providers/token-calibration.ts) says how many tokens a server counted per token of this
 * measure; a provider tells it through `promptTokenRatio()` (core/provider.ts).
 */

/** The chat template's own tokens around each message (role markers, separators). */
export const TEMPLATE_TOKENS = 64;

/**
 * A text in tokens by the window estimate: chars/3, on the high side (the chars/4 of the call
 * estimate errs low for code and non-English text, and an estimate too low here is a prompt cut).
 * What a server counts is compared with this.
 */
export function textTokens(text: string): number {
  return Math.ceil(text.length / 3);
}

/** A text's share of a window: its estimate times `ratio` (tokens counted per token estimated, ≥ 1). */
export function measuredTokens(text: string, ratio = 1): number {
  return Math.ceil(textTokens(text) * Math.max(1, ratio));
}

/** A whole prompt's size for sizing its window: its text measured, and the chat template's own tokens. */
export function windowTokens(prompt: string, ratio = 1): number {
  return measuredTokens(prompt, ratio) + TEMPLATE_TOKENS;
}
