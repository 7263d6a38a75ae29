/**
 * A count with its noun in the right number ("1 page", "3 pages", "2 entries"), so no message
 * falls back on "page(s)". English only, as every message of the plugin and the CLI is.
 */
export function plural(n: number, word: string, pluralWord = `${word}s`): string {
  return `${n.toLocaleString("en-US")} ${n === 1 ? word : pluralWord}`;
}
