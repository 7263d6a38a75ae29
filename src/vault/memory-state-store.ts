/** A StateStore in memory: for tests and benchmarks that keep the disk out of the measure. */
import { checkStateKey, type StateStore } from "./state-store";

export class MemoryStateStore implements StateStore {
  readonly entries = new Map<string, string | Uint8Array>();

  async read(key: string): Promise<string | null> {
    const value = this.entries.get(checkStateKey(key));
    if (value === undefined) return null;
    return typeof value === "string" ? value : new TextDecoder().decode(value);
  }

  async readBytes(key: string): Promise<Uint8Array | null> {
    const value = this.entries.get(checkStateKey(key));
    if (value === undefined) return null;
    return typeof value === "string" ? new TextEncoder().encode(value) : value.slice();
  }

  async write(key: string, content: string | Uint8Array): Promise<void> {
    this.entries.set(checkStateKey(key), typeof content === "string" ? content : content.slice());
    return ;
  }

  async append(key: string, text: string): Promise<void> {
    const current = (await this.read(key)) ?? "";
    this.entries.set(checkStateKey(key), current + text);
  }

  async remove(key: string): Promise<void> {
    this.entries.delete(checkStateKey(key));
    return ;
  }

  async list(prefix: string): Promise<string[]> {
    const folder = `${checkStateKey(prefix)}/`;
    return [...this.entries.keys()].filter((k) => k.startsWith(folder)).sort();
  }

  async createExclusive(key: string, content: string): Promise<boolean> {
    const k = checkStateKey(key);
    if (this.entries.has(k)) return false;
    this.entries.set(k, content);
    return true;
  }
}
