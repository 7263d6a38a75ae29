/**
 * Writes a GGUF v3 file of a tiny `llama`-architecture model with seeded random weights, so the
 * runtime suite runs a real llama.cpp without model weights from anywhere (none can be fetched in
 * CI). The model is nonsense on purpose: what it proves is that the runtime loads it, that every
 * schema Synapse sends compiles to a grammar, and what Synapse does with valid-but-nonsense JSON.
 *
 * Layout (GGUF v3, little-endian): magic "GGUF", version, tensor count, metadata count, the
 * metadata key/values, the tensor infos, padding to `general.alignment`, then each tensor's data
 * at an aligned offset. Tensor names and metadata keys are llama.cpp's (llama-arch.cpp).
 */
import { writeFileSync } from "node:fs";
import { seededRandom } from "../helpers/seeded-random";

export interface TinyModelShape {
  readonly layers: number;
  readonly embedding: number;
  readonly heads: number;
  readonly kvHeads: number;
  readonly feedForward: number;
  readonly contextLength: number;
}

export const TINY_SHAPE: TinyModelShape = { layers: 2, embedding: 64, heads: 4, kvHeads: 2, feedForward: 128, contextLength: 8192 };

const ALIGNMENT = 32;

/** GGUF metadata value types. */
const T = { u32: 4, i32: 5, f32: 6, bool: 7, string: 8, array: 9 } as const;
/** ggml tensor type F32. */
const GGML_F32 = 0;
/** llama.cpp token types. */
const TOKEN = { normal: 1, unknown: 2, control: 3, byte: 6 } as const;

/** A ChatML template, the shape most small instruct models use. */
export const CHATML_TEMPLATE =
  "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n'}}{% endfor %}" +
  "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

type Value =
  | { readonly type: "u32"; readonly value: number }
  | { readonly type: "f32"; readonly value: number }
  | { readonly type: "bool"; readonly value: boolean }
  | { readonly type: "string"; readonly value: string }
  | { readonly type: "strings"; readonly value: readonly string[] }
  | { readonly type: "f32s"; readonly value: readonly number[] }
  | { readonly type: "i32s"; readonly value: readonly number[] };

/** Grows as it is written; GGUF is written front to back, so one buffer is enough. */
class ByteWriter {
  private buffer = Buffer.alloc(1 << 16);
  length = 0;

  private room(bytes: number): void {
    if (this.length + bytes <= this.buffer.length) return;
    const next = Buffer.alloc(Math.max(this.buffer.length * 2, this.length + bytes));
    this.buffer.copy(next, 0, 0, this.length);
    this.buffer = next;
  }
  u32(n: number): void {
    this.room(4);
    this.buffer.writeUInt32LE(n, this.length);
    this.length += 4;
  }
  i32(n: number): void {
    this.room(4);
    this.buffer.writeInt32LE(n, this.length);
    this.length += 4;
  }
  u64(n: number): void {
    this.room(8);
    this.buffer.writeBigUInt64LE(BigInt(n), this.length);
    this.length += 8;
  }
  f32(n: number): void {
    this.room(4);
    this.buffer.writeFloatLE(n, this.length);
    this.length += 4;
  }
  u8(n: number): void {
    this.room(1);
    this.buffer.writeUInt8(n, this.length);
    this.length += 1;
  }
  string(text: string): void {
    const bytes = Buffer.from(text, "utf8");
    this.u64(bytes.length);
    this.room(bytes.length);
    bytes.copy(this.buffer, this.length);
    this.length += bytes.length;
  }
  pad(): void {
    while (this.length % ALIGNMENT !== 0) this.u8(0);
  }
  bytes(): Buffer {
    return this.buffer.subarray(0, this.length);
  }
}

function writeValue(out: ByteWriter, value: Value): void {
  switch (value.type) {
    case "u32":
      out.u32(T.u32);
      out.u32(value.value);
      return;
    case "f32":
      out.u32(T.f32);
      out.f32(value.value);
      return;
    case "bool":
      out.u32(T.bool);
      out.u8(value.value ? 1 : 0);
      return;
    case "string":
      out.u32(T.string);
      out.string(value.value);
      return;
    case "strings":
      out.u32(T.array);
      out.u32(T.string);
      out.u64(value.value.length);
      for (const item of value.value) out.string(item);
      return;
    case "f32s":
      out.u32(T.array);
      out.u32(T.f32);
      out.u64(value.value.length);
      for (const item of value.value) out.f32(item);
      return;
    case "i32s":
      out.u32(T.array);
      out.u32(T.i32);
      out.u64(value.value.length);
      for (const item of value.value) out.i32(item);
      return;
  }
}

/** Common English pieces, so ordinary text takes fewer tokens than one per byte. */
const WORDS = ["the", "and", "of", "to", "in", "is", "that", "for", "on", "with", "as", "page", "note", "wiki", "source", "title", "summary"];

export interface TinyVocabulary {
  readonly tokens: readonly string[];
  readonly scores: readonly number[];
  readonly types: readonly number[];
  readonly bos: number;
  readonly eos: number;
  readonly unknown: number;
}

/**
 * A SentencePiece-style vocabulary that can spell any UTF-8 text: the control tokens, the 256 byte
 * tokens (`<0x00>`…`<0xFF>`, llama.cpp's byte fallback), every printable ASCII character, and a few
 * words with and without the "▁" space marker. Longer pieces score higher, so merges prefer them.
 */
export function tinyVocabulary(): TinyVocabulary {
  const tokens: string[] = [];
  const scores: number[] = [];
  const types: number[] = [];
  const add = (piece: string, score: number, type: number): number => {
    tokens.push(piece);
    scores.push(score);
    types.push(type);
    return tokens.length - 1;
  };
  const unknown = add("<unk>", 0, TOKEN.unknown);
  const bos = add("<s>", 0, TOKEN.control);
  add("</s>", 0, TOKEN.control);
  add("<|im_start|>", 0, TOKEN.control);
  const eos = add("<|im_end|>", 0, TOKEN.control);
  for (let byte = 0; byte < 256; byte++) add(`<0x${byte.toString(16).toUpperCase().padStart(2, "0")}>`, 0, TOKEN.byte);
  add("▁", -1, TOKEN.normal);
  for (let code = 33; code < 127; code++) add(String.fromCharCode(code), -2, TOKEN.normal);
  for (const word of WORDS) {
    add(`▁${word}`, word.length, TOKEN.normal);
    if (!tokens.includes(word)) add(word, word.length - 1, TOKEN.normal);
  }
  // Prefixes of the words, so merges can build them up pair by pair (SentencePiece merges bigrams).
  for (const word of WORDS) {
    for (let end = 2; end < word.length; end++) {
      const prefix = word.slice(0, end);
      if (!tokens.includes(prefix)) add(prefix, end - 3, TOKEN.normal);
      if (!tokens.includes(`▁${prefix}`)) add(`▁${prefix}`, end - 2.5, TOKEN.normal);
    }
  }
  return { tokens, scores, types, bos, eos, unknown };
}

interface TensorSpec {
  readonly name: string;
  /** ggml order: ne[0] first (the row length). */
  readonly dims: readonly number[];
  /** "one" for norm weights (a random norm only adds noise), "random" otherwise. */
  readonly fill: "one" | "random";
}

function tensorSpecs(shape: TinyModelShape, vocabSize: number): TensorSpec[] {
  const headSize = shape.embedding / shape.heads;
  const kv = headSize * shape.kvHeads;
  const specs: TensorSpec[] = [
    { name: "token_embd.weight", dims: [shape.embedding, vocabSize], fill: "random" },
    { name: "output_norm.weight", dims: [shape.embedding], fill: "one" },
    { name: "output.weight", dims: [shape.embedding, vocabSize], fill: "random" },
  ];
  for (let layer = 0; layer < shape.layers; layer++) {
    const blk = `blk.${layer}`;
    specs.push(
      { name: `${blk}.attn_norm.weight`, dims: [shape.embedding], fill: "one" },
      { name: `${blk}.attn_q.weight`, dims: [shape.embedding, shape.embedding], fill: "random" },
      { name: `${blk}.attn_k.weight`, dims: [shape.embedding, kv], fill: "random" },
      { name: `${blk}.attn_v.weight`, dims: [shape.embedding, kv], fill: "random" },
      { name: `${blk}.attn_output.weight`, dims: [shape.embedding, shape.embedding], fill: "random" },
      { name: `${blk}.ffn_norm.weight`, dims: [shape.embedding], fill: "one" },
      { name: `${blk}.ffn_gate.weight`, dims: [shape.embedding, shape.feedForward], fill: "random" },
      { name: `${blk}.ffn_up.weight`, dims: [shape.embedding, shape.feedForward], fill: "random" },
      { name: `${blk}.ffn_down.weight`, dims: [shape.feedForward, shape.embedding], fill: "random" },
    );
  }
  return specs;
}

/** The bytes of the model file; the same seed gives the same bytes. */
export function tinyGguf(seed: number, shape: TinyModelShape = TINY_SHAPE): Buffer {
  const vocab = tinyVocabulary();
  const metadata: [string, Value][] = [
    ["general.architecture", { type: "string", value: "llama" }],
    ["general.name", { type: "string", value: "synapse-tiny-random" }],
    ["general.alignment", { type: "u32", value: ALIGNMENT }],
    ["general.file_type", { type: "u32", value: 0 }],
    ["llama.context_length", { type: "u32", value: shape.contextLength }],
    ["llama.embedding_length", { type: "u32", value: shape.embedding }],
    ["llama.block_count", { type: "u32", value: shape.layers }],
    ["llama.feed_forward_length", { type: "u32", value: shape.feedForward }],
    ["llama.attention.head_count", { type: "u32", value: shape.heads }],
    ["llama.attention.head_count_kv", { type: "u32", value: shape.kvHeads }],
    ["llama.rope.dimension_count", { type: "u32", value: shape.embedding / shape.heads }],
    ["llama.rope.freq_base", { type: "f32", value: 10000 }],
    ["llama.attention.layer_norm_rms_epsilon", { type: "f32", value: 1e-5 }],
    ["llama.vocab_size", { type: "u32", value: vocab.tokens.length }],
    ["tokenizer.ggml.model", { type: "string", value: "llama" }],
    ["tokenizer.ggml.tokens", { type: "strings", value: vocab.tokens }],
    ["tokenizer.ggml.scores", { type: "f32s", value: vocab.scores }],
    ["tokenizer.ggml.token_type", { type: "i32s", value: vocab.types }],
    ["tokenizer.ggml.bos_token_id", { type: "u32", value: vocab.bos }],
    ["tokenizer.ggml.eos_token_id", { type: "u32", value: vocab.eos }],
    ["tokenizer.ggml.unknown_token_id", { type: "u32", value: vocab.unknown }],
    ["tokenizer.ggml.add_bos_token", { type: "bool", value: true }],
    ["tokenizer.ggml.add_eos_token", { type: "bool", value: false }],
    ["tokenizer.chat_template", { type: "string", value: CHATML_TEMPLATE }],
  ];
  const specs = tensorSpecs(shape, vocab.tokens.length);

  const out = new ByteWriter();
  out.u32(0x46554747); // "GGUF" read as a little-endian u32
  out.u32(3);
  out.u64(specs.length);
  out.u64(metadata.length);
  for (const [key, value] of metadata) {
    out.string(key);
    writeValue(out, value);
  }
  let offset = 0;
  for (const spec of specs) {
    out.string(spec.name);
    out.u32(spec.dims.length);
    for (const dim of spec.dims) out.u64(dim);
    out.u32(GGML_F32);
    out.u64(offset);
    const bytes = spec.dims.reduce((a, b) => a * b, 1) * 4;
    offset += Math.ceil(bytes / ALIGNMENT) * ALIGNMENT;
  }
  out.pad();
  const random = seededRandom(seed);
  // Each tensor is padded to the alignment, so writing them in order puts each at its offset.
  for (const spec of specs) {
    const count = spec.dims.reduce((a, b) => a * b, 1);
    // Scaled so activations neither vanish nor blow up across the layers (~1/sqrt(row length)).
    const scale = 1 / Math.sqrt(spec.dims[0] ?? 1);
    for (let i = 0; i < count; i++) out.f32(spec.fill === "one" ? 1 : (random() * 2 - 1) * scale * 1.7);
    out.pad();
  }
  return out.bytes();
}

/** Writes the model to `path` and returns the path. */
export function writeTinyGguf(path: string, seed: number, shape: TinyModelShape = TINY_SHAPE): string {
  writeFileSync(path, tinyGguf(seed, shape));
  return path;
}
