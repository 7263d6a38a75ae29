/**
 * Shards store their typed arrays little-endian, and on a little-endian host (every machine
 * Obsidian runs on) reading one is a view on the shard's bytes: no copy, no decoding. A big-endian
 * host reads and writes the same bytes through a DataView instead, a copy, so a shard means the same
 * wherever it was written. `littleEndian` is a parameter only so tests can take the other path.
 */
export const HOST_LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;

/** `count` uint16s at `byteOffset` (2-aligned) of `buffer`. */
export function readUint16s(buffer: ArrayBufferLike, byteOffset: number, count: number, littleEndian = HOST_LITTLE_ENDIAN): Uint16Array {
  if (littleEndian) return new Uint16Array(buffer, byteOffset, count);
  const view = new DataView(buffer, byteOffset, 2 * count);
  const out = new Uint16Array(count);
  for (let i = 0; i < count; i++) out[i] = view.getUint16(2 * i, true);
  return out;
}

/** `count` int32s at `byteOffset` (4-aligned) of `buffer`. */
export function readInt32s(buffer: ArrayBufferLike, byteOffset: number, count: number, littleEndian = HOST_LITTLE_ENDIAN): Int32Array {
  if (littleEndian) return new Int32Array(buffer, byteOffset, count);
  const view = new DataView(buffer, byteOffset, 4 * count);
  const out = new Int32Array(count);
  for (let i = 0; i < count; i++) out[i] = view.getInt32(4 * i, true);
  return out;
}

export function writeUint16s(buffer: ArrayBufferLike, byteOffset: number, values: Uint16Array, littleEndian = HOST_LITTLE_ENDIAN): void {
  if (littleEndian) {
    new Uint16Array(buffer, byteOffset, values.length).set(values);
    return;
  }
  const view = new DataView(buffer, byteOffset, 2 * values.length);
  values.forEach((v, i) => view.setUint16(2 * i, v, true));
}

export function writeInt32s(buffer: ArrayBufferLike, byteOffset: number, values: Int32Array, littleEndian = HOST_LITTLE_ENDIAN): void {
  if (littleEndian) {
    new Int32Array(buffer, byteOffset, values.length).set(values);
    return;
  }
  const view = new DataView(buffer, byteOffset, 4 * values.length);
  values.forEach((v, i) => view.setInt32(4 * i, v, true));
}
