/**
 * Token estimates for packing context into a budget. Erring high is the safe side here (an
 * over-full prompt is refused or cut by the server): about four characters a token for prose,
 * three for code and for scripts written without spaces (CJK, Thai), whose tokens are denser.
 */
const DENSE = /[\u0E00-\u0E7F\u3040-\u30FF\u3400-\u4DBF\u4E00-\u9FFF\uAC00-\uD7AF\uF900-\uFAFF`{}();=<>[\]]/g;

export function estimateTokens(text: string): number {
  if (text.length === 0) return 0;
  const dense = text.match(DENSE)?.length ?? 0;
  return Math.ceil((text.length - dense) / 4 + dense / 1.5);
}
