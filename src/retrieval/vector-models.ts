/**
 * Where each embedding model's vectors live: a folder per model under `index/vectors/`, so that one
 * search with another model (`synapse search --embed-model X`) neither reads nor deletes the
 * configured model's vectors, and switching back embeds nothing again. A small list,
 * `index/vectors/models.json`, names the models most recently used first. Two models keep their
 * folders: the one the settings choose (the configured one, never removed to make room, so trying
 * model after model cannot take its vectors, even while the plugin writes into them) and the most
 * recent other one, so trying model after model does not fill the disk.
 * Vectors of the first layout (`index/vectors-XX.bin`, one model at a time) move into the folder of
 * the model their header names, unchanged, the first time any model opens the index.
 */
import type { StateStore } from "../vault/state-store";
import { INDEX_PREFIX } from "./shards";
import { SHARD_COUNT } from "./shard-of";

/** How many models keep their vectors on disk: the configured one and the most recent other one. */
export const MAX_VECTOR_MODELS = 2;
export const VECTORS_FOLDER = `${INDEX_PREFIX}/vectors`;
const MODELS_KEY = `${VECTORS_FOLDER}/models.json`;
/** The first layout: one model's shards beside the text shards. */
export const LEGACY_VECTOR_SHARD = /^index\/vectors-([0-9a-f]{2})\.bin$/;

/** At most this many names are read from the list: it is Synapse's own file, and holds two. */
const MAX_LISTED = 64;

/**
 * The model names `models.json` holds — `{ "models": [non-empty strings, at most MAX_LISTED] }` —
 * or null when it holds anything else. A plain check, not a zod schema: this runs in the index's
 * worker, whose bundle holds no zod, and the file is one Synapse writes itself (`useVectorModel`).
 */
function listedModels(value: unknown): string[] | null {
  if (typeof value !== "object" || value === null) return null;
  const models: unknown = (value as { models?: unknown }).models;
  if (!Array.isArray(models) || models.length > MAX_LISTED) return null;
  return models.every((model): model is string => typeof model === "string" && model.length > 0) ? models : null;
}

function fnv(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, "0");
}

/**
 * A model's folder: its id made safe for a file name (readable when someone looks), plus a hash of
 * the exact id, so two ids that read alike never share a folder.
 */
export function modelFolder(modelId: string): string {
  const readable = modelId
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 48);
  return `${VECTORS_FOLDER}/${readable === "" ? "model" : readable}-${fnv(modelId)}`;
}

export function vectorShardKey(modelId: string, shard: number): string {
  if (!Number.isInteger(shard) || shard < 0 || shard >= SHARD_COUNT) throw new RangeError(`No vector shard ${shard}.`);
  return `${modelFolder(modelId)}/vectors-${shard.toString(16).padStart(2, "0")}.bin`;
}

async function readModels(store: StateStore): Promise<string[]> {
  const text = await store.read(MODELS_KEY);
  if (text === null) return [];
  try {
    return listedModels(JSON.parse(text)) ?? [];
  } catch {
    return []; // unreadable: the folders of models it named are swept below, the one in use kept
  }
}

export interface VectorModelChoice {
  /**
   * The model the settings choose (its `modelId`), or null when they choose none: its folder is
   * kept whichever model is in use.
   */
  readonly configured: string | null;
  /** Models whose vectors of the first layout are about to move into their folders (recorded first). */
  readonly adopted?: readonly string[];
}

/**
 * Records `modelId` as the model in use and removes the vectors of every model but the configured
 * one and the most recent other one (the one in use, when it is not the configured one), and of
 * folders no list names. Returns the models kept, most recent first.
 */
export async function useVectorModel(store: StateStore, modelId: string, choice: VectorModelChoice): Promise<readonly string[]> {
  const before = await readModels(store);
  const byRecency = [...new Set([modelId, ...(choice.adopted ?? []), ...before, ...(choice.configured === null ? [] : [choice.configured])])];
  const kept = new Set(choice.configured === null ? [] : [choice.configured]);
  // The one in use comes first in byRecency, so it is always kept.
  for (const model of byRecency) if (kept.size < MAX_VECTOR_MODELS) kept.add(model);
  const listed = byRecency.filter((m) => kept.has(m));
  const folders = listed.map((m) => `${modelFolder(m)}/`);
  // The list first: a crash before the folders are swept or filled leaves them named, never orphaned.
  if (before.length !== listed.length || before.some((m, i) => m !== listed[i])) await store.write(MODELS_KEY, `${JSON.stringify({ models: listed })}\n`);
  for (const key of await store.list(VECTORS_FOLDER)) {
    if (key === MODELS_KEY || folders.some((f) => key.startsWith(f))) continue;
    await store.remove(key);
  }
  return listed;
}
