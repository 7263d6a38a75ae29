/**
 * Vectors as the index keeps them: normalised to unit length, then quantised to int8 with one
 * scale per vector (value ≈ int8 × scale). A 768-dimension vector takes 772 bytes instead of 3 KB,
 * and cosine similarity is a dot product. The recall this costs is measured in
 * test/retrieval/vector-quantise.test.ts (top-10 overlap with float cosine on synthetic vectors).
 */

export interface QuantisedVector {
  readonly values: Int8Array;
  readonly scale: number;
}

/** The vector at unit length; null when it has no direction (all zeros) or holds a non-finite number. */
export function normalise(vector: ArrayLike<number>): Float32Array | null {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) {
    const v = vector[i] ?? Number.NaN;
    if (!Number.isFinite(v)) return null;
    sum += v * v;
  }
  if (sum === 0) return null;
  const norm = Math.sqrt(sum);
  const out = new Float32Array(vector.length);
  for (let i = 0; i < vector.length; i++) out[i] = (vector[i] ?? 0) / norm;
  return out;
}

export function quantise(unit: Float32Array): QuantisedVector {
  let max = 0;
  for (const v of unit) max = Math.max(max, Math.abs(v));
  const scale = max === 0 ? 1 : max / 127;
  const values = new Int8Array(unit.length);
  for (let i = 0; i < unit.length; i++) values[i] = Math.round((unit[i] ?? 0) / scale);
  return { values, scale };
}

/** Cosine similarity of a unit query with a quantised unit vector. */
export function cosineQuantised(query: Float32Array, vector: QuantisedVector): number {
  const values = vector.values;
  let dot = 0;
  for (let i = 0; i < values.length; i++) dot += (query[i] ?? 0) * (values[i] ?? 0);
  return dot * vector.scale;
}

/** Cosine similarity of two unit vectors (the float baseline quantisation is measured against). */
export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += (a[i] ?? 0) * (b[i] ?? 0);
  return dot;
}

/** SHA-256 of a chunk's text and the model id, in hex: the key a chunk's vector is cached under. */
export async function chunkKey(modelId: string, text: string): Promise<string> {
  const bytes = new TextEncoder().encode(`${modelId}\u0000${text}`);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  let hex = "";
  for (const b of digest) hex += b.toString(16).padStart(2, "0");
  return hex;
}
