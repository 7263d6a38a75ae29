/**
 * A StateStore over Obsidian's DataAdapter, in the plugin's own folder
 * (`<configDir>/plugins/synapse/state`), which Obsidian does not index as notes. The adapter has no
 * exclusive create, so `createExclusive` checks, writes a unique token and reads it back: two
 * writers racing within the same instant could both pass, which is why the lock also records its
 * owner and the journal is the real safety net. Obsidian closed mid-write leaves the write's
 * temporary file: `list` removes those older than STALE_TEMP_MS, as the CLI's store does.
 */
import { normalizePath, type DataAdapter } from "obsidian";
import { checkStateKey, STALE_TEMP_MS, type StateStore } from "../vault/state-store";

export class ObsidianStateStore implements StateStore {
  /** @param folder vault-relative state folder, e.g. `${manifest.dir}/state`. */
  constructor(
    private readonly adapter: DataAdapter,
    private readonly folder: string,
  ) {}

  private path(key: string): string {
    return normalizePath(`${this.folder}/${checkStateKey(key)}`);
  }

  private async ensureParent(path: string): Promise<void> {
    const parent = path.slice(0, path.lastIndexOf("/"));
    if (parent && !(await this.adapter.exists(parent))) await this.adapter.mkdir(parent);
  }

  async read(key: string): Promise<string | null> {
    const path = this.path(key);
    return (await this.adapter.exists(path)) ? this.adapter.read(path) : null;
  }

  async readBytes(key: string): Promise<Uint8Array | null> {
    const path = this.path(key);
    return (await this.adapter.exists(path)) ? new Uint8Array(await this.adapter.readBinary(path)) : null;
  }

  async write(key: string, content: string | Uint8Array): Promise<void> {
    const path = this.path(key);
    await this.ensureParent(path);
    const temp = `${path}.${Math.random().toString(36).slice(2, 10)}.tmp`;
    if (typeof content === "string") await this.adapter.write(temp, content);
    else await this.adapter.writeBinary(temp, content.slice().buffer);
    try {
      await this.adapter.rename(temp, path);
    } catch {
      // Some adapters refuse to rename over an existing file: replace it in two steps.
      await this.adapter.remove(path).catch(() => undefined);
      await this.adapter.rename(temp, path);
    }
  }

  async append(key: string, text: string): Promise<void> {
    const path = this.path(key);
    await this.ensureParent(path);
    if (await this.adapter.exists(path)) await this.adapter.append(path, text);
    else await this.adapter.write(path, text);
  }

  async remove(key: string): Promise<void> {
    const path = this.path(key);
    if (await this.adapter.exists(path)) await this.adapter.remove(path);
  }

  async list(prefix: string): Promise<string[]> {
    const base = normalizePath(this.folder);
    const out: string[] = [];
    const walk = async (dir: string): Promise<void> => {
      if (!(await this.adapter.exists(dir))) return;
      const listed = await this.adapter.list(dir);
      for (const file of listed.files) {
        if (file.endsWith(".tmp")) await this.removeIfStale(file);
        else out.push(file.slice(base.length + 1));
      }
      for (const folder of listed.folders) await walk(folder);
    };
    await walk(this.path(prefix));
    return out.sort();
  }

  /** Never fails the listing: a file gone meanwhile (its write finished) is simply not there. */
  private async removeIfStale(path: string): Promise<void> {
    try {
      const stat = await this.adapter.stat(path);
      if (stat && Date.now() - stat.mtime > STALE_TEMP_MS) await this.adapter.remove(path);
    } catch {
      // Left for the next listing.
    }
  }

  async createExclusive(key: string, content: string): Promise<boolean> {
    const path = this.path(key);
    if (await this.adapter.exists(path)) return false;
    await this.ensureParent(path);
    await this.adapter.write(path, content);
    return (await this.adapter.read(path)) === content;
  }
}
