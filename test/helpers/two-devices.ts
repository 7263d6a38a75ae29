/**
 * Two devices syncing one vault, in memory: each has its copy of the notes and of the state folder,
 * and sync is played by hand — a tool that copies files one by one, the last writer winning, in
 * whatever order the test chooses (state before pages, one way or both).
 */
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { MemoryVault } from "../../src/vault/memory-vault";
import type { WriteContext } from "../../src/write/apply";
import type { WriterIdentity } from "../../src/write/write-records";

export interface Device {
  readonly name: string;
  readonly vault: MemoryVault;
  readonly store: MemoryStateStore;
  readonly writer: WriterIdentity;
  readonly context: WriteContext;
}

export function aDevice(name: string, initial: Record<string, string> = {}, pid = 1): Device {
  const store = new MemoryStateStore();
  const writer: WriterIdentity = { kind: "cli", pid, host: name, device: { id: `${name}-device-id`, name } };
  // Its own programs are dead once a test "kills" them: pid `pid` alone is running.
  return { name, vault: new MemoryVault(initial), store, writer, context: { store, writer, lock: { isAlive: (p) => p === pid } } };
}

/** Copies every key of one state folder over the other's, file by file (last writer wins); removals are not carried. */
export function copyState(from: MemoryStateStore, to: MemoryStateStore, keys: (key: string) => boolean = () => true): void {
  for (const [key, value] of from.entries) if (keys(key)) to.entries.set(key, value);
}

/** Makes `to`'s state folder what `from`'s is: a sync that carries removals too. */
export function mirrorState(from: MemoryStateStore, to: MemoryStateStore): void {
  to.entries.clear();
  copyState(from, to);
}

/** Copies the notes of one vault into the other, file by file (last writer wins); removals are carried when `mirror`. */
export async function copyFiles(from: MemoryVault, to: MemoryVault, mirror = false): Promise<void> {
  const source = from.snapshot();
  for (const [path, content] of Object.entries(source)) {
    if (await to.stat(path)) await to.process(path, () => content);
    else await to.create(path, content);
  }
  if (mirror) for (const path of Object.keys(to.snapshot())) if (!(path in source)) await to.remove(path);
}
