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
  const bare = model.includes("/") ? model.slice(model.lastIndexOf("/") + 1) : model;
  let best: readonly [string, number] | null = null;
  for (const entry of WINDOWS) {
    if (bare.startsWith(entry[0]) && (!best || entry[0].length > best[0].length)) best = entry;
  }
  return best ? best[1] : 0;
}
