/**
 * Undoing a run's change to one of Synapse's records (see `PlannedStateChange`). When nothing wrote
 * the record since the run, it gets its earlier bytes back. When something did (a later ingest
 * recorded another contradiction, registered another note), only the entries this run changed are
 * put back as they were, so the later writer's entries are kept: the records are lists of entries
 * keyed by id (contradictions) or by note path (the source registry's shards; its hash index by hash).
 */
import { CONTRADICTIONS_KEY } from "../core/state-keys";
import { SOURCES_KEY, isHashShard, isNotesShard } from "./source-registry-shards";
import type { PlannedStateChange } from "./planned-change";
import type { RunState } from "./write-records";

/** How a record's entries are found and put back: one field holding an array of `{id}`s, or an object keyed by name. */
interface Keyed {
  readonly field: string;
  readonly by: "id" | "key";
}

/** Contradictions by id; the registry's notes shards (and its whole file of earlier versions) by note path, its hash shards by hash. */
function keyedFor(key: string): Keyed | null {
  if (key === CONTRADICTIONS_KEY) return { field: "contradictions", by: "id" };
  if (key === SOURCES_KEY || isNotesShard(key)) return { field: "notes", by: "key" };
  if (isHashShard(key)) return { field: "paths", by: "key" };
  return null;
}

type Json = Record<string, unknown>;

function parse(text: string | null): Json | null {
  if (text === null) return {};
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Json) : null;
  } catch {
    return null;
  }
}

function entries(record: Json, keyed: Keyed): Map<string, unknown> | null {
  const value = record[keyed.field];
  if (value === undefined) return new Map();
  if (keyed.by === "key") return typeof value === "object" && value !== null && !Array.isArray(value) ? new Map(Object.entries(value)) : null;
  if (!Array.isArray(value)) return null;
  const out = new Map<string, unknown>();
  for (const item of value as unknown[]) {
    const id = typeof item === "object" && item !== null ? (item as { id?: unknown }).id : undefined;
    if (typeof id !== "string") return null;
    out.set(id, item);
  }
  return out;
}

/** The later value with this run's entries put back as they were before it; null when it cannot be read. */
function mergeBack(keyed: Keyed, currentText: string, state: RunState): string | null {
  const [current, before, after] = [parse(currentText), parse(state.before), parse(state.after)];
  if (!current || !before || !after) return null;
  const [now, was, left] = [entries(current, keyed), entries(before, keyed), entries(after, keyed)];
  if (!now || !was || !left) return null;
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  for (const id of new Set([...was.keys(), ...left.keys()])) {
    if (same(was.get(id), left.get(id))) continue; // not this run's change
    if (was.has(id)) now.set(id, was.get(id));
    else now.delete(id);
  }
  const field = keyed.by === "id" ? [...now.values()] : Object.fromEntries(now);
  const indent = currentText.startsWith("{\n  ") ? 2 : currentText.startsWith("{\n ") ? 1 : 0;
  return `${JSON.stringify({ ...current, [keyed.field]: field }, null, indent)}${currentText.endsWith("\n") ? "\n" : ""}`;
}

/** The change that takes a record back to what it was before the run. */
export function revertState(state: RunState): PlannedStateChange {
  return {
    key: state.key,
    update: (current) => {
      if (current === state.after) return state.before;
      const keyed = keyedFor(state.key);
      // A record of another kind written since is left as it is: it is a cache, rebuilt as needed.
      return (keyed && current !== null ? mergeBack(keyed, current, state) : null) ?? current;
    },
  };
}
