/**
 * Context windows of hosted models, by longest matching prefix. Declared, not probed: the hosted
 * APIs do not report them. Unknown models declare 0 ("unknown"), which disables the size check
 * rather than guessing.
 */
const WINDOWS: readonly (readonly [string, number])[] = [
  ["claude-", 200_000],
  ["gpt-5", 400_000],
  ["gpt-4.1", 1_047_576],
  ["gpt-4o", 128_000],
  ["o3", 200_000],
  ["o4-mini", 200_000],
];

export function knownContextWindow(model: string): number {
  return longestPrefix(WINDOWS, model);
}

/**
 * The most output tokens one reply of a hosted model may have, by longest matching prefix, as the
 * providers document them. Unknown models declare 0.
 */
const MAX_OUTPUT: readonly (readonly [string, number])[] = [
  ["claude-3-haiku", 4_096],
  ["claude-3-5-", 8_192],
  ["claude-3-7-sonnet", 64_000],
  ["claude-sonnet-4", 64_000],
  ["claude-haiku-4", 64_000],
  ["claude-opus-4", 32_000],
  ["claude-opus-4-5", 64_000],
  ["claude-opus-4-6", 64_000],
  ["gpt-5", 128_000],
  ["gpt-4.1", 32_768],
  ["gpt-4o", 16_384],
  ["o3", 100_000],
  ["o4-mini", 100_000],
];

function longestPrefix(table: readonly (readonly [string, number])[], model: string): number {
  const bare = model.includes("/") ? model.slice(model.lastIndexOf("/") + 1) : model;
  let best: readonly [string, number] | null = null;
  for (const entry of table) {
    if (bare.startsWith(entry[0]) && (!best || entry[0].length > best[0].length)) best = entry;
  }
  return best ? best[1] : 0;
}

export function knownMaxOutput(model: string): number {
  return longestPrefix(MAX_OUTPUT, model);
}
