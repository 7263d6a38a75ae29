/**
 * Deterministic embeddings for the scripted servers and in-process tests: a signed bag of words
 * hashed into `dims` buckets. Texts that share words point the same way, so cosine ranking behaves
 * like a (crude) real model and a test can say which note a query should find.
 */
export const FAKE_DIMENSIONS = 256;

function hash(word: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

export function fakeEmbedding(text: string, dims = FAKE_DIMENSIONS): number[] {
  const vector = Array.from({ length: dims }, (): number => 0);
  for (const word of text.toLowerCase().match(/\p{L}[\p{L}\p{N}]*/gu) ?? []) {
    const h = hash(word);
    vector[h % dims] = (vector[h % dims] ?? 0) + ((h >>> 16) & 1 ? 1 : -1);
  }
  // Never all zeros: a text without words (or whose words cancel out) still has a direction.
  if (!vector.some((v) => v !== 0)) vector[dims - 1] = 1;
  return vector;
}
